/** The account watchlist's rules, shared by the server and the browser: upper-cased, well-formed, at most 200. */
import { isTicker, TICKER_RULE } from '../report/ticker';
import { asciiUpper } from '../text/text';

/** Most tickers one account may watch. */
export const MAX_WATCHLIST = 200;

/** The tickers upper-cased, trimmed and de-duplicated in order, or the problem with the first bad one. */
export function cleanTickers(values: readonly string[]): { tickers: string[] } | { problem: string } {
  const seen = new Set<string>();
  for (const value of values) {
    const ticker = asciiUpper(value.trim());
    if (!isTicker(ticker)) return { problem: `"${value.slice(0, 20)}" is not a ticker: use ${TICKER_RULE}.` };
    seen.add(ticker);
  }
  if (seen.size > MAX_WATCHLIST) return { problem: `A watchlist holds at most ${MAX_WATCHLIST} tickers; this one would hold ${seen.size}.` };
  return { tickers: [...seen] };
}
