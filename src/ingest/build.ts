/**
 * The daily job's "build into staging" step: the site data, `astro build` with the share images drawn beside it,
 * the static API, the smoke check and precompression, all inside a staging folder that nothing serves yet.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { buildEnv, PROJECT_ROOT, type BuildShape } from '../config';
import type { ArchivedFile, SignalHistory, SiteData, UniverseCompany } from '../lib/domain/report/schemas';
import { readCompanyInfoStore } from '../storage/company-info';
import { readFundamentalsStore } from '../storage/fundamentals';
import type { ReportSource } from '../lib/domain/report/report-source';
import { DailyJobError } from './error';
import { CompressionPool, createCompressor } from './precompress';
import { startCallImages, type ShareImages } from './share-images';
import { keepPermalinks, planPermalinks, readManifest, shellKey, writeManifest, type PermalinkManifest, type PermalinkPlan } from './permalinks';
import { permalinkCompanyName, permalinkFolderOf, permalinkImage, splitPermalinkId } from '../lib/domain/track-record/permalink';
import { releaseMemory } from './memory';
import { PageCheck } from './smoke';
import { checkStaticApi, writeStaticApi, writeTrackApi } from './static-api';
import { writeDatedReports } from './dated-reports';
import { checkTickerFiles, writeTickerFiles } from './ticker-files';
import { anonymousLockedTickers } from '../lib/domain/accounts/entitlements';
import { pageHistory } from '../lib/domain/trend/trend';
import { createProgress, type Progress } from './progress';
import { EMPTY_TRACK, LEDGER_PAGE_ROWS, LEDGER_ROWS_FILE, publishedTrack, publishedTrackJson, type PublishedTrack, type TrackData } from '../lib/domain/track-record/track-data';
import type { LedgerRow } from '../lib/domain/track-record/track-record';
import { historyLedger } from '../lib/domain/track-record/track-record';

// Pages besides one per ticker (lists, archives, learn, account...), for the progress bar's first estimate.
const OTHER_PAGES_ESTIMATE = 30;

/** What the build is made of. */
export interface BuildInputs {
  history: SignalHistory;
  files: ArchivedFile[];
  universe: UniverseCompany[];
  /** The closes and the recorded ledger (the daily job's track step); absent: the ledger of the history, without prices. */
  track?: TrackData;
}

/** The build's own settings: the company store and the product name. */
export interface BuildSettings {
  companyInfoFile: string;
  /** FUNDAMENTALS_FILE, or null when the job has none. */
  fundamentalsFile: string | null;
  /** Where the report comes from: `sample` puts the sample-data notice on every page. */
  source: ReportSource;
  /**
   * The settings that shape the pages: the product name and origin, the links, and PAYWALL=on (the build writes only
   * what anonymous visitors may see, DESIGN.md "Accounts and entitlements").
   */
  shape: BuildShape;
  /** Print the static build's own output. */
  verbose: boolean;
  /** The job's stage clock and progress display (the build's stages: site data to compress). */
  progress?: Progress;
  /** The published build's client folder: a file that has not changed takes its compressed copies from there. */
  publishedClient?: string | null;
  /** The hash of the site's code (publish.ts, codeHash): the permalinks' shell changes with it. */
  code: string;
  /** SHARE_IMAGE_CACHE: where the signal calls' share images are kept between runs; without, the permalinks show the stock's card. */
  shareImageCache?: string | null;
  /** The build before the published one (publish.ts, recycledBuild): the kept permalinks are moved out of it. */
  recycledDir?: string | null;
}

/** A staged build that passed the smoke check: the site data it was built from and its HTML page count. */
export interface StagedBuild {
  siteData: SiteData;
  pages: number;
  /** The CSP hashes of the pages' inline scripts: the server allows exactly these (no 'unsafe-inline'). */
  scriptHashes: string[];
}

/** The staged build's folder that `dist/client` becomes. */
export function clientDir(staging: string): string {
  return join(staging, 'client');
}

/** Where the daily job writes the site data for the build in `staging`. */
function siteDataFileOf(staging: string): string {
  return join(staging, 'data', 'site.json');
}

/** What the job started before the site data: `astro build` in `staging`, and the share images' drawing. */
export interface StartedWork {
  astro: AstroBuild;
  images: ShareImages;
}

/** Builds the site into `staging` with the work started there; throws a DailyJobError when it or the smoke check fails. */
export async function buildIntoStaging(staging: string, started: StartedWork, inputs: BuildInputs, settings: BuildSettings, log: (line: string) => void): Promise<StagedBuild> {
  // One set of compression threads for the pages and the static API, ended however the build ends.
  const pool = new CompressionPool();
  try {
    return await buildWith(pool, staging, started, inputs, settings, log);
  } finally {
    await pool.close();
  }
}

async function buildWith(pool: CompressionPool, staging: string, { astro, images }: StartedWork, inputs: BuildInputs, settings: BuildSettings, log: (line: string) => void): Promise<StagedBuild> {
  const progress = settings.progress ?? createProgress(null);
  progress.stage('site data');
  const expectedPages = inputs.history.latest.length + OTHER_PAGES_ESTIMATE;
  // Both cores work while `astro build` renders pages in its own process: this thread writes the static API beside the
  // build (astro empties its folder first), the compression threads take each page as soon as it is written, and the
  // share images are drawn by their own thread, started after the parse.
  const previousDir = settings.publishedClient ?? null;
  // The smoke check looks at each page as the compressor reads it, while the build renders the next ones.
  const pageCheck = new PageCheck();
  const pageCompressor = createCompressor(clientDir(staging), { previousDir, pool, inspect: (path, findings) => pageCheck.record(path, findings) });
  astro.onPage((done, path) => {
    progress.count('pages', done, expectedPages);
    pageCompressor.add(path);
  });
  const { siteData, track, permalinks, shownHistory } = await writeSiteData(staging, siteDataFileOf(staging), inputs, settings);
  // The calls' own share images: only the pages rendered this run draw theirs (the kept ones keep theirs).
  const calls =
    settings.shareImageCache == null || permalinks.images.length === 0
      ? null
      : startCallImages(
          permalinks.images.map((id) => {
            const [ticker, date] = splitPermalinkId(id);
            const row = track.byTicker.get(ticker)!.find((r) => r.date === date)!;
            return { ticker, date, cScore: row.cScore, companyName: permalinks.names.get(ticker) ?? ticker, target: permalinkImage(ticker, date) };
          }),
          { cacheDir: settings.shareImageCache, siteName: settings.shape.siteName, source: settings.source },
        );
  try {
    return await buildPages(pool, staging, { astro, images, calls }, { siteData, track, permalinks, shownHistory, pageCompressor, pageCheck, previousDir }, settings, log);
  } finally {
    await calls?.stop();
  }
}

async function buildPages(
  pool: CompressionPool,
  staging: string,
  { astro, images, calls }: StartedWork & { calls: ShareImages | null },
  made: { siteData: SiteData; track: PublishedTrack; permalinks: PermalinkPlan; shownHistory: SignalHistory; pageCompressor: ReturnType<typeof createCompressor>; pageCheck: PageCheck; previousDir: string | null },
  settings: BuildSettings,
  log: (line: string) => void,
): Promise<StagedBuild> {
  const { siteData, track, permalinks, shownHistory, pageCompressor, pageCheck, previousDir } = made;
  const client = clientDir(staging);
  const progress = settings.progress ?? createProgress(null);
  log(`Building the site for ${siteData.reportDate} (${siteData.history.latest.length} tickers)...`);
  const { paywall, siteName } = settings.shape;
  const tickers = siteData.history.latest.map((r) => r.ticker);
  // The parse and site-data stages' peak heap is garbage now: given back to the system while Astro still bundles.
  releaseMemory();
  progress.stage('pages and images');
  // The images began after the parse: their count is shown from here (this stage's line), the drawn ones included.
  images.onImage((done, total) => progress.count('images', done, total));
  const apiRoot = join(staging, 'static-api');
  const apiCompressor = createCompressor(apiRoot, { previousDir, pool });
  const [built, api] = await Promise.allSettled([
    Promise.all([astro.done, images.drawn, calls?.drawn]).then(async () => {
      await images.place(client);
      await calls?.place(client);
    }),
    (async () => {
      await nextTurn();
      // Each file goes to the compressor as soon as it is written: compressed while Astro still renders, not after.
      const onWritten = (path: string, bytes: Buffer | null) => apiCompressor.add(path, bytes ?? undefined);
      await writeTrackApi(apiRoot, tickers, track, onWritten);
      // Nothing reads the ledger after this (the pages read theirs from the site data): five years of it are 135,000
      // rows, recorded and published, held twice. Let go, and the heap it grew given back, while Astro is still small.
      // Otherwise this process holds about twice the memory for the rest of Astro's run.
      track.report.ledger = [];
      track.byTicker.clear();
      siteData.track.entries = [];
      releaseMemory();
      await writeStaticApi(apiRoot, siteData, siteName, paywall, onWritten);
      const dated = await writeDatedReports(apiRoot, siteData.history, siteData.files, { paywall, previousDir, onWritten });
      apiCompressor.exclude(dated.keptPaths);
      // Five years of trends made and written: its garbage given back too, for the rest of Astro's run.
      releaseMemory();
      // The badges, feeds and cards, from the history the pages show (the feeds' span), beside the static API. The
      // cards are pages: the smoke check looks at each as at Astro's.
      await writeTickerFiles(apiRoot, shownHistory, settings.shape, (path, bytes) => {
        if (bytes !== null) pageCheck.inspect(path, bytes);
        onWritten(path, bytes);
      });
      const compressed = await apiCompressor.finish();
      // The static API's part of the smoke check, while the build still renders rather than after it: its files keep
      // their paths (`api/`, `badge/`, `feeds/signal/`, `embed/`) when they are moved into the build.
      const problems = [...(await checkStaticApi(apiRoot, tickers)), ...(await checkTickerFiles(apiRoot, tickers))];
      // The kept permalinks go in while Astro still renders (its folders are others'), rather than after it; not before
      // it renders: its bundling empties the folder.
      await astro.rendering;
      const kept = previousDir === null || permalinks.kept.length === 0 ? { moved: 0, linked: 0 } : await keepPermalinks({ published: previousDir, recycled: recycledClient(settings) }, client, permalinks.kept, permalinks.manifest);
      return { ...compressed, problems, kept };
    })(),
  ]);
  if (built.status === 'rejected') throw built.reason;
  if (api.status === 'rejected') throw api.reason;
  // Only the build reads the ledger rows file: the static API and the CSV publish the ledger.
  await rm(join(staging, 'data', LEDGER_ROWS_FILE), { force: true });
  progress.stage('static api');
  await moveStaticApi(apiRoot, client);
  pageCompressor.exclude(api.value.handled);
  // The kept permalinks were compressed and checked when a build rendered them: neither walks their folders again.
  pageCompressor.skipFolders(permalinks.kept.map(permalinkFolderOf));
  progress.stage('compress');
  await pageCompressor.finish();
  progress.stage('smoke check');
  const { pages, scriptHashes } = await smoke(client, tickers, pageCheck, api.value.problems);
  const { kept } = api.value;
  await writeManifest(join(staging, 'data'), permalinks.manifest);
  const threaded = astro.threaded();
  if (threaded !== null) log(`Pages on prerender threads: ${threaded.pages} of ${threaded.of} (${threaded.threads} thread(s) beside Astro's own).`);
  const keptPages = kept.moved + kept.linked;
  if (keptPages > 0) {
    log(`Signal permalinks: ${Object.keys(permalinks.manifest.pages).length - keptPages} rendered, ${keptPages} kept from the published build (${kept.moved} moved from the one before it, ${kept.linked} linked).`);
  }
  return { siteData, pages: pages + keptPages, scriptHashes };
}

/** The recycled build's client folder and permalink manifest (src/ingest/publish.ts, recycledBuild), or null. */
function recycledClient(settings: BuildSettings): { client: string; manifest: PermalinkManifest } | null {
  if (!settings.recycledDir) return null;
  const manifest = readManifest(join(settings.recycledDir, 'data'));
  return manifest === null ? null : { client: clientDir(settings.recycledDir), manifest };
}

/** Writes `data/site.json`, what the static build reads: the history, the archive list, the universe and company facts. */
async function writeSiteData(
  staging: string,
  siteDataFile: string,
  { history, files, universe, track }: BuildInputs,
  settings: Pick<BuildSettings, 'companyInfoFile' | 'fundamentalsFile' | 'source' | 'shape' | 'publishedClient' | 'code' | 'shareImageCache'>,
) {
  const store = await readCompanyInfoStore(settings.companyInfoFile);
  const companies = Object.fromEntries(history.latest.flatMap((r) => (store.companies[r.ticker] ? [[r.ticker, store.companies[r.ticker]!]] : [])));
  const stored = settings.fundamentalsFile === null ? {} : (await readFundamentalsStore(settings.fundamentalsFile)).tickers;
  const fundamentals = Object.fromEntries(history.latest.flatMap((r) => (stored[r.ticker] ? [[r.ticker, stored[r.ticker]!]] : [])));
  const siteData: SiteData = {
    builtAt: new Date().toISOString(),
    reportDate: history.dates.at(-1)!,
    history,
    files,
    universe,
    companies,
    fundamentals,
    source: settings.source,
    track: track ?? { ...EMPTY_TRACK, entries: historyLedger(history) },
  };
  await mkdir(join(staging, 'data'), { recursive: true });
  // The track record as an anonymous visitor may see it, from the whole of the closes, once for the pages and the API.
  const published = publishedTrack(siteData, anonymousLockedTickers(history.latest, settings.shape.paywall));
  // Nothing after this reads the closes, and five years of them are millions of numbers. They are let go
  // here (the job's track step hands them over for this), not held while `astro build` runs beside this process.
  if (track) track.closes = {};
  // The pages get the history they show (pageHistory) and the track record as published, without the closes and with
  // the newest ledger rows only (the track-record page's); each ticker's rows go to one file beside the site data, at
  // an offset the site data gives, which its stock page reads. Five years of the ledger held whole by the build's
  // process were half a gigabyte. The static API is written from the whole of both, here.
  const ledgerIndex = writeLedgerRows(join(staging, 'data', LEDGER_ROWS_FILE), published.byTicker);
  const permalinks = await permalinkPlan(published, history, universe, settings);
  const view = publishedTrackJson(published);
  const pageData: SiteData = {
    ...siteData,
    history: pageHistory(history),
    track: { ...siteData.track, days: [], closes: {}, entries: [] },
    trackView: {
      ...view,
      report: { ...view.report, ledger: view.report.ledger.slice(0, LEDGER_PAGE_ROWS) },
      ledgerTotal: view.report.ledger.length,
      ledgerIndex,
      permalinkKept: permalinks.kept,
      permalinkRendered: permalinks.rendered,
      permalinkImages: permalinks.images,
    },
  };
  // Written whole, then named: `astro build` is already running and reads it as soon as it is there.
  await writeFile(`${siteDataFile}.partial`, JSON.stringify(pageData));
  await rename(`${siteDataFile}.partial`, siteDataFile);
  return { siteData, track: published, permalinks, shownHistory: pageData.history };
}

/** Which permalinks this build renders and which it keeps from the published one (src/ingest/permalinks.ts). */
async function permalinkPlan(
  published: PublishedTrack,
  history: SignalHistory,
  universe: readonly UniverseCompany[],
  settings: Pick<BuildSettings, 'source' | 'shape' | 'publishedClient' | 'code' | 'shareImageCache'>,
): Promise<PermalinkPlan & { names: Map<string, string> }> {
  const latest = new Map(history.latest.map((r) => [r.ticker, r.companyName]));
  const names = new Map(universe.map((c) => [c.ticker, c.name]));
  const previousClient = settings.publishedClient ?? null;
  const previous = previousClient === null ? null : readManifest(join(dirname(previousClient), 'data'));
  // Whether the calls draw their own images is part of every page's shell.
  const shell = shellKey(settings.code, { shape: settings.shape, source: settings.source, images: settings.shareImageCache != null });
  const { report } = published;
  const plan = planPermalinks(previous, previousClient, shell, published.byTicker, (row) => ({
    name: permalinkCompanyName(row.ticker, latest.get(row.ticker), names.get(row.ticker)),
    inLatest: latest.has(row.ticker),
    benchmark: report.benchmark ?? null,
    prices: report.prices,
    asOf: report.asOf,
  }));
  const callNames = new Map([...published.byTicker.keys()].map((ticker) => [ticker, permalinkCompanyName(ticker, latest.get(ticker), names.get(ticker))]));
  return { ...(settings.shareImageCache == null ? { ...plan, images: [] } : plan), names: callNames };
}

/** Writes each ticker's ledger rows to `path`, one JSON array a line; returns each one's byte offset and length. */
function writeLedgerRows(path: string, byTicker: ReadonlyMap<string, readonly LedgerRow[]>): Record<string, [number, number]> {
  const index: Record<string, [number, number]> = {};
  const file = openSync(path, 'w');
  try {
    let offset = 0;
    for (const [ticker, rows] of byTicker) {
      const bytes = Buffer.from(`${JSON.stringify(rows)}\n`);
      writeFileSync(file, bytes);
      index[ticker] = [offset, bytes.length - 1];
      offset += bytes.length;
    }
  } finally {
    closeSync(file);
  }
  return index;
}

/**
 * How `astro build`'s process is started, for memory: the whole daily job must stay within its memory budget at the
 * largest archive (bench/RESULTS.md, "History at scale"), and Astro's process is most of it:
 * - Rolldown's allocator (mimalloc) commits a large arena up front; with transparent huge pages that stays resident
 *   for the whole build, though bundling is over in a few seconds. MIMALLOC_ARENA_EAGER_COMMIT=0 commits it as used.
 * - Small young-generation semi-spaces (8 MB, below V8's default) save memory at no CPU cost: each page's render is
 *   garbage at once. Capping the old generation saved more but cost much more CPU with the job on the other core.
 */
const ASTRO_NODE_FLAGS = ['--max-semi-space-size=8'];
const ASTRO_ENV = { MIMALLOC_ARENA_EAGER_COMMIT: '0' };

/** How long Astro's pages wait for the site data; a run that fails before writing it stops the build sooner. */
const SITE_DATA_WAIT_SECONDS = 600;

// Astro prints one line per page it writes: "12:00:01   ├─ /signal/AAPL/index.html (+7ms)". The line ends (the
// render time) only once the file is written.
const PAGE_LINE = /[├└]─ \/(\S+)/;
// The prerenderer's last line (src/build/parallel-prerender.mjs): "9000 of 16000 pages rendered on 1 prerender thread(s)."
const THREADS_LINE = /(\d+) of (\d+) pages rendered on (\d+) prerender thread/;

/** A running `astro build`: done when it has written every page; `stop` ends it early and waits for its exit. */
export interface AstroBuild {
  done: Promise<void>;
  stop(): Promise<void>;
  /** Tells `handler` of each page written from now on: the count so far and its path under the build's folder. */
  onPage(handler: (done: number, path: string) => void): void;
  /** Settles once Astro writes its first page (its bundling, which empties the folder, is over) or has ended. */
  rendering: Promise<void>;
  /** Once done: how many of its pages the prerender threads rendered, or null when it used none. */
  threaded(): { pages: number; of: number; threads: number } | null;
}

/**
 * Starts `astro build` into `staging`, in its own process, before there is anything to build from: it bundles (about
 * 4 s of both cores at any size) while the job parses and writes the site data, which its pages wait for (up to
 * SITE_DATA_WAIT_SECONDS). The run stops it when it ends, whichever way (`stop` does nothing once it has exited).
 */
export function startStaticBuild(staging: string, shape: BuildShape, verbose: boolean): AstroBuild {
  const astro = join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs');
  const outDir = clientDir(staging);
  const siteDataFile = siteDataFileOf(staging);
  // Without --silent Astro names each page it writes, which is the progress bar's count.
  const child = spawn(process.execPath, [...ASTRO_NODE_FLAGS, astro, 'build', '--outDir', outDir], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...ASTRO_ENV, ...buildEnv(shape), SITE_DATA_FILE: siteDataFile, SITE_DATA_WAIT_SECONDS: String(SITE_DATA_WAIT_SECONDS), ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', verbose ? 'inherit' : 'pipe', verbose ? 'inherit' : 'pipe'],
  });
  // No page is written before onPage is called: pages wait for the site data, written after it.
  let pages = 0;
  let onPage: ((done: number, path: string) => void) | null = null;
  let firstPage = () => undefined as void;
  let threaded: { pages: number; of: number; threads: number } | null = null;
  const rendering = new Promise<void>((resolveFirst) => (firstPage = resolveFirst));
  const pageWritten = (path: string) => {
    firstPage();
    onPage?.((pages += 1), path);
  };
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const done = new Promise<void>((resolvePromise, reject) => {
    let output = '';
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      // Whole lines only: a page's line may arrive in two chunks.
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      // Colours are stripped: with FORCE_COLOR set (as CI runners do) Astro puts escape codes inside the line.
      for (const line of lines) {
        const plain = stripVTControlCharacters(line);
        const path = PAGE_LINE.exec(plain)?.[1];
        if (path !== undefined) pageWritten(path);
        const counts = THREADS_LINE.exec(plain);
        if (counts !== null) threaded = { pages: Number(counts[1]), of: Number(counts[2]), threads: Number(counts[3]) };
      }
      output = (output + text).slice(-20_000);
    });
    child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolvePromise();
      else reject(new DailyJobError(`The static build failed (exit code ${code}); the published site is unchanged.\n${output.trim()}`));
    });
  });
  // Awaited once the site data is written: a build that fails before then is not an unhandled rejection.
  done.catch(() => undefined);
  return {
    done,
    rendering: Promise.race([rendering, done.catch(() => undefined)]),
    threaded: () => threaded,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
    onPage(handler) {
      onPage = handler;
    },
  };
}

/**
 * Moves the files written beside the build into it: the static API (`astro build` writes no file under /api, nor the
 * ledger CSV), the badges, the stocks' feeds (a folder Astro writes too: its files go in beside Astro's) and the cards.
 */
async function moveStaticApi(apiRoot: string, client: string): Promise<void> {
  const move = async (from: string, to: string): Promise<void> => {
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const target = join(to, entry.name);
      if (entry.isDirectory() && (await stat(target).catch(() => null))?.isDirectory()) await move(join(from, entry.name), target);
      else await rename(join(from, entry.name), target);
    }
  };
  try {
    await move(apiRoot, client);
  } catch (error) {
    throw new DailyJobError(`The static API could not be moved into the build (${(error as Error).message}); the published site is unchanged.`);
  }
  await rm(apiRoot, { recursive: true, force: true });
}

/**
 * The smoke check of the pages, with the static API's problems found before; returns the HTML page count or throws
 * listing the first 20 problems.
 */
async function smoke(client: string, tickers: string[], check: PageCheck, apiProblems: readonly string[]): Promise<{ pages: number; scriptHashes: string[] }> {
  const { problems, pages, scriptHashes } = await check.result(client, tickers);
  problems.push(...apiProblems);
  if (problems.length > 0) {
    throw new DailyJobError(
      [`The smoke check found ${problems.length} problem(s); the published site is unchanged:`, ...problems.slice(0, 20).map((p) => `  ${p}`)].join('\n'),
    );
  }
  return { pages, scriptHashes };
}
