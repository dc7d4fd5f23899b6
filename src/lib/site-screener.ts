import { screenerRecords, screenRows, screenRowsOf, type ScreenRow } from './domain/signals/screener';
import type { SignalRecord } from './domain/report/schemas';
import { siteData } from './site-data';
import { anonymousViewer, siteSlice } from './site-access';

let cached: { records: SignalRecord[]; rows: ScreenRow[]; locked: number } | undefined;

/**
 * The screener's records and screen rows, in the table's order (row i of the JSON is row i of the table): every stock,
 * or with PAYWALL=on the free slice, as All Signals shows them. /screener and /screener-rows.json both read it.
 */
export function siteScreener(): { records: SignalRecord[]; rows: ScreenRow[]; locked: number } {
  if (cached) return cached;
  const data = siteData();
  const { rows: records, locked } = screenerRecords(data.history, siteSlice(), anonymousViewer());
  cached = { records, rows: screenRowsOf(records, screenRows(data.history, data.fundamentals)), locked };
  return cached;
}
