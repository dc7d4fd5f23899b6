/** Section 1, build scaling: the full daily job (ingest + static build) on generated samples of several sizes. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type BenchContext, type Budget, type Figure, figure, round } from './figures';
import { type RunResult, runTsx } from './process';

const MIB = 1024 ** 2;
const DAYS = 60;
const WALL_BUDGETS = new Map<number, Budget>([
  [503, { op: '<=', limit: 30 }],
  [6000, { op: '<=', limit: 120 }],
]);
const RSS_BUDGET: Budget = { op: '<', limit: 2048 };

/** Where one generated site lives: its sample exports, universe file, archive and published build. */
export interface SiteDirs {
  tickers: number;
  exports: string;
  universe: string;
  archive: string;
  dist: string;
}

/** The folders of the bench's site of `tickers` tickers under bench/tmp. */
function siteDirs(ctx: BenchContext, tickers: number): SiteDirs {
  const dir = join(ctx.tmp, `site-${tickers}`);
  return { tickers, exports: join(dir, 'exports'), universe: join(dir, 'universe.csv'), archive: join(dir, 'archive'), dist: join(dir, 'dist') };
}

/** The sample generator's inputs: a stamp of them says whether the exports on disk are still current. */
function generatorStamp(ctx: BenchContext, tickers: number): string {
  const hash = createHash('sha256').update(`${tickers}:${DAYS}\n`);
  for (const file of ['scripts/sample/generator.ts', 'scripts/sample/files.ts', 'scripts/make-sample-exports.ts', 'data/universe/sp500-constituents.csv']) {
    hash.update(readFileSync(join(ctx.root, file)));
  }
  return hash.digest('hex');
}

/** Writes the seeded sample exports and universe for `tickers` unless the same generator already wrote them. */
async function ensureSample(ctx: BenchContext, dirs: SiteDirs): Promise<void> {
  const stampFile = join(dirs.exports, '.bench-stamp');
  const stamp = generatorStamp(ctx, dirs.tickers);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  ctx.log(`  generating ${dirs.tickers} tickers x ${DAYS} days of sample exports...`);
  const args = ['--days', String(DAYS), '--tickers', String(dirs.tickers), '--out', rel(ctx, dirs.exports), '--universe-out', rel(ctx, dirs.universe)];
  const result = await runTsx(ctx.root, 'scripts/make-sample-exports.ts', args, process.env);
  if (result.code !== 0) throw new Error(`The sample generator failed (exit ${result.code}):\n${result.stderr.trim() || result.stdout.trim()}`);
  await writeFile(stampFile, stamp);
}

function rel(ctx: BenchContext, path: string): string {
  return relative(ctx.root, path);
}

/** The accounts database of a bench site, where scripts/bench/server.ts opens it too. */
function benchDatabase(dirs: SiteDirs): string {
  return join(dirs.dist, '..', 'bench-app.db');
}

/** Runs the daily job on a site's folders (`npm run daily` without npm) and fails loudly when it fails. */
async function runDailyJob(ctx: BenchContext, dirs: SiteDirs): Promise<RunResult> {
  const env = {
    ...process.env,
    SIGNALS_SOURCE: rel(ctx, dirs.exports),
    ARCHIVE_DIR: rel(ctx, dirs.archive),
    DIST_DIR: rel(ctx, dirs.dist),
    UNIVERSE_FILE: rel(ctx, dirs.universe),
    COMPANY_INFO_FILE: rel(ctx, join(dirs.exports, '..', 'no-company-info.json')),
    // The site's own accounts database (the bench server opens the same file): its run log, closes and ledger.
    DATABASE_FILE: benchDatabase(dirs),
    DATABASE_URL: '',
  };
  const result = await runTsx(ctx.root, 'scripts/daily.ts', [], env);
  if (result.code !== 0) {
    throw new Error(`The daily job for ${dirs.tickers} tickers failed (exit ${result.code}):\n${(result.stdout + result.stderr).trim().slice(-4000)}`);
  }
  return result;
}

/** A fresh build: empty archive and no published site, so the job ingests and builds everything. */
async function freshBuild(ctx: BenchContext, dirs: SiteDirs): Promise<RunResult> {
  await ensureSample(ctx, dirs);
  await rm(dirs.archive, { recursive: true, force: true });
  await rm(`${dirs.archive}.lock`, { force: true });
  await rm(dirs.dist, { recursive: true, force: true });
  // A fresh build records its ledger afresh: a ledger is kept across runs, like the archive.
  for (const suffix of ['', '-wal', '-shm']) await rm(benchDatabase(dirs) + suffix, { force: true });
  await mkdir(join(dirs.exports, '..'), { recursive: true });
  return runDailyJob(ctx, dirs);
}

/**
 * Builds the site of `tickers` tickers, or brings bench/tmp's build of it up to date: the daily job answers
 * "up to date" in a second when neither the exports nor the code changed, and rebuilds when they did, so a
 * partial run never measures pages of older code. Returns the site's folders.
 */
export async function ensureSite(ctx: BenchContext, tickers: number): Promise<SiteDirs> {
  const dirs = siteDirs(ctx, tickers);
  if (existsSync(join(dirs.dist, 'build.json')) && existsSync(join(dirs.dist, 'client', 'index.html'))) {
    await ensureSample(ctx, dirs);
    await runDailyJob(ctx, dirs);
    return dirs;
  }
  ctx.log(`  building the ${tickers}-ticker site (no build in ${rel(ctx, dirs.dist)} yet)...`);
  await freshBuild(ctx, dirs);
  return dirs;
}

/** The sizes the build section measures. */
function buildSizes(ctx: BenchContext): number[] {
  return ctx.quick ? [503] : [503, 2000, 6000];
}

/** How the section measures, once for the table's header. */
export const BUILD_NOTE =
  `Each size is a seeded sample from \`npm run sample\` (${DAYS} report days; above 503 tickers a synthetic universe). The daily job runs as \`tsx scripts/daily.ts\` (what \`npm run daily\` runs) under \`/usr/bin/time -v\` on an empty archive and no dist: pull, parse, validate, history, \`astro build\` (a child process), smoke check, swap. Wall time is measured around the whole process. Peak RSS is given twice: the sum over the whole process tree, sampled from /proc/*/statm every 100 ms (the budget's figure: the job and its \`astro build\` child together), and GNU time's "Maximum resident set size" (the largest single process). The second run repeats the job on the same inputs: it should answer "up to date" and build nothing.`;

/** Measures the daily job for every size: a fresh run, then a second run with unchanged inputs. */
export async function buildSection(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: Parameters<typeof figure>[1]) => figures.push(figure('build', input));
  for (const tickers of buildSizes(ctx)) {
    const dirs = siteDirs(ctx, tickers);
    ctx.log(`  daily job, ${tickers} tickers, fresh...`);
    const fresh = await freshBuild(ctx, dirs);
    const pages = Number(/pages:\s+(\d+)/.exec(fresh.stdout)?.[1] ?? Number.NaN);
    ctx.log(`    ${round(fresh.wallSeconds)} s, ${pages} pages`);
    add({ name: `${tickers} tickers: daily job wall time`, value: round(fresh.wallSeconds), unit: 's', budget: WALL_BUDGETS.get(tickers), method: 'fresh run, wall clock' });
    add({
      name: `${tickers} tickers: pages per second`,
      value: Number.isFinite(pages) ? round(pages / fresh.wallSeconds) : null,
      unit: 'pages/s',
      method: `${Number.isFinite(pages) ? pages : '?'} HTML pages (the job's count) / wall time`,
      ...(Number.isFinite(pages) ? {} : { missing: 'the job printed no page count' }),
    });
    add({
      name: `${tickers} tickers: peak RSS, whole process tree`,
      value: fresh.peakTreeRssBytes === null ? null : round(fresh.peakTreeRssBytes / MIB, 0),
      unit: 'MiB',
      budget: RSS_BUDGET,
      method: 'sum over the process tree, /proc every 100 ms',
      ...(fresh.peakTreeRssBytes === null ? { missing: 'not available (/proc unreadable)' } : {}),
    });
    add({
      name: `${tickers} tickers: peak RSS, largest single process`,
      value: fresh.maxSingleRssBytes === null ? null : round(fresh.maxSingleRssBytes / MIB, 0),
      unit: 'MiB',
      budget: RSS_BUDGET,
      method: '`/usr/bin/time -v` maximum RSS',
      ...(fresh.maxSingleRssBytes === null ? { missing: 'not available (no /usr/bin/time)' } : {}),
    });
    ctx.log(`  daily job, ${tickers} tickers, unchanged inputs...`);
    const again = await runDailyJob(ctx, dirs);
    const upToDate = /up to date/.test(again.stdout);
    add({
      name: `${tickers} tickers: second run, unchanged inputs`,
      value: round(again.wallSeconds),
      unit: 's',
      method: `${upToDate ? '"up to date", built nothing' : 'did NOT answer "up to date": it rebuilt'}; saves ${round(fresh.wallSeconds - again.wallSeconds)} s`,
    });
    if (!existsSync(join(dirs.dist, 'client', 'index.html'))) throw new Error(`The ${tickers}-ticker build has no ${rel(ctx, dirs.dist)}/client/index.html.`);
  }
  return figures;
}
