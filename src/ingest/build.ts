/**
 * The daily job's "build into staging" step: the site data, `astro build` with the share images drawn beside it,
 * the static API, the smoke check and precompression, all inside a staging folder that nothing serves yet.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { buildEnv, PROJECT_ROOT, type BuildShape } from '../config';
import type { ArchivedFile, SignalHistory, SiteData, UniverseCompany } from '../lib/domain/schemas';
import { readCompanyInfoStore } from '../storage/company-info';
import { readFundamentalsStore } from '../storage/fundamentals';
import type { ReportSource } from '../lib/domain/report-source';
import { DailyJobError } from './error';
import { precompressStatic } from './precompress';
import { withShareImages } from './share-images';
import { smokeCheck } from './smoke';
import { checkStaticApi, writeStaticApi } from './static-api';
import { freeSlice } from '../lib/domain/entitlements';
import { createProgress, type Progress } from './progress';
import { EMPTY_TRACK, type TrackData } from '../lib/domain/track-data';
import { historyLedger } from '../lib/domain/track-record';

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

/** The build's own settings: the company store, the share-image cache and the product name. */
export interface BuildSettings {
  companyInfoFile: string;
  /** FUNDAMENTALS_FILE, or null when the job has none. */
  fundamentalsFile: string | null;
  /** Where the report comes from: `sample` puts the sample-data notice on every page. */
  source: ReportSource;
  shareImageCache: string;
  /**
   * The settings that shape the pages: the product name and origin, the links, and PAYWALL=on (the build writes only
   * what anonymous visitors may see, DESIGN.md "Accounts and entitlements").
   */
  shape: BuildShape;
  /** Print the static build's own output. */
  verbose: boolean;
  /** Told when the smoke check starts (the upload page's progress). */
  onStage?: (stage: 'smoke') => void;
  /** The job's stage clock and progress display (the build's stages: site data to compress). */
  progress?: Progress;
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

/** Builds the site into `staging`; throws a DailyJobError when the static build or the smoke check fails. */
export async function buildIntoStaging(staging: string, inputs: BuildInputs, settings: BuildSettings, log: (line: string) => void): Promise<StagedBuild> {
  const client = clientDir(staging);
  const progress = settings.progress ?? createProgress(null);
  progress.stage('site data');
  const { siteData, siteDataFile } = await writeSiteData(staging, inputs, settings);
  log(`Building the site for ${siteData.reportDate} (${siteData.history.latest.length} tickers)...`);
  const { paywall, siteName } = settings.shape;
  const slice = freeSlice(siteData.history.latest);
  progress.stage('pages and images');
  const expectedPages = siteData.history.latest.length + OTHER_PAGES_ESTIMATE;
  const onPage = (done: number) => progress.count('pages', done, expectedPages);
  await withShareImages(siteData, client, () => runAstroBuild(client, siteDataFile, settings.verbose, settings.shape, onPage), {
    cacheDir: settings.shareImageCache,
    siteName,
    lockedTickers: paywall ? slice.lockedTopTickers : new Set(),
    onImage: (done, total) => progress.count('images', done, total),
  });
  progress.stage('static api');
  await writeStaticApi(client, siteData, siteName, paywall);
  progress.stage('smoke check');
  settings.onStage?.('smoke');
  const { pages, scriptHashes } = await smoke(client, siteData.history.latest.map((r) => r.ticker));
  progress.stage('compress');
  await precompressStatic(client);
  return { siteData, pages, scriptHashes };
}

/** Writes `data/site.json`, what the static build reads: the history, the archive list, the universe and company facts. */
async function writeSiteData(staging: string, { history, files, universe, track }: BuildInputs, settings: Pick<BuildSettings, 'companyInfoFile' | 'fundamentalsFile' | 'source'>) {
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
  const siteDataFile = join(staging, 'data', 'site.json');
  await mkdir(join(staging, 'data'), { recursive: true });
  await writeFile(siteDataFile, JSON.stringify(siteData));
  return { siteData, siteDataFile };
}

// Astro prints one line per page it writes: "12:00:01   ├─ /signal/AAPL/index.html (+7ms)".
const PAGE_LINE = /[├└]─ \//;

/** Runs `astro build` in its own process; `onPage` is told the count of pages written so far. */
function runAstroBuild(outDir: string, siteDataFile: string, verbose: boolean, shape: BuildShape, onPage: (done: number) => void): Promise<void> {
  const astro = join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs');
  return new Promise((resolvePromise, reject) => {
    // Without --silent Astro names each page it writes, which is the progress bar's count.
    const child = spawn(process.execPath, [astro, 'build', '--outDir', outDir], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...buildEnv(shape), SITE_DATA_FILE: siteDataFile, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', verbose ? 'inherit' : 'pipe', verbose ? 'inherit' : 'pipe'],
    });
    let output = '';
    let pages = 0;
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      // Whole lines only: a page's line may arrive in two chunks.
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      // Colours are stripped: with FORCE_COLOR set (as CI runners do) Astro puts escape codes inside the line.
      const written = lines.filter((line) => PAGE_LINE.test(stripVTControlCharacters(line))).length;
      if (written > 0) onPage((pages += written));
      output = (output + text).slice(-20_000);
    });
    child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolvePromise();
      else reject(new DailyJobError(`The static build failed (exit code ${code}); the published site is unchanged.\n${output.trim()}`));
    });
  });
}

/** The smoke check of the pages and the static API; returns the HTML page count or throws listing the first 20 problems. */
async function smoke(client: string, tickers: string[]): Promise<{ pages: number; scriptHashes: string[] }> {
  const { problems, pages, scriptHashes } = await smokeCheck(client, tickers);
  for (const problem of await checkStaticApi(client, tickers)) problems.push(problem);
  if (problems.length > 0) {
    throw new DailyJobError(
      [`The smoke check found ${problems.length} problem(s); the published site is unchanged:`, ...problems.slice(0, 20).map((p) => `  ${p}`)].join('\n'),
    );
  }
  return { pages, scriptHashes };
}
