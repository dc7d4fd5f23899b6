/** The ticker search: a small static index of every ticker and company name, and its ranking. */

/** One entry of the search index: ticker and company name. */
export type SearchEntry = [ticker: string, company: string];

/** Most results the search box lists. */
export const SEARCH_LIMIT = 8;

/**
 * Entries matching the query, best first: exact ticker, ticker prefix, company word prefix, then any substring of
 * ticker or company; ties by ticker. Case-insensitive; an empty query matches nothing.
 */
export function searchTickers(index: readonly SearchEntry[], query: string, limit: number = SEARCH_LIMIT): SearchEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const ranked: [number, SearchEntry][] = [];
  for (const entry of index) {
    const ticker = entry[0].toLowerCase();
    const company = entry[1].toLowerCase();
    let rank = -1;
    if (ticker === q) rank = 0;
    else if (ticker.startsWith(q)) rank = 1;
    else if (company.startsWith(q) || company.includes(` ${q}`)) rank = 2;
    else if (ticker.includes(q) || company.includes(q)) rank = 3;
    if (rank >= 0) ranked.push([rank, entry]);
  }
  ranked.sort((a, b) => a[0] - b[0] || (a[1][0] < b[1][0] ? -1 : a[1][0] > b[1][0] ? 1 : 0));
  return ranked.slice(0, limit).map(([, entry]) => entry);
}
