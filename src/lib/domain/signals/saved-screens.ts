/**
 * Saved screens of an account: a name and the screen's canonical query. Their limits by plan,
 * the checks of what a client sends, and which stocks newly entered a screen on a published report.
 */
import { seesEverything, type Viewer } from '../accounts/entitlements';
import { isEmptyScreen, parseScreen, runScreen, screenToQuery, type ScreenRow } from './screener';

/** Saved screens an account keeps: Free with PAYWALL=on keeps one, Pro (and everyone without the paywall) 50. */
export const SAVED_SCREEN_LIMITS = { free: 1, pro: 50 } as const;
export const MAX_SCREEN_NAME = 60;
/** A query longer than this is no screen a form makes. */
export const MAX_SCREEN_QUERY = 2000;

/** How many saved screens a viewer may keep. */
export function savedScreenLimit(viewer: Viewer): number {
  return seesEverything(viewer) ? SAVED_SCREEN_LIMITS.pro : SAVED_SCREEN_LIMITS.free;
}

/** A screen's name as stored: trimmed, 1 to 60 characters; else the problem, naming the field. */
export function checkScreenName(name: string): { name: string } | { problem: string } {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (clean === '') return { problem: 'name: give the screen a name' };
  if (clean.length > MAX_SCREEN_NAME) return { problem: `name: at most ${MAX_SCREEN_NAME} characters` };
  return { name: clean };
}

/** A screen's query as stored (canonical, as the page writes it); else the first problem, naming the field. */
export function checkScreenQuery(query: string): { query: string } | { problem: string } {
  if (query.length > MAX_SCREEN_QUERY) return { problem: `query: at most ${MAX_SCREEN_QUERY} characters` };
  const { screen, errors } = parseScreen(query.replace(/^\?/, ''));
  if (errors.length > 0) return { problem: `query: ${errors[0]!.message}` };
  if (isEmptyScreen(screen)) return { problem: 'query: the screen filters nothing; set at least one range or choice' };
  return { query: screenToQuery(screen) };
}

/** The tickers a saved screen holds on a report; `watched` is the account's watchlist (for `watched=1`). */
export function screenMembers(rows: readonly ScreenRow[], query: string, watched: ReadonlySet<string>): string[] {
  return runScreen(rows, parseScreen(query).screen, watched).order.map((i) => rows[i]!.ticker);
}

/** The stocks in a screen now that were not in it on the report before, in the screen's order. */
export function enteredScreen(before: readonly string[], now: readonly string[]): string[] {
  const had = new Set(before);
  return now.filter((ticker) => !had.has(ticker));
}
