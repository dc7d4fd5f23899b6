/**
 * Publishing a build without readers ever seeing half of one: the lock that keeps two daily jobs apart, the
 * inputs hash that says whether the published build is still current, the staging folder, and the swap into
 * dist/ (two renames, the replaced build's hashed assets carried over), with the archive committed last.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { PROJECT_ROOT, type BuildShape } from '../config';
import type { ArchivedFile, SiteData } from '../lib/domain/report/schemas';
import { commitToArchive } from '../storage/archive';
import { readBuildInfo, type BuildInfo } from '../storage/site-index';
import { clientDir } from './build';
import { DailyJobError } from './error';
import { LockHeldError, openRedis, withRedisLock } from '../storage/redis';

/** The site's code: a change to any of these makes a new build even when the data is the same. */
const CODE_INPUTS = ['src', 'astro.config.mjs', 'package-lock.json', 'public'];

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** How long a lock that is no longer renewed stays in force: the holder renews it every quarter of this. */
export const LOCK_STALE_MS = 60_000;

/**
 * Holds the archive's lock while `work` runs, so two daily jobs never interleave. The lock is proper-lockfile's folder
 * `${archiveDir}.lock`, renewed while the job lives: a job killed by a signal or out of memory stops renewing it, and
 * the next run takes it over once it is `staleMs` old. No process id is trusted (a container's PID means nothing on
 * the host).
 */
export async function withLock<T>(
  archiveDir: string,
  work: () => Promise<T>,
  { staleMs = LOCK_STALE_MS, log = (_line: string) => {}, redisUrl = null as string | null } = {},
): Promise<T> {
  if (redisUrl !== null) return withSharedLock(redisUrl, staleMs, log, () => withLock(archiveDir, work, { staleMs, log }));
  // The lock sits beside the archive, so a refused run leaves the archive folder exactly as it was.
  await mkdir(dirname(archiveDir), { recursive: true });
  const lockPath = `${archiveDir}.lock`;
  // Earlier versions wrote a file naming a process id here; proper-lockfile's lock is a folder, so a file is always left over.
  if ((await stat(lockPath).catch(() => null))?.isFile()) await unlink(lockPath).catch(() => undefined);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(archiveDir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: staleMs,
      update: Math.max(1000, staleMs / 4),
      onCompromised: (error) => log(`The daily job's lock ${lockPath} could not be renewed (${error.message}); another run may take it over.`),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const renewed = await stat(lockPath).then((info) => Math.round((Date.now() - info.mtimeMs) / 1000), () => 0);
    throw new DailyJobError(
      `Another daily job is running (its lock ${lockPath} was renewed ${renewed} s ago); wait for it to finish. A lock not renewed for ${Math.round(staleMs / 1000)} s, left by a killed run, is taken over by the next run.`,
    );
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}

/** The daily job's lock in Redis (REDIS_URL): the same rules as the folder lock, across hosts. */
async function withSharedLock<T>(redisUrl: string, staleMs: number, log: (line: string) => void, work: () => Promise<T>): Promise<T> {
  const redis = openRedis(redisUrl);
  try {
    return await withRedisLock(redis, 'daily-job', staleMs, work, log);
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    throw new DailyJobError(
      `Another daily job is running (its lock ${error.key} in Redis expires in ${Math.ceil(error.msLeft / 1000)} s unless renewed); wait for it to finish. A lock not renewed for ${Math.round(staleMs / 1000)} s, left by a killed run, is taken over by the next run.`,
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Runs PUBLISH_COMMAND after a successful swap: through /bin/sh, with the published folder in $PUBLISH_DIR and, unless
 * the command names $PUBLISH_DIR itself, as its last argument. Every line it prints goes to `log` and is returned (the
 * run log keeps it); a failure throws a DailyJobError saying the site is built but not published.
 */
export async function runPublishCommand(command: string, publishDir: string, log: (line: string) => void): Promise<string[]> {
  const script = command.includes('$PUBLISH_DIR') ? command : `${command} "$PUBLISH_DIR"`;
  log(`Publishing ${publishDir}: ${script}`);
  const lines: string[] = [];
  const child = spawn('/bin/sh', ['-c', script], { env: { ...process.env, PUBLISH_DIR: publishDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const line of parts) if (line.trim() !== '') (lines.push(line), log(`  ${line}`));
    });
    stream.on('end', () => {
      if (rest.trim() !== '') (lines.push(rest), log(`  ${rest}`));
    });
  };
  collect(child.stdout!);
  collect(child.stderr!);
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  if (outcome.code === 0) return lines;
  const how = outcome.error ? `could not start (${outcome.error.message})` : outcome.signal ? `was stopped by ${outcome.signal}` : `exited with ${outcome.code}`;
  const tail = lines.slice(-10).map((line) => `  ${line}`);
  throw new DailyJobError(
    [`The site is built and live in ${publishDir} but not published: PUBLISH_COMMAND ${how}. Fix the command, then run it by hand or run "npm run daily -- --force".`, ...tail].join('\n'),
  );
}

/** Removes what killed runs left beside distDir (staging folders, replaced builds); call under the lock. Returns their names. */
export async function removeLeftovers(distDir: string): Promise<string[]> {
  const parent = dirname(distDir);
  const base = basename(distDir);
  const removed: string[] = [];
  for (const entry of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || !(entry.name.startsWith(`.${base}-staging-`) || entry.name.startsWith(`${base}.old-`))) continue;
    await rm(join(parent, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

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

/** The hash of everything a build is made of: the archived files, the universe file, the company store (and `stores`), the settings that shape it (BuildShape, API_ORIGIN for the deploy rules, the AI model) and the code. */
export async function inputsHash(files: readonly ArchivedFile[], universeFile: string, companyInfoFile: string, stores: readonly string[], shape: BuildShape & { apiOrigin?: string | null; aiModel?: string | null; billing?: boolean; prices?: string | null }, code?: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${JSON.stringify(shape)}\n`);
  for (const file of files) hash.update(`${file.sha256}\n`);
  hash.update(await readFile(universeFile));
  hash.update(await readFile(companyInfoFile).catch(() => ''));
  for (const store of stores) hash.update(await readFile(store).catch(() => ''));
  hash.update(code ?? (await codeHash()));
  return hash.digest('hex');
}

/** The hash of the site's code (CODE_INPUTS): the pages' shell changes only with it. */
export async function codeHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const path of CODE_INPUTS) await hashTree(hash, PROJECT_ROOT, path);
  return hash.digest('hex');
}

/** The published build when it was made from these inputs and is still in place, else null. */
export async function upToDateBuild(distDir: string, hash: string): Promise<BuildInfo | null> {
  const published = await readBuildInfo(distDir);
  return published?.inputsHash === hash && (await exists(clientDir(distDir))) ? published : null;
}

/** Runs `work` on a fresh staging folder beside distDir (same file system, so the swap is a rename) and removes what is left of it. */
export async function withStaging<T>(distDir: string, work: (staging: string) => Promise<T>): Promise<T> {
  const staging = join(dirname(distDir), `.${basename(distDir)}-staging-${process.pid}-${Date.now()}`);
  await mkdir(staging, { recursive: true });
  try {
    return await work(staging);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The new files to record in the archive once the build is live. */
export interface ArchiveCommit {
  archiveDir: string;
  existing: ArchivedFile[];
  added: { file: ArchivedFile; bytes: Uint8Array }[];
  /** A file withdrawn from the archive by this run, if any. */
  withdraw?: { file: ArchivedFile; withdrawnAt: string } | null;
}

/** Publishes a staged build: writes its build.json, swaps it into distDir, then records the new files in the archive. */
export async function publish(staging: string, distDir: string, build: { siteData: SiteData; inputsHash: string; scriptHashes?: string[] }, archive: ArchiveCommit): Promise<void> {
  const { siteData, inputsHash } = build;
  const info: BuildInfo = {
    builtAt: siteData.builtAt,
    reportDate: siteData.reportDate,
    tickers: siteData.history.latest.length,
    reportDates: siteData.history.dates.length,
    files: siteData.files.length,
    inputsHash,
    source: siteData.source,
    assets: await readdir(join(clientDir(staging), '_astro')).catch(() => []),
    ...(build.scriptHashes === undefined ? {} : { scriptHashes: build.scriptHashes }),
  };
  await writeFile(join(staging, 'build.json'), `${JSON.stringify(info, null, 2)}\n`);
  await swapInto(staging, distDir);
  await commitToArchive(archive.archiveDir, archive.existing, archive.added, archive.withdraw ?? null);
}

// The replaced build's own hashed assets stay one more build, so a page a browser still shows can load its islands.
async function carryOverAssets(distDir: string, stagingClient: string): Promise<void> {
  const previous = await readBuildInfo(distDir);
  const to = join(stagingClient, '_astro');
  const present = new Set(await readdir(to).catch(() => [] as string[]));
  for (const name of previous?.assets ?? []) {
    if (present.has(name)) continue;
    await mkdir(to, { recursive: true });
    await copyFile(join(clientDir(distDir), '_astro', name), join(to, name)).catch(() => undefined);
  }
}

/**
 * The build before the published one, kept beside it (nothing serves it): the next build moves the signal permalinks
 * it keeps out of it, one rename a page, where making each page's folder again costs several times more.
 */
export function recycledBuild(distDir: string): string {
  return `${distDir}.previous`;
}

/**
 * Replaces distDir by the fresh build with two renames, so readers see the old site or the new one. The replaced
 * build becomes the recycled one (recycledBuild); the one recycled before it (what the new build did not take from it:
 * tens of thousands of files at 6,000 tickers, seconds to delete) is removed by a detached `rm` once the new one is
 * live; whatever a killed removal leaves, the next run's removeLeftovers takes.
 */
async function swapInto(staging: string, distDir: string): Promise<void> {
  const stamp = `${process.pid}-${Date.now()}`;
  const old = `${distDir}.old-${stamp}`;
  const hadDist = await exists(distDir);
  if (hadDist) {
    await carryOverAssets(distDir, clientDir(staging));
    await rename(distDir, old);
  }
  try {
    await rename(staging, distDir);
  } catch (error) {
    if (hadDist) await rename(old, distDir);
    throw error;
  }
  if (!hadDist) return;
  const recycled = recycledBuild(distDir);
  const spent = `${distDir}.old-${stamp}-recycled`;
  if (await exists(recycled)) {
    await rename(recycled, spent);
    removeInBackground(spent);
  }
  await rename(old, recycled);
}

function removeInBackground(path: string): void {
  const child = spawn('rm', ['-rf', '--', path], { detached: true, stdio: 'ignore' });
  // Without rm (not a POSIX system), the next run's removeLeftovers deletes it.
  child.once('error', () => undefined);
  child.unref();
}
