import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { showToast } from './toast';

/** Spec section 9: the watch message shows for 2 s. */
const WATCH_MESSAGE_MS = 2000;

/** Watched tickers, upper case, persisted in localStorage and synchronised between tabs. */
const $watchlist = persistentAtom<string[]>('watched-tickers', [], {
  encode: JSON.stringify,
  decode: (text) => {
    try {
      const value: unknown = JSON.parse(text);
      return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string').map((t) => t.toUpperCase()) : [];
    } catch {
      return [];
    }
  },
});

/** The watched tickers as a set, for quick membership checks. */
export const $watchedSet = computed($watchlist, (list) => new Set(list));

/**
 * Adds or removes a ticker (upper-cased; an empty ticker is ignored, spec section 5) and shows the 2-second
 * message '{ticker} added to watchlist' or '{ticker} removed from watchlist'. Returns the new state, or null.
 */
export function toggleWatch(rawTicker: string): 'added' | 'removed' | null {
  const ticker = rawTicker.trim().toUpperCase();
  if (!ticker) return null;
  const list = $watchlist.get();
  const watched = list.includes(ticker);
  $watchlist.set(watched ? list.filter((t) => t !== ticker) : [...list, ticker]);
  showToast({ title: `${ticker} ${watched ? 'removed from' : 'added to'} watchlist`, durationMs: WATCH_MESSAGE_MS });
  return watched ? 'removed' : 'added';
}
