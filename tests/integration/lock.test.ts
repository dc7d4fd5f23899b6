/**
 * The lock is proper-lockfile's, renewed while a job runs; one a killed
 * job left is taken over once stale, a process id in it means nothing, and every run removes what killed runs left.
 */
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeLeftovers, withLock } from '../../src/ingest/publish';

let work: string;
let archiveDir: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'lock-'));
  archiveDir = join(work, 'archive');
});
afterEach(() => rm(work, { recursive: true, force: true }));

describe('the daily job lock', () => {
  it('ignores a lock file naming a live process (a container PID that is a kernel thread on the host)', async () => {
    // process 1 is always alive; the old lock refused with "Another daily job (process 1) is running" forever.
    await writeFile(`${archiveDir}.lock`, '1');
    expect(await withLock(archiveDir, async () => 'ran')).toBe('ran');
  });

  it('takes over a lock a killed job stopped renewing, once it is stale', async () => {
    await mkdir(`${archiveDir}.lock`);
    const old = new Date(Date.now() - 5 * 60_000);
    await utimes(`${archiveDir}.lock`, old, old);
    expect(await withLock(archiveDir, async () => 'ran')).toBe('ran');
    await expect(stat(`${archiveDir}.lock`)).rejects.toThrow();
  });

  it('refuses while another job holds and renews it, then lets the next run in', async () => {
    let finish!: () => void;
    const holding = withLock(archiveDir, () => new Promise<string>((resolve) => (finish = () => resolve('first'))), { staleMs: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Past the staleness window: the holder's heartbeat keeps the lock fresh.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await expect(withLock(archiveDir, async () => 'second', { staleMs: 2000 })).rejects.toThrow(
      /^Another daily job is running \(its lock .*archive\.lock was renewed \d+ s ago\); wait for it to finish\. A lock not renewed for 2 s, left by a killed run, is taken over by the next run\.$/,
    );
    finish();
    expect(await holding).toBe('first');
    expect(await withLock(archiveDir, async () => 'third')).toBe('third');
  });

  it('removes the staging folders and replaced builds killed runs left, and nothing else', async () => {
    const distDir = join(work, 'dist');
    for (const name of ['.dist-staging-24-1732400000000', 'dist.old-24', 'dist', 'other', '.other-staging-1']) await mkdir(join(work, name, 'client'), { recursive: true });
    expect((await removeLeftovers(distDir)).sort()).toEqual(['.dist-staging-24-1732400000000', 'dist.old-24']);
    expect((await readdir(work)).sort()).toEqual(['.other-staging-1', 'dist', 'other']);
  });
});
