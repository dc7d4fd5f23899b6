/**
 * Section "history": the daily job at long archives, on seeded samples. For each size, a fresh build of the
 * whole archive, then "one new day" (the next report added to that published site, as every morning): wall time, peak
 * RSS of the whole process tree, the time per stage, and a ticker page's HTML gzip.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BenchContext, type Budget, type Figure, type FigureInput, figure, round } from './figures';
import { type RunResult, runTsx } from './process';

const MIB = 1024 ** 2;
const PAGE_BUDGET: Budget = { op: '<=', limit: 14 };
const PAGE_TICKER = 'AAPL';

/** One measured archive: its size and its budgets. */
interface HistorySize {
  tickers: number;
  days: number;
  freshBudget?: Budget;
  newDayBudget?: Budget;
  newDayRssBudget?: Budget;
  /** Measured only with --long: generating and building it takes about half an hour. */
  long?: boolean;
}

const SIZES: HistorySize[] = [
  { tickers: 503, days: 1260 },
  { tickers: 6000, days: 250 },
  { tickers: 6000, days: 1260, freshBudget: { op: '<=', limit: 600 }, newDayBudget: { op: '<=', limit: 60 }, newDayRssBudget: { op: '<', limit: 1536 }, long: true },
];

/** How the section measures, once for the table's header. */
export const HISTORY_NOTE =
  'Each size is a seeded sample from `npm run sample` with one report day more than the archive: the fresh run builds the archive\'s days on an empty archive, dist, history store and share-image cache; the "one new day" run then adds the last day to that published site, as the scheduled job does every morning. Both run `tsx scripts/daily.ts` (what `npm run daily` runs); wall time is around the whole process, peak RSS the sum over its process tree (the job and its `astro build` child) sampled from /proc every 100 ms. The stage times come from the job\'s own summary; after them, the CPU the whole tree used (GNU time\'s user plus system) and the steal time of the machine meanwhile (/proc/stat: time the host gave this virtual machine\'s CPUs to something else; a wall time measured under steal is not the job\'s alone). The page figure is the gzip (level 9) of /signal/AAPL\'s HTML after the run.';

interface Dirs {
  root: string;
  /** The archive's days (hard links into all/). */
  days: string;
  /** The one new day. */
  next: string;
  all: string;
  universe: string;
}

function dirsOf(ctx: BenchContext, size: HistorySize): Dirs {
  const root = join(ctx.tmp, `history-${size.tickers}x${size.days}`);
  return { root, days: join(root, 'days'), next: join(root, 'next'), all: join(root, 'exports'), universe: join(root, 'universe.csv') };
}

function stampOf(ctx: BenchContext, size: HistorySize): string {
  const hash = createHash('sha256').update(`${size.tickers}:${size.days + 1}\n`);
  for (const file of ['scripts/sample/generator.ts', 'scripts/sample/files.ts', 'scripts/make-sample-exports.ts', 'data/universe/sp500-constituents.csv']) hash.update(readFileSync(join(ctx.root, file)));
  return hash.digest('hex');
}

/** Generates days + 1 report days once (kept while the generator is unchanged) and splits them into the archive's days and the new one. */
async function ensureSample(ctx: BenchContext, size: HistorySize, dirs: Dirs): Promise<void> {
  const stampFile = join(dirs.root, '.bench-stamp');
  const stamp = stampOf(ctx, size);
  if (!(existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)) {
    ctx.log(`  generating ${size.tickers} tickers x ${size.days + 1} days of sample exports...`);
    await rm(dirs.root, { recursive: true, force: true });
    await mkdir(dirs.root, { recursive: true });
    const args = ['--days', String(size.days + 1), '--tickers', String(size.tickers), '--out', relative(ctx.root, dirs.all), '--universe-out', relative(ctx.root, dirs.universe)];
    const result = await runTsx(ctx.root, 'scripts/make-sample-exports.ts', args, process.env);
    if (result.code !== 0) throw new Error(`The sample generator failed (exit ${result.code}):\n${result.stderr.trim() || result.stdout.trim()}`);
    await writeFile(stampFile, stamp);
  }
  const files = (await readdir(dirs.all)).filter((name) => /^signals-.*\.(csv|xlsx)$/.test(name)).sort();
  await rm(dirs.days, { recursive: true, force: true });
  await rm(dirs.next, { recursive: true, force: true });
  await mkdir(dirs.days, { recursive: true });
  await mkdir(dirs.next, { recursive: true });
  // Not the sample's SHA-256 list: these are bench data, not the bundled sample.
  for (const name of files.slice(0, -1)) await link(join(dirs.all, name), join(dirs.days, name));
  await link(join(dirs.all, files.at(-1)!), join(dirs.next, files.at(-1)!));
}

async function daily(ctx: BenchContext, size: HistorySize, dirs: Dirs, source: string): Promise<RunResult> {
  const at = (name: string) => relative(ctx.root, join(dirs.root, name));
  const env = {
    ...process.env,
    SIGNALS_SOURCE: relative(ctx.root, source),
    ARCHIVE_DIR: at('archive'),
    DIST_DIR: at('dist'),
    UNIVERSE_FILE: relative(ctx.root, dirs.universe),
    COMPANY_INFO_FILE: at('no-company-info.json'),
    HISTORY_STORE: at('history-store'),
    SHARE_IMAGE_CACHE: at('share-images'),
    DATABASE_FILE: at('app.db'),
    DATABASE_URL: '',
    SITE_URL: 'https://signals.example',
  };
  const result = await runTsx(ctx.root, 'scripts/daily.ts', [], env);
  if (result.code !== 0) throw new Error(`The daily job on ${size.tickers} x ${size.days} failed (exit ${result.code}):\n${(result.stdout + result.stderr).trim().slice(-3000)}`);
  return result;
}

async function pageGzipKb(dirs: Dirs): Promise<number> {
  return gzipSync(await readFile(join(dirs.root, 'dist', 'client', 'signal', PAGE_TICKER, 'index.html')), { level: 9 }).length / 1024;
}

/** The largest gzip -9 of PAGE_TICKER's signal permalinks (/signal/{T}/{date}), or null when it has none. */
async function permalinkGzipKb(dirs: Dirs): Promise<number | null> {
  const folder = join(dirs.root, 'dist', 'client', 'signal', PAGE_TICKER);
  const dates = (await readdir(folder).catch(() => [] as string[])).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name));
  let largest: number | null = null;
  for (const date of dates) largest = Math.max(largest ?? 0, gzipSync(await readFile(join(folder, date, 'index.html')), { level: 9 }).length / 1024);
  return largest;
}

/** Measures every size: fresh, then one new day. */
export async function historySection(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('history', input));
  const sizes = ctx.quick ? SIZES.slice(0, 1) : SIZES;
  for (const size of sizes) {
    const label = `${size.tickers} x ${size.days}`;
    if (size.long && !ctx.long) {
      // Its budgets stay in the table, as misses, until a --long run measures them.
      const missing = 'not measured: run `npm run bench -- --only history --long` (about 35 minutes)';
      add({ name: `${label}: fresh, wall time`, value: null, unit: 's', budget: size.freshBudget, method: 'fresh run', missing });
      add({ name: `${label}: one new day, wall time`, value: null, unit: 's', budget: size.newDayBudget, method: 'one new day', missing });
      add({ name: `${label}: one new day, peak RSS, whole process tree`, value: null, unit: 'MiB', budget: size.newDayRssBudget, method: 'one new day', missing });
      add({ name: `${label}: one new day, /signal/${PAGE_TICKER} HTML gzip`, value: null, unit: 'KB', budget: PAGE_BUDGET, method: 'one new day', missing });
      add({ name: `${label}: one new day, /signal/${PAGE_TICKER}/{date} HTML gzip, largest`, value: null, unit: 'KB', budget: PAGE_BUDGET, method: 'one new day', missing });
      continue;
    }
    const dirs = dirsOf(ctx, size);
    await ensureSample(ctx, size, dirs);
    for (const name of ['archive', 'archive.lock', 'dist', 'history-store', 'share-images', 'app.db', 'app.db-wal', 'app.db-shm']) await rm(join(dirs.root, name), { recursive: true, force: true });
    for (const [run, source, wallBudget, rssBudget] of [
      ['fresh', dirs.days, size.freshBudget, undefined],
      ['one new day', dirs.next, size.newDayBudget, size.newDayRssBudget],
    ] as const) {
      ctx.log(`  ${label}: ${run}...`);
      const result = await daily(ctx, size, dirs, source);
      const stages = /stages:\s+(.*)/.exec(result.stdout)?.[1] ?? 'no stage times printed';
      // The CPU the run used and the host's steal meanwhile: a wall time on a host that steals is not the job's alone.
      const method = [
        stages,
        ...(result.cpuSeconds === null ? [] : [`CPU ${round(result.cpuSeconds)} s (user + system, whole tree)`]),
        ...(result.stealSeconds === null ? [] : [`host steal ${round(result.stealSeconds)} s`]),
      ].join('; ');
      ctx.log(`    ${round(result.wallSeconds)} s (${method})`);
      add({ name: `${label}: ${run}, wall time`, value: round(result.wallSeconds), unit: 's', budget: wallBudget, method });
      add({
        name: `${label}: ${run}, peak RSS, whole process tree`,
        value: result.peakTreeRssBytes === null ? null : round(result.peakTreeRssBytes / MIB, 0),
        unit: 'MiB',
        budget: rssBudget,
        method: 'sum over the process tree, /proc every 100 ms',
        ...(result.peakTreeRssBytes === null ? { missing: 'not available (/proc unreadable)' } : {}),
      });
      add({ name: `${label}: ${run}, /signal/${PAGE_TICKER} HTML gzip`, value: round(await pageGzipKb(dirs)), unit: 'KB', budget: size.days >= 1260 ? PAGE_BUDGET : undefined, method: 'gzip -9 of the built page' });
      const permalink = await permalinkGzipKb(dirs);
      add({
        name: `${label}: ${run}, /signal/${PAGE_TICKER}/{date} HTML gzip, largest`,
        value: permalink === null ? null : round(permalink),
        unit: 'KB',
        budget: size.days >= 1260 ? PAGE_BUDGET : undefined,
        method: `gzip -9 of each of ${PAGE_TICKER}'s signal permalinks, the largest`,
        ...(permalink === null ? { missing: `${PAGE_TICKER} has no ledger entry in this archive` } : {}),
      });
    }
  }
  return figures;
}
