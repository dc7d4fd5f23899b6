/** The build's static files the browser reads besides the live API: the search index and the track record's ledger CSV. */
import type { SearchEntry } from '../domain/signals/search';

/** GET /search-index.json: the index, or none when the file is missing; a failed connection throws. */
export async function fetchSearchIndex(): Promise<SearchEntry[]> {
  const response = await fetch('/search-index.json');
  return response.ok ? ((await response.json()) as SearchEntry[]) : [];
}

/** GET the ledger CSV at `url` (the page's link to it): its text; a refusal throws naming the status. */
export async function fetchLedgerCsv(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the ledger CSV answered ${response.status}`);
  return response.text();
}
