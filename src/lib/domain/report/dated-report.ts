/**
 * The dated daily files, `/api/reports/{YYYY-MM-DD}.json`: one report of the archive each, written once by the daily
 * job and kept by every later build. Rows are arrays under one `columns` header: at thousands of tickers a day over
 * years of reports, repeating each field name on every row would be most of the bytes.
 */
import { z } from '../zod';
import { IsoDateSchema, SignalRecordSchema, type SignalRecord } from './record';

/** Where the dated files live under the client folder, and the index that lists them. */
export const DATED_REPORTS_DIR = 'api/reports';
export const DATED_REPORTS_INDEX = `${DATED_REPORTS_DIR}/index.json`;

/** The public address of one report date's file. */
export function datedReportPath(date: string): string {
  return `/${DATED_REPORTS_DIR}/${date}.json`;
}

/** The columns of a whole report's rows: every field of a signal record, in the record's order. */
export const RECORD_COLUMNS = Object.keys(SignalRecordSchema.shape) as (keyof SignalRecord)[];

/** The columns of a report the archive's history keeps only the scores of (archived before dated files were written). */
export const SCORE_COLUMNS = ['ticker', 'cScore'] as const;

const CellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One dated file. `kind`: `records` holds every field of each row (what the report published), `scores` only the
 * ticker and C-Score (a report archived before the daily job wrote dated files). `view`: `public` is the whole report,
 * `free` what an anonymous visitor may see with PAYWALL=on.
 */
export const DatedReportFileSchema = z.object({
  reportDate: IsoDateSchema,
  kind: z.enum(['records', 'scores']),
  view: z.enum(['public', 'free']),
  columns: z.array(z.string()),
  rows: z.array(z.array(CellSchema)),
});
export type DatedReportFile = z.infer<typeof DatedReportFileSchema>;

/** One entry of the index: a date, its file's address, and the archived file it was made from (its id). */
export const DatedReportEntrySchema = z.object({
  reportDate: IsoDateSchema,
  path: z.string(),
  kind: z.enum(['records', 'scores']),
  view: z.enum(['public', 'free']),
  source: z.string(),
});
export type DatedReportEntry = z.infer<typeof DatedReportEntrySchema>;

/** `/api/reports/index.json`: every dated file, oldest first. */
export const DatedReportIndexSchema = z.object({ reports: z.array(DatedReportEntrySchema) });
export type DatedReportIndex = z.infer<typeof DatedReportIndexSchema>;

/** The dated file of a report whose full records the job holds (the latest one). */
export function recordsReport(date: string, records: readonly SignalRecord[], view: DatedReportFile['view']): DatedReportFile {
  return { reportDate: date, kind: 'records', view, columns: [...RECORD_COLUMNS], rows: records.map((record) => RECORD_COLUMNS.map((column) => record[column] ?? null)) };
}

/** The dated file of a report the history keeps only the C-Scores of: `scores` maps each ticker to its score that day. */
export function scoresReport(date: string, scores: Iterable<readonly [string, number]>): DatedReportFile {
  const rows: DatedReportFile['rows'] = [];
  for (const [ticker, score] of scores) rows.push([ticker, score]);
  return { reportDate: date, kind: 'scores', view: 'public', columns: [...SCORE_COLUMNS], rows };
}

/**
 * Whether a published dated file can be kept as it is: the same archived file made it and the view has not changed.
 * A corrected or withdrawn report, or a switch of PAYWALL, makes it again.
 */
export function keepsDatedFile(published: DatedReportEntry | undefined, source: string, view: DatedReportFile['view']): published is DatedReportEntry {
  return published !== undefined && published.source === source && published.view === view;
}
