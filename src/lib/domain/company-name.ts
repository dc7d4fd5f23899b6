/**
 * Company names: the lookup order of spec section 4, the header fallback of section 2 and the ticker list of
 * the company-name lookup (section 5).
 */
import { asciiUpper } from './text';

/** Name given when no source knows the company; it displays as nothing. */
export const UNKNOWN_COMPANY = 'Unknown Company';

/** Built-in names of well-known tickers, the last source before 'Unknown Company'. */
export const FALLBACK_COMPANY_NAMES: ReadonlyMap<string, string> = new Map([
  ['AAPL', 'Apple Inc.'],
  ['MSFT', 'Microsoft Corporation'],
  ['GOOGL', 'Alphabet Inc.'],
  ['AMZN', 'Amazon.com, Inc.'],
  ['META', 'Meta Platforms, Inc.'],
  ['NVDA', 'NVIDIA Corporation'],
  ['TSLA', 'Tesla, Inc.'],
  ['BRK.B', 'Berkshire Hathaway Inc.'],
  ['JPM', 'JPMorgan Chase & Co.'],
  ['V', 'Visa Inc.'],
  ['JNJ', 'Johnson & Johnson'],
  ['WMT', 'Walmart Inc.'],
  ['PG', 'The Procter & Gamble Company'],
  ['MA', 'Mastercard Incorporated'],
  ['UNH', 'UnitedHealth Group Incorporated'],
  ['HD', 'The Home Depot, Inc.'],
  ['DIS', 'The Walt Disney Company'],
  ['BAC', 'Bank of America Corporation'],
  ['XOM', 'Exxon Mobil Corporation'],
  ['KO', 'The Coca-Cola Company'],
  ['PEP', 'PepsiCo, Inc.'],
  ['NFLX', 'Netflix, Inc.'],
  ['INTC', 'Intel Corporation'],
  ['AMD', 'Advanced Micro Devices, Inc.'],
]);

/** Where a company name may come from, in lookup order; null or undefined when that source has none. */
export interface CompanyNameSources {
  cached?: string | null;
  server?: string | null;
  provider?: string | null;
}

/** The trimmed name, or null when it is empty or 'Unknown Company' (a stored miss, not a name). */
function usableName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() ?? '';
  return trimmed === '' || trimmed === UNKNOWN_COMPANY ? null : trimmed;
}

/** Company name from the first source that has one: cache, server, market-data provider, built-in map, else 'Unknown Company'. */
export function lookupCompanyName(ticker: string, sources: CompanyNameSources): string {
  return (
    usableName(sources.cached) ??
    usableName(sources.server) ??
    usableName(sources.provider) ??
    FALLBACK_COMPANY_NAMES.get(asciiUpper(ticker.trim())) ??
    UNKNOWN_COMPANY
  );
}

/** The name as shown: '' for 'Unknown Company' or an empty name, else the trimmed name. */
export function displayCompanyName(name: string | null | undefined): string {
  return usableName(name) ?? '';
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
