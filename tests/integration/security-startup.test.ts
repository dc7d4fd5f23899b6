/**
 * What `npm start` checks before it serves: the accounts database (a damaged, truncated or emptied SQLite file stops
 * the start with one line naming DATABASE_FILE and what to do; an unreachable PostgreSQL names its address without
 * the password), and the run log's rows left "running" by a killed job, closed at the next start.
 */
import { copyFile, mkdtemp, open, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeInterruptedRuns, INTERRUPTED_RUN_NOTE } from '../../src/ingest/run-record';
import { withLock } from '../../src/ingest/publish';
import { openAccounts } from '../../src/server/accounts';
import { RunLog } from '../../src/storage/run-log';
import { DatabaseCheckError } from '../../src/storage/db';
import { testAccountSettings, testAccounts } from '../fixtures/accounts';
import { startScript } from '../fixtures/deploy';

let work: string;
/** A database that had accounts, closed cleanly (its write-ahead log folded into the file). */
let good: string;

const settings = (file: string, url: string | null = null) => testAccountSettings({ url, file });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'startup-'));
  good = join(work, 'good.db');
  const accounts = await openAccounts(settings(good));
  for (let i = 0; i < 40; i++) {
    await accounts.auth.api.signUpEmail({ body: { email: `reader${i}@example.com`, password: 'correct horse battery', name: `Reader ${i} ${'x'.repeat(200)}` } });
  }
  await accounts.close();
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** A copy of the good database, spoiled by `spoil`. */
async function spoiled(name: string, spoil: (file: string) => Promise<void>): Promise<string> {
  const file = join(work, name);
  await copyFile(good, file);
  await spoil(file);
  return file;
}

const damage = async (file: string) => {
  // Garbage over every page but the first (the header stays valid, so SQLite opens the file and finds the damage).
  const size = (await stat(file)).size;
  const handle = await open(file, 'r+');
  await handle.write(Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096);
  await handle.close();
};
const halve = async (file: string) => truncate(file, Math.floor((await stat(file)).size / 2 / 4096) * 4096 + 1000);
const empty = async (file: string) => writeFile(file, '');

const ONE_LINE = (file: string) => new RegExp(`^DATABASE_FILE ${file.replaceAll('.', '\\.')} (is damaged|is an empty file).*, so the server did not start: restore the file from a backup, or move it aside to start with an empty database \\(its accounts would be gone\\)\\.$`);

describe('the database check at start', () => {
  it('opens a sound database that had accounts, and a new one where no file is', async () => {
    const accounts = await openAccounts(settings(await spoiled('sound.db', async () => undefined)));
    expect(await accounts.database.db.selectFrom('user').select('email').execute()).toHaveLength(40);
    await accounts.close();
    const fresh = await openAccounts(settings(join(work, 'new', 'app.db')));
    expect(await fresh.database.db.selectFrom('user').select('email').execute()).toHaveLength(0);
    await fresh.close();
  });

  it.each([
    ['damaged', damage, /is damaged \(SQLite says: .+\)/],
    ['truncated', halve, /is damaged \(SQLite says: .+\)/],
    ['emptied (0 bytes)', empty, /is an empty file \(0 bytes\) where a database was/],
  ] as const)('refuses a %s file with one line naming DATABASE_FILE and what to do', async (name, spoil, problem) => {
    const file = await spoiled(`${name.split(' ')[0]}.db`, spoil);
    const error = await openAccounts(settings(file)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseCheckError);
    const message = (error as Error).message;
    expect(message).toMatch(ONE_LINE(file));
    expect(message).toMatch(problem);
    expect(message).not.toContain('\n');
    // Never a fresh database over it: the file is left as it was.
    if (name.startsWith('emptied')) expect((await stat(file)).size).toBe(0);
  });

  it('stops `npm start` with that one line and exit code 1, for each spoiled file', async () => {
    const files = await Promise.all([spoiled('start-damaged.db', damage), spoiled('start-truncated.db', halve), spoiled('start-empty.db', empty)]);
    const runs = files.map((file) =>
      startScript('scripts/start.ts', {
        NODE_ENV: 'development',
        DATABASE_FILE: file,
        DATABASE_URL: '',
        REDIS_URL: '',
        PORT: '0',
        HOST: '127.0.0.1',
        DIST_DIR: join(work, 'no-dist'),
        LOG_LEVEL: 'warn',
      }),
    );
    const codes = await Promise.all(runs.map((run) => Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 90_000))])));
    for (const run of runs) await run.stop();
    files.forEach((file, i) => {
      // Node's own warning that node:sqlite is experimental aside.
      const output = runs[i]!
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '' && !/ExperimentalWarning|--trace-warnings/.test(line))
        .join('\n');
      expect(codes[i], output).toBe(1);
      expect(output.split('\n'), output).toHaveLength(1);
      expect(output).toMatch(ONE_LINE(file));
    });
  }, 120_000);

  it('names the PostgreSQL address without its password when it cannot be reached', async () => {
    const error = await openAccounts(settings('unused.db', 'postgres://reader:s3cret-word@127.0.0.1:1/signals')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseCheckError);
    const message = (error as Error).message;
    expect(message).toMatch(/^The database at DATABASE_URL postgres:\/\/127\.0\.0\.1:1\/signals cannot be used \(.+\), so the server did not start: check that PostgreSQL is running/);
    expect(message).not.toContain('s3cret-word');
    expect(message).not.toContain('\n');
  });
});

describe('the run log at the next start', () => {
  it('closes the rows a killed job left "running", as failed with a note, and leaves finished rows alone', async () => {
    const accounts = await testAccounts();
    try {
      const log = new RunLog(accounts.database.db);
      const killed = await log.start('cli', ['2026-11-20.csv']);
      const done = await log.start('upload', []);
      await log.finish(done, { outcome: 'published', reportDate: '2026-11-20', files: [], warnings: [], messages: [], notes: {} });
      const lines: string[] = [];
      await closeInterruptedRuns(log, join(work, 'archive-a'), { redisUrl: null, log: (line) => lines.push(line) });
      const rows = await log.recent();
      expect(rows.find((row) => row.id === killed.id)).toMatchObject({ outcome: 'failed', messages: [INTERRUPTED_RUN_NOTE], files: ['2026-11-20.csv'] });
      expect(rows.find((row) => row.id === killed.id)!.finishedAt).not.toBeNull();
      expect(rows.find((row) => row.id === done.id)).toMatchObject({ outcome: 'published', messages: [] });
      expect(lines).toEqual(['The run log had 1 run(s) left "running" by a stopped job: now marked failed.']);
    } finally {
      await accounts.dispose();
    }
  });

  it('leaves the row of a job that is running now (it holds the daily job\'s lock)', async () => {
    const accounts = await testAccounts();
    try {
      const log = new RunLog(accounts.database.db);
      const archive = join(work, 'archive-b');
      let finish!: () => void;
      let started!: () => void;
      const holding = new Promise<void>((resolve) => (started = resolve));
      const job = withLock(archive, async () => {
        await log.start('token', []);
        started();
        await new Promise<void>((resolve) => (finish = resolve));
      });
      await holding;
      const lines: string[] = [];
      await closeInterruptedRuns(log, archive, { redisUrl: null, log: (line) => lines.push(line) });
      expect((await log.recent())[0]!.outcome).toBe('running');
      expect(lines[0]).toMatch(/^Runs left "running" in the run log were not checked \(Another daily job is running/);
      finish();
      await job;
    } finally {
      await accounts.dispose();
    }
  });
});
