/**
 * The track record as the site publishes it: the closing prices the daily job stored (grouped daily bars,
 * one call per report date), the recorded ledger, and what the pages, the static API and the ledger CSV derive from
 * them. One source for every figure: the page, the stock card, `/api/track-record` and the CSV call the same functions.
 */
import { z } from '../zod';
import { toCsv } from '../text/csv';
import { formatReturn, type ListPrice, type PriceSource } from '../signals/list-price';
import { ledgerStatus } from './ledger-view';
import { MIN_RESOLVED } from './stats';
import { modelPortfolio, type Portfolio } from './portfolio';
import { DEFAULT_COST_BPS, DEMO_INDEX_NAME, type BenchmarkSeries } from './benchmark';
import { IsoDay, LedgerEntrySchema, publishedLedgerRow } from './ledger-schema';

export { formatReturn, type ListPrice, type PriceSource };
import {
  aggregateLedger,
  measureEntry,
  TRACK_HORIZONS,
  type LedgerEntry,
  type LedgerRow,
  type PriceSeries,
  type TrackAggregates,
} from './track-record';

/** The label every page and file built from demo closes carries (the price card's words). */
export const DEMO_PRICES_LABEL = 'Demo prices';

/** One ticker's close on one day, from the grouped daily bars. */
export interface DailyClose {
  ticker: string;
  close: number;
}

/** The daily job's source of closes for the whole market: one call per date (Polygon's grouped daily bars, or the demo walk). */
export interface ClosingPricesSource {
  readonly name: 'polygon' | 'demo';
  /** Every stock's close on `date` (yyyy-mm-dd); an empty list when the day has no bars yet (a holiday, or not closed). */
  groupedDaily(date: string): Promise<DailyClose[]>;
}

/** One bar of `/v2/aggs/grouped/locale/us/market/stocks/{date}` (the fields we keep; the rest pass through). */
export const GroupedBarSchema = z.object({ T: z.string(), c: z.number(), o: z.number().optional(), t: z.number().optional(), v: z.number().optional() });

/** The grouped daily bars answer: `results` is absent or empty on a day without trading. */
export const GroupedDailySchema = z.object({ results: z.array(GroupedBarSchema).optional(), resultsCount: z.number().optional(), status: z.string().optional(), next_url: z.string().nullish() });

/** Closes of the grouped answer's bars, positive and finite only. */
export function closesOfGroupedBars(bars: readonly z.infer<typeof GroupedBarSchema>[]): DailyClose[] {
  return bars.filter((bar) => Number.isFinite(bar.c) && bar.c > 0).map((bar) => ({ ticker: bar.T, close: bar.c }));
}


/** What the daily job hands the build for the track record. */
export const TrackDataSchema = z.object({
  prices: z.enum(['polygon', 'demo', 'none']),
  /** Trading days with closes, ascending. */
  days: z.array(IsoDay),
  /** Closes by ticker, aligned with `days` (null: no close that day), for the tickers of the ledger and the latest report. */
  closes: z.record(z.string(), z.array(z.number().nullable())),
  /** The recorded ledger, oldest first. */
  entries: z.array(LedgerEntrySchema),
  /** The benchmark's closes aligned with `days` (absent: no benchmark figures). */
  benchmark: z.object({ ticker: z.string(), demo: z.boolean(), closes: z.array(z.number().nullable()) }).optional(),
  /** The model portfolio's cost per trade in basis points (TRACK_COST_BPS). */
  costBps: z.number().nonnegative().optional(),
});
export type TrackData = z.infer<typeof TrackDataSchema>;

/** No closes and no ledger: what a build without the track step carries. */
export const EMPTY_TRACK: TrackData = { prices: 'none', days: [], closes: {}, entries: [] };

/** A ticker's price series from the track data. */
export function priceSeriesOf(track: TrackData, ticker: string): PriceSeries {
  const closes = new Map<string, number>();
  const list = track.closes[ticker];
  if (list) list.forEach((close, i) => close !== null && closes.set(track.days[i]!, close));
  return { days: track.days, closes };
}

/** The benchmark's price series from the track data, or null without one. */
export function benchmarkSeriesOf(track: TrackData): PriceSeries | null {
  if (!track.benchmark) return null;
  const closes = new Map<string, number>();
  track.benchmark.closes.forEach((close, i) => close !== null && i < track.days.length && closes.set(track.days[i]!, close));
  return closes.size === 0 ? null : { days: track.days, closes };
}

/** What a page says the benchmark is: its ticker, or the demo index (labelled demo). */
export interface BenchmarkInfo {
  ticker: string;
  demo: boolean;
  /** How a reader reads it: "SPY", or "Demo index (demo prices)". */
  label: string;
}

/** The benchmark of the track data as the pages name it, or null without one. */
export function benchmarkInfo(benchmark: Pick<BenchmarkSeries, 'ticker' | 'demo'> | undefined): BenchmarkInfo | null {
  if (!benchmark) return null;
  return { ticker: benchmark.ticker, demo: benchmark.demo, label: benchmark.demo ? `${DEMO_INDEX_NAME} (${DEMO_PRICES_LABEL.toLowerCase()})` : benchmark.ticker };
}

/** The measured ledger (every entry with its outcomes), newest first. */
export function measuredLedger(track: TrackData): LedgerRow[] {
  const benchmark = benchmarkSeriesOf(track);
  const byTicker = new Map<string, LedgerEntry[]>();
  for (const entry of track.entries) (byTicker.get(entry.ticker) ?? byTicker.set(entry.ticker, []).get(entry.ticker)!).push(entry);
  // One ticker's price series at a time, dropped once its entries are measured: five years of 6,000 tickers' closes
  // kept as maps together would take hundreds of MiB.
  const rows: LedgerRow[] = [];
  for (const [ticker, entries] of byTicker) {
    const prices = priceSeriesOf(track, ticker);
    for (const entry of entries) rows.push(measureEntry(entry, prices, benchmark));
  }
  return rows.sort((a, b) => b.date.localeCompare(a.date) || a.ticker.localeCompare(b.ticker));
}

/** The whole track record: the measured ledger and its aggregates. */
export interface TrackReport {
  prices: PriceSource;
  /** The last trading day with closes (the outcomes are "as of" it), or null. */
  asOf: string | null;
  /** What the excess returns are measured against, or null (older site data: no benchmark figures). */
  benchmark?: BenchmarkInfo | null;
  ledger: LedgerRow[];
  aggregates: TrackAggregates;
  /** The model portfolio from the first archived report on, or null without closes (older site data: absent). */
  portfolio?: Portfolio | null;
}

/** The track record of the site data's track part; sectors from the universe; the portfolio from `firstReport` (default: the first entry). */
export function trackReport(track: TrackData, sectorOf: (ticker: string) => string | undefined, firstReport?: string): TrackReport {
  const ledger = measuredLedger(track);
  const start = firstReport ?? track.entries[0]?.date;
  const portfolio =
    track.prices === 'none' || start === undefined
      ? null
      : modelPortfolio({ days: track.days, closes: track.closes, entries: track.entries, firstReport: start, costBps: track.costBps ?? DEFAULT_COST_BPS, benchmark: track.benchmark?.closes ?? null });
  return { prices: track.prices, asOf: track.days.at(-1) ?? null, benchmark: benchmarkInfo(track.benchmark), ledger, aggregates: aggregateLedger(ledger, sectorOf), portfolio };
}

/** Each ticker's last close as of `reportDate` and its day change. */
export function listPrices(track: TrackData, reportDate: string, tickers: readonly string[]): Map<string, ListPrice> {
  const prices = new Map<string, ListPrice>();
  let end = track.days.length - 1;
  while (end >= 0 && track.days[end]! > reportDate) end--;
  for (const ticker of tickers) {
    const list = track.closes[ticker];
    if (!list) continue;
    let i = end;
    while (i >= 0 && list[i] === null) i--;
    if (i < 0) continue;
    let j = i - 1;
    while (j >= 0 && list[j] === null) j--;
    const close = list[i]!;
    const before = j >= 0 ? list[j]! : null;
    prices.set(ticker, { date: track.days[i]!, close, change: before === null ? null : close / before - 1 });
  }
  return prices;
}

/** The ledger CSV's columns, in their stable order (docs/data-flow.md#track-record). */
export const LEDGER_CSV_COLUMNS = [
  'ticker',
  'report_date',
  'direction',
  'c_score',
  'entry_close',
  ...TRACK_HORIZONS.flatMap((h) => [`close_${h}d`, `close_${h}d_date`, `return_${h}d`, `status_${h}d`]),
  'exit_date',
  'exit_return',
  'prices',
  ...TRACK_HORIZONS.map((h) => `excess_${h}d`),
] as const;

const fixed = (value: number | null, digits: number) => (value === null ? '' : value.toFixed(digits));

/** The ledger as CSV: one row per signal, returns as fractions in the signal's direction, statuses `hit`, `miss`, `open`, `stopped-hit`, `stopped-miss`, `no-price`. */
export function ledgerCsv(report: TrackReport): string {
  return [...ledgerCsvChunks(report)].join('');
}

/** Ledger rows per chunk of `ledgerCsvChunks`. */
// Measured at 6,000 x 1,260 (135,000 rows): chunks of 2,000 rows grew the daily job's heap by 180 MB while the CSV was
// written (csv-stringify's garbage of a chunk lived long enough to be promoted); chunks of 250, by 26 MB.
const CSV_CHUNK_ROWS = 250;

/**
 * `ledgerCsv` a chunk at a time (the header, then up to CSV_CHUNK_ROWS rows each), for writing to a file: five years
 * of 6,000 tickers are 135,000 rows, whose cells made at once were 400 MB of the daily job's heap.
 */
export function* ledgerCsvChunks(report: TrackReport): Generator<string> {
  yield toCsv([[...LEDGER_CSV_COLUMNS]]);
  for (let start = 0; start < report.ledger.length; start += CSV_CHUNK_ROWS) {
    yield toCsv(
      report.ledger.slice(start, start + CSV_CHUNK_ROWS).map((row) => [
        row.ticker,
        row.date,
        row.direction,
        row.cScore.toFixed(2),
        fixed(row.entryClose, 2),
        ...row.outcomes.flatMap((o) => [fixed(o.close, 2), o.date ?? '', fixed(o.signalReturn, 6), ledgerStatus(o)]),
        row.exitDate ?? '',
        fixed(row.exitReturn, 6),
        report.prices === 'demo' ? 'demo' : report.prices,
        ...row.outcomes.map((o) => fixed(o.excessReturn ?? null, 6)),
      ]),
    );
  }
}

/** A JSON body with its fractions at the CSV's precision (6 decimals): no float noise in the static API. */
function rounded<T>(body: T): T {
  return JSON.parse(roundedJson(body)) as T;
}

/** `body` as JSON, with its fractions rounded as `rounded` does: what the static API writes, in one pass. */
export function roundedJson(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(6)) : value));
}

/** `/api/track-record`: the aggregates, what they rest on, and where the prices came from. */
export function trackRecordApi(report: TrackReport) {
  return rounded({
    prices: report.prices,
    pricesLabel: report.prices === 'demo' ? DEMO_PRICES_LABEL : null,
    asOf: report.asOf,
    benchmark: report.benchmark ?? null,
    minResolved: MIN_RESOLVED,
    horizons: [...TRACK_HORIZONS],
    ...report.aggregates,
    portfolio: report.portfolio ?? null,
    csv: '/track-record.csv',
  });
}

/** `/api/track-record/{T}` as the JSON the static API writes: one ticker's ledger (newest first) with its hit rate and average return. */
export function tickerTrackJson(report: TrackReport, rows: readonly LedgerRow[], ticker: string): string {
  return roundedJson(tickerTrackBody(report, rows, ticker));
}

function tickerTrackBody(report: TrackReport, rows: readonly LedgerRow[], ticker: string) {
  const aggregates = aggregateLedger(rows, () => undefined);
  return {
    ticker,
    prices: report.prices,
    pricesLabel: report.prices === 'demo' ? DEMO_PRICES_LABEL : null,
    asOf: report.asOf,
    benchmark: report.benchmark ?? null,
    minResolved: MIN_RESOLVED,
    signals: rows.length,
    bullish: aggregates.directions.bullish,
    bearish: aggregates.directions.bearish,
    ledger: rows.map(publishedLedgerRow),
  };
}

/** A ticker's rows of the measured ledger, by ticker. */
export function ledgerByTicker(ledger: readonly LedgerRow[]): Map<string, LedgerRow[]> {
  const byTicker = new Map<string, LedgerRow[]>();
  for (const row of ledger) (byTicker.get(row.ticker) ?? byTicker.set(row.ticker, []).get(row.ticker)!).push(row);
  return byTicker;
}

/** The licence the Dataset JSON-LD and docs/data-flow.md state for the published data. */
export const DATA_LICENSE_TEXT =
  'The signal files and the track record may be downloaded, quoted and reused with a link to this site as the source; they are information, not investment advice.';

/** schema.org `Dataset` JSON-LD for /track-record and /archives. */
export function datasetJsonLd(options: {
  name: string;
  description: string;
  url: string;
  siteName: string;
  siteUrl: string;
  temporalCoverage: string | null;
  /** False when PAYWALL=on keeps the downloads for Pro. */
  isAccessibleForFree: boolean;
  distributions: { url: string; format: 'text/csv' | 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'; name: string }[];
}) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: options.name,
    description: options.description,
    url: options.url,
    license: DATA_LICENSE_TEXT,
    isAccessibleForFree: options.isAccessibleForFree,
    creator: { '@type': 'Organization', name: options.siteName, url: options.siteUrl },
    ...(options.temporalCoverage ? { temporalCoverage: options.temporalCoverage } : {}),
    distribution: options.distributions.map((d) => ({ '@type': 'DataDownload', encodingFormat: d.format, contentUrl: d.url, name: d.name })),
  };
}

/** An ISO 8601 interval of two dates (`2026-08-27/2026-11-20`), or the one date, or null. */
export function temporalCoverage(first: string | null, last: string | null): string | null {
  if (first === null || last === null) return null;
  return first === last ? first : `${first}/${last}`;
}

/**
 * The track record an anonymous visitor may see: with PAYWALL=on a locked top ticker shows nothing of its state on the
 * latest report, so its entries that the latest report decides wait for the next report: the entry it opened (today's
 * score), one still open ("still qualified" says today's direction) and one it closed (the exit says it too). Its
 * entries closed before the latest report stay: they are history every visitor saw then.
 */
export function publicTrack(track: TrackData, lockedTopTickers: ReadonlySet<string>, reportDate: string): TrackData {
  if (lockedTopTickers.size === 0) return track;
  const decidedToday = (e: TrackData['entries'][number]) => e.date === reportDate || e.exitDate === null || e.exitDate >= reportDate;
  return { ...track, entries: track.entries.filter((e) => !(lockedTopTickers.has(e.ticker) && decidedToday(e))) };
}

// In ./track-record, which browser code may import (this module reaches the CSV writer).
export { formatHitRate } from './track-record';

/** The note every track-record figure carries. */
export const PAST_RESULTS_NOTE = 'Past results do not predict future ones. These are the outcomes of published signals, not investment advice.';

/** The published track record of a site: the report a visitor may see, its rows by ticker, and the list prices. */
export interface PublishedTrack {
  report: TrackReport;
  byTicker: Map<string, LedgerRow[]>;
  prices: Map<string, ListPrice>;
}

/** The track record the build publishes (pages, static API, CSV alike); `locked` are the top tickers PAYWALL=on locks. */
export function publishedTrack(
  site: {
    track: TrackData;
    reportDate: string;
    universe: readonly { ticker: string; sector: string }[];
    history: { dates?: readonly string[]; latest: readonly { ticker: string; sector?: string | undefined }[] };
  },
  locked: ReadonlySet<string>,
): PublishedTrack {
  const sectors = new Map(site.universe.map((company) => [company.ticker, company.sector]));
  for (const record of site.history.latest) if (record.sector) sectors.set(record.ticker, record.sector);
  const report = trackReport(publicTrack(site.track, locked, site.reportDate), (ticker) => sectors.get(ticker), site.history.dates?.[0]);
  const prices = listPrices(site.track, site.reportDate, site.history.latest.map((r) => r.ticker));
  return { report, byTicker: ledgerByTicker(report.ledger), prices };
}


/** The ledger rows the track-record page's HTML holds, newest first; sorting or filtering loads the rest from the CSV. */
export const LEDGER_PAGE_ROWS = 200;

/** A published track record as JSON: what the daily job hands the static build (the pages need no closes). */
export interface PublishedTrackJson {
  /** With `ledgerTotal`, its ledger is the newest LEDGER_PAGE_ROWS rows only. */
  report: TrackReport;
  prices: [string, ListPrice][];
  /**
   * Set when the daily job cut the ledger (five years of it are 130,000 rows, most of the site data): how many rows
   * the whole ledger has. Each ticker's rows are then in the ledger rows file beside the site data (LEDGER_ROWS_FILE),
   * at the byte offset and length `ledgerIndex` gives.
   */
  ledgerTotal?: number;
  ledgerIndex?: Record<string, [number, number]>;
  /** Permalink pages (`T/date`) the daily job keeps from the published build: not rendered, listed in the sitemap. */
  permalinkKept?: string[];
  /**
   * Permalink pages (`T/date`) this build renders, a ticker's together, when the daily job keeps the others: the build
   * then reads no ledger rows to list its pages. Absent, every ledger entry is rendered.
   */
  permalinkRendered?: string[];
  /** Permalink pages rendered with their own share image (`T/date`). */
  permalinkImages?: string[];
}

/** The file beside the site data that holds each ticker's ledger rows, newest first: one JSON array a line. */
export const LEDGER_ROWS_FILE = 'ledger-rows.jsonl';

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;

/** The shape check of a PublishedTrackJson in the site data (the daily job made it in the same run, from checked data). */
export const PublishedTrackJsonSchema = z.object({
  report: z.custom<TrackReport>((value) => isObject(value) && Array.isArray((value as TrackReport).ledger) && isObject((value as TrackReport).aggregates)),
  prices: z.array(z.tuple([z.string(), z.custom<ListPrice>(isObject)])),
  ledgerTotal: z.number().int().nonnegative().optional(),
  ledgerIndex: z.record(z.string(), z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).optional(),
  permalinkKept: z.array(z.string()).optional(),
  permalinkRendered: z.array(z.string()).optional(),
  permalinkImages: z.array(z.string()).optional(),
});

/** The JSON form of a published track record. */
export function publishedTrackJson(track: PublishedTrack): PublishedTrackJson {
  return { report: track.report, prices: [...track.prices] };
}

/** A published track record from its JSON form. */
export function publishedTrackFromJson(json: PublishedTrackJson): PublishedTrack {
  return { report: json.report, byTicker: ledgerByTicker(json.report.ledger), prices: new Map(json.prices) };
}

/** A score band as a reader reads it: "75 to 85" for bullish, the mirror "−85 to −75" for bearish. */
export function bandLabel(direction: 'bullish' | 'bearish', band: string): string {
  return direction === 'bearish' ? band.split('-').map((n) => `−${n}`).reverse().join(' to ') : band.replace('-', ' to ');
}
