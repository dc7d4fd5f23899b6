/**
 * The data gates of `npm run daily`, their `--accept` override
 * (recorded in the summary), and `npm run archive -- withdraw FILE`. The archive is seeded through the real intake;
 * the refusals run the real command line and change nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptNewFiles } from '../../src/ingest/intake';
import { newYorkDate } from '../../src/lib/domain/market-data/calendar';
import { nextTradingDay } from '../../src/lib/domain/operator/gates';
import { commitToArchive } from '../../src/storage/archive';
import { openDatabase } from '../../src/storage/db';
import { RunLog } from '../../src/storage/run-log';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const TICKERS = Array.from({ length: 25 }, (_, i) => `T${String.fromCharCode(65 + i)}`);

function report(date: string, tickers: readonly string[]): string {
  return exportCsv(tickers.map((t, i) => exportRow(t, `${t} Corp`, date, (i * 7) % 100, '0,1,50,2,40,0,0,1,2,FALSE')));
}

function run(script: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSX, script, ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Command lines of the running processes that name `dir` (an `astro build` into a staging folder under it). */
async function processesNaming(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(dir)) found.push(command.replaceAll('\0', ' '));
  }
  return found;
}

let work: string;
let env: Record<string, string>;
let archiveIndex: () => Promise<string>;

/** A source folder holding the given files. */
async function source(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  await writeExports(dir, files);
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'gates-'));
  const archiveDir = join(work, 'archive');
  const seed = await source('seed', { 'signals-2026-11-19.csv': report('2026-11-19', TICKERS), 'signals-2026-11-20.csv': report('2026-11-20', TICKERS) });
  const intake = await acceptNewFiles(archiveDir, seed, () => undefined);
  await commitToArchive(archiveDir, [], intake.added);
  env = { ARCHIVE_DIR: archiveDir, DIST_DIR: join(work, 'dist'), SITE_URL: 'https://signals.example', COMPANY_INFO_FILE: join(work, 'companies.json'), DATABASE_FILE: join(work, 'app.db'), SHARE_IMAGE_CACHE: join(work, 'share-images') };
  archiveIndex = () => readFile(join(archiveDir, 'index.json'), 'utf8');
});

afterAll(() => rm(work, { recursive: true, force: true }));

describe('the data gates of npm run daily', { timeout: 90_000 }, () => {
  it('refuses a report dated after the next trading day in New York, naming the file and the gate', async () => {
    const before = await archiveIndex();
    const result = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: await source('future', { 'signals-2099.csv': report('2099-01-01', TICKERS.slice(0, 3)) }) });
    expect(result.code).toBe(1);
    const nextDay = nextTradingDay(newYorkDate(Date.now()));
    // Its 3 tickers against 25 are held by a second gate: both are listed.
    expect(result.stderr).toContain('Stopped by 2 data gate(s); nothing was archived or published, the site stays as it was:');
    expect(result.stderr).toContain(
      `signals-2099.csv: refused by the gate future-date: its report date 2099-01-01 is after the next trading day in New York (${nextDay}). Fix the date at the source; to publish it as it is, run again with --accept future-date.`,
    );
    expect(await archiveIndex()).toBe(before);
    // `astro build` starts before the gates are checked (it bundles meanwhile): the refusal stops it and removes its
    // staging folder, rather than leaving it waiting for site data that never comes.
    expect(await processesNaming(work)).toEqual([]);
    expect((await readdir(work)).filter((name) => name.includes('staging'))).toEqual([]);
  });

  it('holds a latest report whose ticker count falls by more than 20% (25 -> 1)', async () => {
    const before = await archiveIndex();
    const result = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: await source('drop', { 'signals-2026-11-23.csv': report('2026-11-23', ['TA']) }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'signals-2026-11-23.csv: held by the gate ticker-drop: the latest report (2026-11-23) would have 1 ticker(s) against 25 on 2026-11-20, 96.0% fewer (the limit is 20%, GATE_TICKER_DROP_PERCENT). If the export is incomplete, export it again; to publish it as it is, run again with --accept ticker-drop.',
    );
    expect(await archiveIndex()).toBe(before);
    // The share is a setting, checked like every other.
    const wrong = await run('scripts/daily.ts', { ...env, GATE_TICKER_DROP_PERCENT: '101', SIGNALS_SOURCE: join(work, 'drop') });
    expect(wrong.stderr).toContain('GATE_TICKER_DROP_PERCENT="101": expected 100 or less');
  });

  it('holds a file that adds or replaces a date older than the latest, and says which', async () => {
    const before = await archiveIndex();
    const old = await source('old', { 'late.csv': [report('2026-11-17', TICKERS), ...report('2026-11-19', TICKERS).split('\n').slice(1)].join('\n') });
    const result = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: old });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'late.csv: held by the gate backdated: it adds 2026-11-17, replaces 2026-11-19, older than the latest report (2026-11-20). If it is not a correction, remove it from the source; to publish it as it is, run again with --accept backdated.',
    );
    expect(await archiveIndex()).toBe(before);
  });

  it('refuses a file past a size limit without reading it, naming the file, the limit and the value', async () => {
    const before = await archiveIndex();
    const result = await run('scripts/daily.ts', { ...env, EXPORT_MAX_BYTES: '100', SIGNALS_SOURCE: join(work, 'drop') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/signals-2026-11-23\.csv: The file is \d{3} bytes; the limit is 100 bytes a file \(EXPORT_MAX_BYTES\)\. Split the export into smaller files\./);
    expect(await archiveIndex()).toBe(before);
  });

  it('refuses an unknown gate name', async () => {
    const result = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: join(work, 'old') }, ['--accept', 'everything']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--accept everything: there is no such gate; the gates are future-date, ticker-drop, backdated.');
  });

  it('publishes a correction with --accept backdated, recording the override and the changed dates in the summary', async () => {
    const result = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: join(work, 'old') }, ['--accept', 'backdated']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  correction:   2026-11-17 added by late.csv');
    expect(result.stdout).toContain('  correction:   2026-11-19 replaced by late.csv');
    expect(result.stdout).toContain('  accepted:     --accept backdated for late.csv: held by the gate backdated: it adds 2026-11-17, replaces 2026-11-19');
    expect(result.stdout).toMatch(/report dates: 3 \(2026-11-17 to 2026-11-20\)/);
    // The run log (the accounts database's) keeps the override and the corrected dates with the run.
    const database = openDatabase({ url: null, file: env.DATABASE_FILE! });
    try {
      const [run] = await new RunLog(database.db).recent(1);
      expect(run).toMatchObject({ trigger: 'cli', outcome: 'published' });
      expect(run!.notes.corrections).toEqual(['2026-11-17 added by late.csv', '2026-11-19 replaced by late.csv']);
      expect(run!.notes.overrides).toEqual([expect.stringMatching(/^--accept backdated for late\.csv: held by the gate backdated: it adds 2026-11-17, replaces 2026-11-19/)]);
    } finally {
      await database.close();
    }
  });

  it('withdraws an archived file with npm run archive -- withdraw FILE and rebuilds from the rest', async () => {
    const result = await run('scripts/archive.ts', env, ['withdraw', 'late.csv']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  withdrawn:    late.csv, rebuilt from the rest of the archive');
    expect(result.stdout).toMatch(/report dates: 2 \(2026-11-19 to 2026-11-20\)/);
    const index = JSON.parse(await archiveIndex());
    expect(index.files.map((f: { fileName: string }) => f.fileName)).toEqual(['signals-2026-11-19.csv', 'signals-2026-11-20.csv']);
    expect(index.withdrawn).toEqual([expect.objectContaining({ fileName: 'late.csv' })]);
    const site = JSON.parse(await readFile(join(work, 'dist/data/site.json'), 'utf8'));
    expect(site.history.dates).toEqual(['2026-11-19', '2026-11-20']);
  });

  it('skips a withdrawn file at the source from then on, and names the archive\'s files for an unknown one', async () => {
    const again = await run('scripts/daily.ts', { ...env, SIGNALS_SOURCE: join(work, 'old') });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('up to date');
    expect(again.stdout).toMatch(/late\.csv: withdrawn from the archive on \d{4}-\d{2}-\d{2} \(as late\.csv\), so it is skipped; remove it from the source\./);

    const unknown = await run('scripts/archive.ts', env, ['withdraw', 'nothing.csv']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No archived file has the id or name "nothing.csv". The newest archived files are:');
  });
});
