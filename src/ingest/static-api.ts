/**
 * Writes the daily-data API routes (DESIGN.md "API routes") as static JSON into a fresh build's client folder:
 * `api/<route>.json` and `api/<route>/<TICKER>.json`. The static server and a CDN map the extensionless address
 * to these files. Written straight from Node beside `astro build`: seven files per ticker (42k for 6,000 tickers)
 * cost seconds here, where as many Astro endpoints would cost minutes of build time.
 */
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  archiveListing,
  companyInfo,
  tickerMetrics,
  type CompanyDescription,
  type CompanyNameRecord,
} from '../lib/domain/site/api-responses';
import { LEDGER_CSV_PATH, PER_TICKER_ROUTES, REPORT_ROUTES } from '../lib/domain/site/routes';
import { ledgerCsvChunks, tickerTrackJson, trackRecordApi, type PublishedTrack } from '../lib/domain/track-record/track-data';
import type { SiteData } from '../lib/domain/report/schemas';
import { similarFinder } from '../lib/domain/signals/similar';
import { buildTrend } from '../lib/domain/trend/trend';
import { tickerSubScores } from '../lib/domain/trend/what-moved';
import { freeSlice, isScoreLocked, lockedTicker, visibleRows } from '../lib/domain/accounts/entitlements';

/** Tickers written between two turns of the event loop. */
const YIELD_EVERY = 25;

/** Ledger CSV chunks written between two turns of the event loop (2,000 rows). */
const CSV_CHUNKS_PER_TURN = 8;

/** Files the smoke check looks up at once. */
const CHECK_BATCH = 256;

/** Told of each static API file once it is whole: its path under the client folder (`/`-separated) and its bytes. */
export type OnWritten = (relativePath: string, bytes: Buffer | null) => void;

/**
 * The static API's file writer: `writeText` (or `write`, as JSON) puts a file at `path` under `${clientDir}/api` and
 * tells `onWritten`; `count` is how many it wrote. Each file is written as soon as it is made: five years of trend
 * points for 6,000 tickers would otherwise sit in memory together (millions of objects). Synchronous writes: for tens
 * of thousands of small files they beat the thread pool's round trips several times over.
 */
function writer(clientDir: string, onWritten: OnWritten): { write(path: string, body: unknown): void; writeText(path: string, text: string): void; count(): number } {
  let written = 0;
  const writeText = (path: string, text: string) => {
    const bytes = Buffer.from(text);
    writeFileSync(join(clientDir, 'api', path), bytes);
    written += 1;
    onWritten(`api/${path}`, bytes);
  };
  return { writeText, write: (path, body) => writeText(path, JSON.stringify(body)), count: () => written };
}

/**
 * Writes the track record's routes under `${clientDir}/api` (`track-record.json` and `track-record/<TICKER>.json`, one
 * for each of `tickers`) and the ledger CSV; returns how many files it wrote. `onWritten` is told of each file once it
 * is whole (null bytes for the CSV, which is written in chunks): the daily job compresses it then. The ledger is the
 * largest thing the static API is written from, so this comes first: the daily job lets it go as soon as this is done.
 */
export async function writeTrackApi(clientDir: string, tickers: readonly string[], track: PublishedTrack, onWritten: OnWritten = () => undefined): Promise<number> {
  await mkdir(join(clientDir, 'api', 'track-record'), { recursive: true });
  const out = writer(clientDir, onWritten);
  for (const [i, ticker] of tickers.entries()) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    out.writeText(`track-record/${ticker}.json`, tickerTrackJson(track.report, track.byTicker.get(ticker) ?? [], ticker));
  }
  out.write('track-record.json', trackRecordApi(track.report));
  const csv = openSync(join(clientDir, LEDGER_CSV_PATH), 'w');
  try {
    // writeFileSync on a descriptor writes the whole chunk where the last one ended.
    let chunks = 0;
    for (const chunk of ledgerCsvChunks(track.report)) {
      writeFileSync(csv, chunk);
      if ((chunks += 1) % CSV_CHUNKS_PER_TURN === 0) await nextTurn();
    }
  } finally {
    closeSync(csv);
  }
  onWritten(LEDGER_CSV_PATH, null);
  return out.count() + 1;
}

/**
 * Writes the other daily-data routes for the site data under `${clientDir}/api`; returns how many files it wrote.
 * With `paywall` (PAYWALL=on) it writes what anonymous visitors may see: all-signals is the free slice, a locked top
 * ticker's files hold no score, and no similar-tickers list names a locked ticker's score. `onWritten` as for
 * writeTrackApi.
 */
export async function writeStaticApi(clientDir: string, site: SiteData, siteName: string, paywall = false, onWritten: OnWritten = () => undefined): Promise<number> {
  const apiDir = join(clientDir, 'api');
  await Promise.all(PER_TICKER_ROUTES.map((route) => mkdir(join(apiDir, route), { recursive: true })));
  const universe = new Map(site.universe.map((company) => [company.ticker, company]));
  const latest = site.history.latest;
  const slice = freeSlice(latest);
  const viewer = { paywall, isPro: false };
  const locked = (ticker: string) => isScoreLocked(ticker, slice, viewer);
  const findSimilar = similarFinder(latest);
  const similar = (record: (typeof latest)[number]) => findSimilar(record).filter((s) => !locked(s.ticker));
  const names: CompanyNameRecord[] = [];
  const descriptions: CompanyDescription[] = [];
  const { write, count } = writer(clientDir, onWritten);

  for (const [i, record] of latest.entries()) {
    // Now and then the event loop runs: the pages `astro build` writes meanwhile are handed to the compressor, the
    // progress display moves, and the compression threads get their next files during the seconds this loop takes.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const info = companyInfo(record.ticker, record.companyName, universe.get(record.ticker), site.companies[record.ticker], siteName);
    const name = { ticker: record.ticker, companyName: info.longName };
    const description = { ticker: record.ticker, description: info.longBusinessSummary, source: info.descriptionSource };
    names.push(name);
    descriptions.push(description);
    const file = `${record.ticker}.json`;
    const hidden = locked(record.ticker) ? lockedTicker(record) : null;
    write(`stock/${file}`, hidden ?? record);
    const moved = tickerSubScores(site.history.subScores, record.ticker);
    write(`ticker-metrics/${file}`, hidden ?? (moved ? { ...tickerMetrics(record), moved } : tickerMetrics(record)));
    write(`c-score-trend/${file}`, hidden ?? buildTrend(site.history, record.ticker));
    write(`similar-tickers/${file}`, similar(record));
    write(`company-name/${file}`, name);
    write(`company-description/${file}`, description);
  }
  const archive = archiveListing(site.files);
  write('all-signals.json', visibleRows(latest, slice, viewer, (r) => r.ticker).rows);
  write('company-names.json', names);
  write('company-descriptions.json', descriptions);
  write('excel-files.json', archive);
  write('csv-files.json', archive);
  return count();
}

/** The smoke check of the static API: every route file exists for every ticker of the report; returns the problems. */
export async function checkStaticApi(clientDir: string, tickers: readonly string[]): Promise<string[]> {
  const expected = [
    ...REPORT_ROUTES.map((route) => `api/${route}.json`),
    LEDGER_CSV_PATH,
    ...tickers.flatMap((ticker) => PER_TICKER_ROUTES.map((route) => `api/${route}/${ticker}.json`)),
  ];
  return (await missingFiles(clientDir, expected)).map((path) => `missing API file ${path}`);
}

/** The paths (relative to `root`) of `expected` that are missing or empty, in their order. */
export async function missingFiles(root: string, expected: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (let i = 0; i < expected.length; i += CHECK_BATCH) {
    const batch = expected.slice(i, i + CHECK_BATCH);
    const found = await Promise.all(batch.map((path) => stat(join(root, path)).then((info) => info.size > 0, () => false)));
    found.forEach((ok, j) => {
      if (!ok) missing.push(batch[j]!);
    });
  }
  return missing;
}
