/**
 * Publishing a build without readers ever seeing half of one: the lock that keeps two daily jobs apart, the
 * inputs hash that says whether the published build is still current, the staging folder, and the swap into
 * dist/ (two renames, the replaced build's hashed assets carried over), with the archive committed last.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { ArchivedFile, SiteData } from '../lib/domain/schemas';
import { commitToArchive } from '../storage/archive';
import { readBuildInfo, type BuildInfo } from '../storage/site-index';
import { clientDir } from './build';
import { DailyJobError } from './error';

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

/** Holds the archive's lock file while `work` runs, so two daily jobs never interleave; a dead holder's lock is taken over. */
export async function withLock<T>(archiveDir: string, work: () => Promise<T>): Promise<T> {
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

/** The hash of everything a build is made of: the archived files, the universe file, the company store (and `stores`) and the code. */
export async function inputsHash(files: readonly ArchivedFile[], universeFile: string, companyInfoFile: string, stores: readonly string[] = []): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.sha256}\n`);
  hash.update(await readFile(universeFile));
  hash.update(await readFile(companyInfoFile).catch(() => ''));
  for (const store of stores) hash.update(await readFile(store).catch(() => ''));
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
  const staging = join(dirname(distDir), `.dist-staging-${process.pid}-${Date.now()}`);
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
}

/** Publishes a staged build: writes its build.json, swaps it into distDir, then records the new files in the archive. */
export async function publish(staging: string, distDir: string, build: { siteData: SiteData; inputsHash: string }, archive: ArchiveCommit): Promise<void> {
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
  };
  await writeFile(join(staging, 'build.json'), `${JSON.stringify(info, null, 2)}\n`);
  await swapInto(staging, distDir);
  await commitToArchive(archive.archiveDir, archive.existing, archive.added);
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

/** Replaces distDir by the fresh build with two renames, so readers see the old site or the new one. */
async function swapInto(staging: string, distDir: string): Promise<void> {
  const old = `${distDir}.old-${process.pid}`;
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
  if (hadDist) await rm(old, { recursive: true, force: true });
}
