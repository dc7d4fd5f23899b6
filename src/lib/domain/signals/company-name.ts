/**
 * Company names: the header fallback of spec section 2 and the ticker list of the company-name lookup (section 5).
 */
import { asciiUpper } from '../text/text';

/** Name stored when no source knows the company: a miss, never shown as a name. */
export const UNKNOWN_COMPANY = 'Unknown Company';

/** The trimmed name, or null when it is empty or 'Unknown Company' (a stored miss, not a name). */
function usableName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() ?? '';
  return trimmed === '' || trimmed === UNKNOWN_COMPANY ? null : trimmed;
}

/** Detail-page header name: the company-info name, else the record's name, else '{ticker} Corporation'. */
export function headerCompanyName(
  ticker: string,
  infoName?: string | null,
  recordName?: string | null,
): string {
  return usableName(infoName) ?? usableName(recordName) ?? `${ticker} Corporation`;
}

/** Tickers for a company-name lookup: trimmed, upper-cased, empty ones skipped, duplicates dropped, order kept. */
export function uniqueTickers(tickers: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of tickers) {
    // The list comes from a request body, so a stray non-string is skipped rather than trusted.
    if (typeof raw !== 'string') continue;
    const ticker = asciiUpper(raw.trim());
    if (ticker !== '') seen.add(ticker);
  }
  return [...seen];
}
