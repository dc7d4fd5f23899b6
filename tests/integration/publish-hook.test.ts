/**
 * PUBLISH_COMMAND: run by the daily job after a successful swap with the published folder; its output goes
 * to the run log; a failure exits non-zero and says the site is built but not published. And the shipped unit files
 * pass `systemd-analyze verify`.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { runPublishCommand } from '../../src/ingest/publish';
import { openDatabase } from '../../src/storage/db';
import { RunLog } from '../../src/storage/run-log';
import { testAccounts } from '../fixtures/accounts';
import { startScript } from '../fixtures/deploy';
import { buildSite, type BuiltSite } from './api-harness';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);
let site: BuiltSite;

beforeAll(async () => {
  site = await buildSite();
});
afterAll(() => rm(site.work, { recursive: true, force: true }));

describe('PUBLISH_COMMAND', { timeout: 90_000 }, () => {
  it('gets the published folder as its last argument, or in $PUBLISH_DIR when it names it, and returns every line it printed', async () => {
    const lines: string[] = [];
    expect(await runPublishCommand('echo uploading', '/srv/site/dist/client', (line) => lines.push(line))).toEqual(['uploading /srv/site/dist/client']);
    expect(await runPublishCommand('echo "to $PUBLISH_DIR/"; echo done >&2', '/srv/site/dist/client', () => undefined)).toEqual(['to /srv/site/dist/client/', 'done']);
    expect(lines).toEqual(['Publishing /srv/site/dist/client: echo uploading "$PUBLISH_DIR"', '  uploading /srv/site/dist/client']);
  });

  it('runs after the swap, and the run log keeps its output', async () => {
    const accounts = await testAccounts();
    try {
      const runLog = new RunLog(accounts.database.db);
      const summary = await runDaily({
        source: join(site.work, 'source'),
        archiveDir: site.archiveDir,
        distDir: site.distDir,
        universeFile: site.universeFile,
        companyInfoFile: site.companyInfoFile,
        shareImageCache: join(site.work, 'share-images'),
        siteName: 'C-Score Signals',
        force: true,
        // The swap happened before it runs: the folder it is given holds the new build.
        publishCommand: 'test -f "$PUBLISH_DIR/index.html" && echo "uploaded 3 files to signals-pages"',
        runLog: { log: runLog, trigger: 'cli' },
      });
      expect(summary.status).toBe('published');
      expect(summary.published).toEqual(['uploaded 3 files to signals-pages']);
      const [entry] = await runLog.recent(1);
      expect(entry).toMatchObject({ outcome: 'published', notes: { published: ['uploaded 3 files to signals-pages'] } });
    } finally {
      await accounts.dispose();
    }
  });

  it('failing, makes `npm run daily` exit 1 saying the site is built but not published, with its output, in the run log too', async () => {
    const host = join(site.work, 'failing-host');
    await mkdir(host);
    const job = startScript('scripts/daily.ts', {
      SIGNALS_SOURCE: join(site.work, 'source'),
      ARCHIVE_DIR: join(host, 'archive'),
      DIST_DIR: join(host, 'dist'),
      SHARE_IMAGE_CACHE: join(host, 'share-images'),
      DATABASE_FILE: join(host, 'app.db'),
      DATABASE_URL: '',
      PUBLISH_COMMAND: 'echo "rsync: connection refused (111)" >&2; exit 23',
    });
    expect(await job.exited, job.output()).toBe(1);
    const client = join(host, 'dist', 'client');
    expect(job.output()).toContain(
      `The site is built and live in ${client} but not published: PUBLISH_COMMAND exited with 23. Fix the command, then run it by hand or run "npm run daily -- --force".\n  rsync: connection refused (111)`,
    );
    expect((await stat(join(client, 'index.html'))).isFile()).toBe(true);
    const database = openDatabase({ url: null, file: join(host, 'app.db') });
    try {
      const [entry] = await new RunLog(database.db).recent(1);
      expect(entry!.outcome).toBe('refused');
      expect(entry!.messages).toContain('rsync: connection refused (111)');
    } finally {
      await database.close();
    }
  });
});

describe('the systemd units', () => {
  it('pass systemd-analyze verify, with the timer on weekdays at 08:00 New York time and Persistent', async () => {
    const units = join(site.work, 'units');
    await mkdir(units);
    // verify checks that ExecStart's program exists: point it at this checkout's node, as an install would.
    for (const name of ['c-score-signals-api@.service', 'c-score-signals-daily.service', 'c-score-signals-daily.timer']) {
      const text = (await readFile(join(ROOT, 'deploy/systemd', name), 'utf8')).replaceAll('/srv/c-score-signals', ROOT);
      await writeFile(join(units, name), text);
    }
    await copyFile(join(units, 'c-score-signals-api@.service'), join(units, 'c-score-signals-api@4321.service'));
    const { stderr } = await run('systemd-analyze', ['verify', '--man=no', join(units, 'c-score-signals-api@4321.service'), join(units, 'c-score-signals-daily.service'), join(units, 'c-score-signals-daily.timer')], {
      env: { ...process.env, SYSTEMD_LOG_LEVEL: 'warning' },
    }).catch((error: { stderr: string; code: number }) => {
      throw new Error(`systemd-analyze verify refused the units (exit ${error.code}):\n${error.stderr}`);
    });
    // Lines about the host (no systemd running here, a missing user or env file) are not about the units.
    const problems = stderr.split('\n').filter((line) => line.trim() !== '' && !/Failed to connect|System has not been booted|No such file or directory|user|group|EnvironmentFile|Cannot add dependency job|ignoring/i.test(line));
    expect(problems).toEqual([]);
    const timer = await readFile(join(ROOT, 'deploy/systemd/c-score-signals-daily.timer'), 'utf8');
    expect(timer).toMatch(/^OnCalendar=Mon\.\.Fri \*-\*-\* 08:00:00 America\/New_York$/m);
    expect(timer).toMatch(/^Persistent=true$/m);
    const { stdout } = await run('systemd-analyze', ['calendar', 'Mon..Fri *-*-* 08:00:00 America/New_York', '--iterations', '5']);
    expect(stdout).toMatch(/Normalized form: Mon\.\.Fri \*-\*-\* 08:00:00 America\/New_York/);
  });
});
