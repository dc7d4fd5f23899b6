/**
 * What a signal's permalink page (/signal/{T}/{date}) shows besides the site's shell, and when it can no longer
 * change: the daily build renders again only the pages whose content changed, and keeps the others from the
 * previous build (src/ingest/permalinks.ts). One source for the page and for that decision.
 */
import type { BenchmarkInfo } from './track-data';
import type { LedgerRow } from './track-record';

/** How many of a ticker's earlier signals a permalink lists. */
export const EARLIER_SIGNALS = 6;

/** The file beside the site data that names each permalink page of the build and the key of its content. */
export const PERMALINK_MANIFEST_FILE = 'permalinks.json';

/** A permalink's name in the build's lists and manifest: `AAPL/2026-03-02`. */
export function permalinkId(ticker: string, date: string): string {
  return `${ticker}/${date}`;
}

/** The ticker and the date of a permalink's id. */
export function splitPermalinkId(id: string): [ticker: string, date: string] {
  const slash = id.lastIndexOf('/');
  return [id.slice(0, slash), id.slice(slash + 1)];
}

/** A permalink page's path under the build's folder, without the file name (`signal/AAPL/2026-03-02`), from its id. */
export function permalinkFolderOf(id: string): string {
  return `signal/${id}`;
}

/** A permalink page's path under the build's folder, without the file name. */
export function permalinkFolder(ticker: string, date: string): string {
  return permalinkFolderOf(permalinkId(ticker, date));
}

/** The call's share image under the build's folder: drawn once, with the page. */
export function permalinkImage(ticker: string, date: string): string {
  return `og/signal/${ticker}/${date}.png`;
}

/**
 * Whether a row's page can no longer change with new reports: the signal has exited and every horizon is measured to
 * its own trading day. An open signal, or a horizon still open or cut short by a ticker that stopped trading, can.
 */
export function isSettled(row: LedgerRow): boolean {
  return row.exitDate !== null && row.outcomes.every((o) => o.status === 'closed');
}

/**
 * The ticker's signals before this one, newest first (`rows` newest first). Only earlier ones: a later signal would
 * change a settled page, and the stock page lists them all.
 */
export function earlierSignals(rows: readonly LedgerRow[], date: string): LedgerRow[] {
  return rows.filter((r) => r.date < date).slice(0, EARLIER_SIGNALS);
}

/** The company name a permalink shows: the latest report's, else the universe's, else the ticker. */
export function permalinkCompanyName(ticker: string, latestName: string | undefined, universeName: string | undefined): string {
  return latestName ?? universeName ?? ticker;
}

/** What a permalink's page is made of, besides the shell (the code, the site's settings and the data source). */
export interface PermalinkContent {
  row: LedgerRow;
  /** The ticker's rows, newest first (the earlier signals are taken from them). */
  rows: readonly LedgerRow[];
  name: string;
  /** The ticker is in the latest report: the page links its stock page. */
  inLatest: boolean;
  benchmark: BenchmarkInfo | null;
  prices: string;
  /** The day the outcomes are measured to: an open signal's page says "still qualified as of" it. */
  asOf: string | null;
}

/** A text that changes exactly when the page's content does (the daily build hashes it). */
export function permalinkContentKey(content: PermalinkContent): string {
  const { row } = content;
  const earlier = earlierSignals(content.rows, row.date).map((r) => [r.date, r.direction, r.cScore]);
  return JSON.stringify([row, earlier, content.name, content.inLatest, content.benchmark, content.prices, row.exitDate === null ? content.asOf : null]);
}
