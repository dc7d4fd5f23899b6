import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, open, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { PROJECT_ROOT, type Config } from '../config';
import type { ArchivedFile, SiteData } from '../lib/domain/schemas';
import { readBuildInfo, type BuildInfo } from '../storage/site-index';
import { commitToArchive, readArchive, readArchivedBytes, sha256 } from '../storage/archive';
import { buildHistory, type FileRecords } from './history';
import { parseExport, RefusedFileError } from './parse';
import { pullSource } from './pull';
import { precompressStatic } from './precompress';
import { smokeCheck } from './smoke';
import { checkStaticApi, writeStaticApi } from './static-api';
import { readUniverse } from '../storage/universe';
import { readCompanyInfoStore } from '../storage/company-info';
import { withShareImages } from './share-images';


/** Where the daily job reads from and writes to; every path may be relative to the project root. */
export interface DailyConfig {
  source: string;
  archiveDir: string;
  distDir: string;
  universeFile: string;
  /** The company-information store that /api/polygon/sync-company-info fills; missing is fine. */
  companyInfoFile: string;
  /** Where rendered share images are kept between runs (SHARE_IMAGE_CACHE). */
  shareImageCache: string;
  /** The product name the share images show (SITE_NAME). */
  siteName: string;
  /** Rebuild even when the inputs and the code are unchanged since the published build. */
  force?: boolean;
  /** Print the static build's own output. */
  verbose?: boolean;
  log?: (line: string) => void;
}

/** The daily job's settings from the process's Config. */
export function dailyConfig(config: Config): DailyConfig {
  return {
    source: config.source,
    archiveDir: config.archiveDir,
    distDir: config.distDir,
    universeFile: config.universeFile,
    companyInfoFile: config.companyInfoFile,
    shareImageCache: config.shareImageCache,
    siteName: config.siteName,
  };
}

/** The figures the job prints when it ends. */
export interface DailySummary {
  status: 'published' | 'up-to-date';
  pulled: number;
  added: number;
  alreadyArchived: number;
  ignored: string[];
  rows: number;
  tickers: number;
  reportDates: string[];
  warnings: string[];
  pages: number;
  seconds: number;
}

/** A failure that stops the job with a message for the operator and leaves dist/ and the archive as they were. */
export class DailyJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DailyJobError';
  }
}

const CODE_INPUTS = ['src', 'astro.config.mjs', 'package-lock.json', 'public'];

async function hashTree(hash: ReturnType<typeof createHash>, root: string, path: string): Promise<void> {
  const full = join(root, path);
  let info;
  try {
    info = await stat(full);
  } catch {
    return;
  }
  if (info.isDirectory()) {
    for (const name of (await readdir(full)).sort()) await hashTree(hash, root, join(path, name));
  } else {
    hash.update(`${path}\0`).update(await readFile(full)).update('\0');
  }
}

async function inputsHash(files: ArchivedFile[], universeFile: string, companyInfoFile: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.sha256}\n`);
  hash.update(await readFile(universeFile));
  hash.update(await readFile(companyInfoFile).catch(() => ''));
  for (const path of CODE_INPUTS) await hashTree(hash, PROJECT_ROOT, path);
  return hash.digest('hex');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Holds the archive's lock file while `work` runs, so two daily jobs never interleave. */
async function withLock<T>(archiveDir: string, work: () => Promise<T>): Promise<T> {
  // The lock sits beside the archive, so a refused run leaves the archive folder exactly as it was.
  await mkdir(dirname(archiveDir), { recursive: true });
  const lockPath = `${archiveDir}.lock`;
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch {
    const pid = Number(await readFile(lockPath, 'utf8').catch(() => ''));
    let alive = false;
    try {
      if (pid > 0) process.kill(pid, 0);
      alive = pid > 0;
    } catch {
      alive = false;
    }
    if (alive) throw new DailyJobError(`Another daily job (process ${pid}) is running; wait for it to finish.`);
    await unlink(lockPath).catch(() => undefined);
    handle = await open(lockPath, 'wx');
  }
  await handle.writeFile(String(process.pid));
  await handle.close();
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

function runAstroBuild(outDir: string, siteDataFile: string, verbose: boolean): Promise<void> {
  const astro = join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [astro, 'build', '--outDir', outDir, '--silent'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SITE_DATA_FILE: siteDataFile, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', verbose ? 'inherit' : 'pipe', verbose ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolvePromise();
      else reject(new DailyJobError(`The static build failed (exit code ${code}); the published site is unchanged.\n${output.trim()}`));
    });
  });
}

/**
 * The daily job: pull -> archive check -> parse and validate -> signal history -> static build into a fresh
 * folder -> smoke check -> swap into dist/ -> record the new files in the archive. A refused file or a failed
 * build throws before anything published changes.
 */
export async function runDaily(config: DailyConfig): Promise<DailySummary> {
  const started = performance.now();
  const log = config.log ?? (() => undefined);
  const archiveDir = resolve(PROJECT_ROOT, config.archiveDir);
  const distDir = resolve(PROJECT_ROOT, config.distDir);
  const universeFile = resolve(PROJECT_ROOT, config.universeFile);
  const companyInfoFile = resolve(PROJECT_ROOT, config.companyInfoFile);

  return withLock(archiveDir, async () => {
    const archived = await readArchive(archiveDir);
    const known = new Set(archived.map((file) => file.sha256));
    const pulled = await pullSource(/^https?:/i.test(config.source) ? config.source : resolve(PROJECT_ROOT, config.source));
    log(`Pulled ${pulled.files.length} file(s) from ${config.source}.`);

    const refused: RefusedFileError[] = [];
    const added: { file: ArchivedFile; bytes: Uint8Array; records: FileRecords }[] = [];
    const warnings: string[] = [];
    let alreadyArchived = 0;
    const archivedAt = new Date().toISOString();
    for (const { name, bytes } of pulled.files) {
      const hash = sha256(bytes);
      if (known.has(hash)) {
        alreadyArchived += 1;
        continue;
      }
      known.add(hash);
      try {
        const parsed = await parseExport(name, bytes);
        for (const w of parsed.warnings) warnings.push(`${name}:${w.row ?? ''}:${w.column ?? ''}: ${w.message}`);
        const reportDates = [...new Set(parsed.records.map((r) => r.reportDate))].sort();
        added.push({
          bytes,
          records: { fileName: name, records: parsed.records },
          file: {
            id: hash.slice(0, 16),
            sha256: hash,
            fileName: name,
            kind: parsed.kind,
            bytes: bytes.length,
            archivedAt,
            reportDates,
            rowCount: parsed.records.length,
            sheets: parsed.sheets,
          },
        });
      } catch (error) {
        if (error instanceof RefusedFileError) refused.push(error);
        else throw error;
      }
    }
    if (refused.length > 0) {
      throw new DailyJobError(
        [
          `Refused ${refused.length} file(s); nothing was archived or published, the site stays as it was:`,
          ...refused.map((error) => `  ${error.message}`),
          'Fix the file(s) at the source and run the daily job again.',
        ].join('\n'),
      );
    }

    const files = [...archived, ...added.map((a) => a.file)];
    if (files.length === 0) {
      throw new DailyJobError(`No export files in ${config.source}: put at least one .csv or .xlsx export there (or set SIGNALS_SOURCE).`);
    }
    const hash = await inputsHash(files, universeFile, companyInfoFile);
    const published = await readBuildInfo(distDir);
    const base = {
      pulled: pulled.files.length,
      added: added.length,
      alreadyArchived,
      ignored: pulled.ignored,
    };
    if (!config.force && added.length === 0 && published?.inputsHash === hash && (await exists(join(distDir, 'client')))) {
      return {
        ...base,
        status: 'up-to-date' as const,
        rows: 0,
        tickers: published.tickers,
        reportDates: [],
        warnings,
        pages: 0,
        seconds: (performance.now() - started) / 1000,
      };
    }

    const universe = await readUniverse(universeFile);
    const fileRecords: FileRecords[] = [];
    const newRecords = new Map(added.map((a) => [a.file.sha256, a.records]));
    for (const file of archived) {
      const cached = newRecords.get(file.sha256);
      if (cached) {
        fileRecords.push(cached);
        continue;
      }
      try {
        const parsed = await parseExport(file.fileName, await readArchivedBytes(archiveDir, file));
        fileRecords.push({ fileName: file.fileName, records: parsed.records });
      } catch (error) {
        throw new DailyJobError(`The archived file ${file.fileName} (${file.id}) can no longer be read: ${(error as Error).message}`);
      }
    }
    for (const a of added) fileRecords.push(a.records);
    const { history, warnings: historyWarnings } = buildHistory(fileRecords, universe);
    warnings.push(...historyWarnings);
    const reportDate = history.dates.at(-1)!;

    const staging = join(dirname(distDir), `.dist-staging-${process.pid}-${Date.now()}`);
    await mkdir(join(staging, 'data'), { recursive: true });
    try {
      const store = await readCompanyInfoStore(companyInfoFile);
      const companies = Object.fromEntries(history.latest.flatMap((r) => (store.companies[r.ticker] ? [[r.ticker, store.companies[r.ticker]!]] : [])));
      const siteData: SiteData = { builtAt: new Date().toISOString(), reportDate, history, files, universe, companies };
      const siteDataFile = join(staging, 'data', 'site.json');
      await writeFile(siteDataFile, JSON.stringify(siteData));
      log(`Building the site for ${reportDate} (${history.latest.length} tickers)...`);
      await withShareImages(siteData, join(staging, 'client'), () => runAstroBuild(join(staging, 'client'), siteDataFile, config.verbose ?? false), {
        cacheDir: resolve(PROJECT_ROOT, config.shareImageCache),
        siteName: config.siteName,
      });
      await writeStaticApi(join(staging, 'client'), siteData, config.siteName);
      const smoke = await smokeCheck(join(staging, 'client'), history.latest.map((r) => r.ticker));
      smoke.problems.push(...(await checkStaticApi(join(staging, 'client'), history.latest.map((r) => r.ticker))));
      if (smoke.problems.length > 0) {
        throw new DailyJobError(
          [`The smoke check found ${smoke.problems.length} problem(s); the published site is unchanged:`, ...smoke.problems.slice(0, 20).map((p) => `  ${p}`)].join('\n'),
        );
      }
      await precompressStatic(join(staging, 'client'));
      const info: BuildInfo = {
        builtAt: siteData.builtAt,
        reportDate,
        tickers: history.latest.length,
        reportDates: history.dates.length,
        files: files.length,
        inputsHash: hash,
        assets: await readdir(join(staging, 'client', '_astro')).catch(() => []),
      };
      await writeFile(join(staging, 'build.json'), `${JSON.stringify(info, null, 2)}\n`);
      await swapInto(staging, distDir);
      await commitToArchive(archiveDir, archived, added);
      return {
        ...base,
        status: 'published' as const,
        rows: fileRecords.reduce((sum, f) => sum + f.records.length, 0),
        tickers: history.latest.length,
        reportDates: history.dates,
        warnings,
        pages: smoke.pages,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  });
}

// The replaced build's own hashed assets stay one more build, so a page a browser still shows can load its islands.
async function carryOverAssets(distDir: string, stagingClient: string): Promise<void> {
  const previous = await readBuildInfo(distDir);
  const to = join(stagingClient, '_astro');
  const present = new Set(await readdir(to).catch(() => [] as string[]));
  for (const name of previous?.assets ?? []) {
    if (present.has(name)) continue;
    await mkdir(to, { recursive: true });
    await copyFile(join(distDir, 'client', '_astro', name), join(to, name)).catch(() => undefined);
  }
}

/** Replaces distDir by the fresh build with two renames, so readers see the old site or the new one. */
async function swapInto(staging: string, distDir: string): Promise<void> {
  const old = `${distDir}.old-${process.pid}`;
  const hadDist = await exists(distDir);
  if (hadDist) await carryOverAssets(distDir, join(staging, 'client'));
  if (hadDist) await rename(distDir, old);
  try {
    await rename(staging, distDir);
  } catch (error) {
    if (hadDist) await rename(old, distDir);
    throw error;
  }
  if (hadDist) await rm(old, { recursive: true, force: true });
}

/** The summary as the job prints it. */
export function formatSummary(summary: DailySummary, config: DailyConfig): string {
  const dates = summary.reportDates;
  const lines = [
    `Daily job ${summary.status === 'published' ? 'published the site' : 'found nothing new: the published site is up to date'}.`,
    `  source:       ${config.source}`,
    `  files:        ${summary.pulled} pulled, ${summary.added} new, ${summary.alreadyArchived} already archived${summary.ignored.length ? `, ${summary.ignored.length} ignored (${summary.ignored.join(', ')})` : ''}`,
  ];
  if (summary.status === 'published') {
    lines.push(
      `  rows:         ${summary.rows}`,
      `  tickers:      ${summary.tickers} on ${dates.at(-1)}`,
      `  report dates: ${dates.length} (${dates[0]} to ${dates.at(-1)})`,
      `  pages:        ${summary.pages} HTML pages, smoke check passed`,
      `  output:       ${relative(process.cwd(), resolve(PROJECT_ROOT, config.distDir)) || '.'}/`,
    );
  }
  lines.push(`  warnings:     ${summary.warnings.length}`);
  for (const warning of summary.warnings.slice(0, 20)) lines.push(`    ${warning}`);
  if (summary.warnings.length > 20) lines.push(`    ... and ${summary.warnings.length - 20} more`);
  lines.push(`  seconds:      ${summary.seconds.toFixed(1)}`);
  return lines.join('\n');
}
