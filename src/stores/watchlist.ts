import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { showToast } from './toast';
import { asciiUpper } from '../lib/domain/text/text';
import { answer, api } from '../lib/client/api-client';

/** Spec section 9: the watch message shows for 2 s. */
const WATCH_MESSAGE_MS = 2000;

/** Watched tickers, upper case, persisted in localStorage and synchronised between tabs. */
const $watchlist = persistentAtom<string[]>('watched-tickers', [], {
  encode: JSON.stringify,
  decode: (text) => {
    try {
      const value: unknown = JSON.parse(text);
      return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string').map((t) => asciiUpper(t)) : [];
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
  const ticker = asciiUpper(rawTicker.trim());
  if (!ticker) return null;
  const list = $watchlist.get();
  const watched = list.includes(ticker);
  $watchlist.set(watched ? list.filter((t) => t !== ticker) : [...list, ticker]);
  showToast({ title: `${ticker} ${watched ? 'removed from' : 'added to'} watchlist`, durationMs: WATCH_MESSAGE_MS });
  return watched ? 'removed' : 'added';
}

/**
 * The account's watchlist route (/api/watchlist): GET answers `{tickers}`; PUT (replace) and POST /merge (the union
 * with the stored list) take and answer `{tickers}`.
 */
const calls = {
  GET: () => api.watchlist.$get(),
  PUT: (tickers: string[]) => api.watchlist.$put({ json: { tickers } }),
  POST: (tickers: string[]) => api.watchlist.merge.$post({ json: { tickers } }),
};
/** The account whose watchlist this browser's list was last merged into: the merge happens once per account. */
const $mergedFor = persistentAtom<string>('watchlist-merged-for', '');
let account: string | null = null;
/** The list as the server last answered it: setting it locally needs no save. */
let lastSaved = '';

async function send(method: 'GET' | 'PUT' | 'POST', tickers?: readonly string[]): Promise<string[] | null> {
  try {
    const body = await answer(method === 'GET' ? calls.GET() : calls[method]([...(tickers ?? [])]));
    if (!Array.isArray(body.tickers)) return null;
    const saved = body.tickers.filter((t): t is string => typeof t === 'string').map((t) => asciiUpper(t));
    lastSaved = JSON.stringify(saved);
    return saved;
  } catch {
    return null;
  }
}

/**
 * Follows the signed-in account: signed in, the list is the account's, read from the server; on an
 * account's first sign-in in this browser the local list is merged in. Signed out (email null), the list stays local.
 */
export async function followAccount(email: string | null): Promise<void> {
  account = email;
  if (email === null) return;
  const first = $mergedFor.get() !== email;
  const sent = $watchlist.get();
  const saved = first ? await send('POST', sent) : await send('GET');
  if (saved === null || account !== email) return;
  // The store's lists are replaced, never changed in place: a new array means a star was pressed meanwhile.
  const now = $watchlist.get();
  const changed = now !== sent;
  if (!first) {
    // A star pressed while the list was on its way wins: it is saved rather than overwritten.
    if (changed) void send('PUT', now);
    else $watchlist.set(saved);
    return;
  }
  $mergedFor.set(email);
  // The merge answered the list as it was when sent: a star pressed meanwhile is merged in too (and saved, by the
  // listener below, since the list then differs from the server's), and one taken off stays off.
  if (!changed) {
    $watchlist.set(saved);
    return;
  }
  const merged = [...saved.filter((t) => now.includes(t) || !sent.includes(t)), ...now.filter((t) => !saved.includes(t))];
  $watchlist.set(merged);
}

// Signed in, every change is saved to the account too (the local list stays as this browser's copy).
$watchlist.listen((list) => {
  if (account !== null && $mergedFor.get() === account && JSON.stringify(list) !== lastSaved) void send('PUT', list);
});
