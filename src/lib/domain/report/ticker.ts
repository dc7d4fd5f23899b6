/**
 * The ticker rule (DESIGN.md "Security rules"): upper-cased (a-z only) and trimmed, then 1 to 10 characters of A-Z, 0-9,
 * "." or "-". Free of zod, so the browser's scripts use it without pulling a schema library; TickerSchema is
 * built from it.
 */
import { asciiUpper } from '../text/text';

/** A well-formed ticker once upper-cased. */
export const TICKER_PATTERN = /^[A-Z0-9.-]{1,10}$/;

/** What a well-formed ticker is, in a sentence fragment for messages. */
export const TICKER_RULE = '1 to 10 characters of A-Z, 0-9, "." or "-"';

/** Whether `ticker`, as it stands, is well formed (it must already be upper case). */
export function isTicker(ticker: string): boolean {
  return TICKER_PATTERN.test(ticker);
}

/** Why a route's ticker is refused, or null when it is fine; `raw` is the ticker as the path had it. */
export function tickerProblem(raw: string): string | null {
  if (raw === '') return 'The ticker is empty: put a ticker symbol such as AAPL in the path.';
  if (raw.length > 10) return `The ticker "${raw.slice(0, 20)}" is longer than 10 characters: use a symbol such as AAPL or BRK.B.`;
  if (!isTicker(asciiUpper(raw))) {
    return `The ticker "${raw}" has characters other than letters, digits, "." and "-": use a symbol such as AAPL or BRK.B.`;
  }
  return null;
}
