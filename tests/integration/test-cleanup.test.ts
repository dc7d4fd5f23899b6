/**
 * Tests clean up after themselves: the process finder of `npm test`'s self-check (scripts/test-setup.ts) on real
 * processes, and vitest runs, marked as `npm test` marks them, that leave no PostgreSQL cluster, no started process
 * and no temp folder behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTestProcesses, leftoverFolders, type TestProcess } from '../../scripts/test-setup';

const ROOT = join(import.meta.dirname, '../..');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const started: ChildProcess[] = [];
const folders: string[] = [];

afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function runFolder(): Promise<{ dir: string; marker: string; env: NodeJS.ProcessEnv }> {
  const dir = await mkdtemp(join(tmpdir(), 'cleanup-'));
  folders.push(dir);
  // As npm test does: as root, PostgreSQL runs as the postgres user, who must reach its folder inside this one.
  await chmod(dir, 0o755);
  return { dir, marker: `C_SCORE_TEST_RUN=${basename(dir)}`, env: { ...process.env, TMPDIR: dir, C_SCORE_TEST_RUN: basename(dir) } };
}

function start(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore', ...options });
  started.push(child);
  return child;
}

const pids = (found: TestProcess[]) => found.map((item) => item.pid);

describe("npm test's process finder", () => {
  it('finds a process by the run mark in its environment, its working folder or its command line, and their children', async () => {
    const { dir, marker, env } = await runFolder();
    const marked = start('sleep', ['30'], { env });
    const inside = start('sleep', ['30'], { cwd: dir });
    const naming = start('sh', ['-c', `sleep 30; echo ${dir}/done`]);
    const other = start('sleep', ['30']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const found = findTestProcesses(marker, dir);
    expect(pids(found)).toEqual(expect.arrayContaining([marked.pid, inside.pid, naming.pid]));
    // The sh's sleep: a child of a process of the run.
    expect(found.some((item) => item.command === 'sleep 30' && ![marked.pid, inside.pid, other.pid].includes(item.pid))).toBe(true);
    expect(pids(found)).not.toContain(other.pid);
    expect(pids(found)).not.toContain(process.pid);
    for (const child of [marked, inside, naming]) child.kill('SIGKILL');
  });
});

/** Runs vitest on `args` as npm test does; what it left running and in its temp folder, and what ran meanwhile. */
async function vitestRun(args: string[]): Promise<{ code: number | null; output: string; seen: TestProcess[]; left: TestProcess[]; folders: string[] }> {
  const { dir, marker, env } = await runFolder();
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const seen = new Map<number, TestProcess>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const poll = setInterval(() => {
    for (const item of findTestProcesses(marker, dir)) seen.set(item.pid, item);
  }, 200);
  const code = await exited;
  clearInterval(poll);
  return { code, output, seen: [...seen.values()], left: findTestProcesses(marker, dir), folders: leftoverFolders(dir) };
}

describe('a vitest run', () => {
  it('of a PostgreSQL-using test file leaves no postgres process and no temp folder behind', async () => {
    const run = await vitestRun(['tests/integration/ai-store.test.ts']);
    expect(run.code, run.output).toBe(0);
    expect(run.seen.some((item) => /postgres/.test(item.command)), 'the run started its PostgreSQL cluster').toBe(true);
    expect(run.left).toEqual([]);
    expect(run.folders).toEqual([]);
  }, 180_000);

  it('stops a process a test file started and forgot (the deploy fixture stops it after the file)', async () => {
    const run = await vitestRun(['--config', 'tests/fixtures/leak-probe/vitest.config.ts']);
    expect(run.code, run.output).toBe(0);
    expect(run.seen.some((item) => item.command === 'sleep 300'), 'the probe started its sleep').toBe(true);
    expect(run.left).toEqual([]);
  }, 180_000);
});
