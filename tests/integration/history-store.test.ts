/**
 * The daily job keeps what parsing each archived file produced, by the file's hash, and parses only new
 * files; a stale or truncated entry is made again from the archive, and the site comes out the same.
 */
import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { dailyIn } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const day = (date: string, scores: [string, number][]) =>
  exportCsv(scores.map(([ticker, score]) => exportRow(ticker, `${ticker} Inc.`, date, score)));

let work: string;
let daily: DailyConfig;

/** The site data's history and latest records: what every page and file of the build is made from. */
async function builtHistory(): Promise<unknown> {
  const site = JSON.parse(await readFile(join(work, 'dist/data/site.json'), 'utf8'));
  return { history: site.history, files: site.files.map((f: { fileName: string }) => f.fileName) };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'history-store-'));
  await writeExports(join(work, 'source'), {
    'signals-2026-11-18.csv': day('2026-11-18', [['AAPL', 70], ['MSFT', -40], ['KO', 10]]),
    'signals-2026-11-19.csv': day('2026-11-19', [['AAPL', 72.5], ['MSFT', -66], ['KO', 12]]),
    'signals-2026-11-20.csv': day('2026-11-20', [['AAPL', 80], ['MSFT', -90], ['KO', 0.5]]),
  });
  daily = dailyIn(work, { historyStore: join(work, 'history'), now: () => Date.parse('2026-11-20T15:00:00Z') });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the history store', { timeout: 120_000 }, () => {
  let fresh: unknown;

  it('keeps each new file\'s scores as it is archived, and the next run reads them back instead of parsing', async () => {
    const first = await runDaily(daily);
    expect(first.status).toBe('published');
    expect(first.store).toEqual({ assembled: 0, reused: 0, made: 3, rebuilt: 0 });
    expect((await readdir(join(work, 'history'))).filter((name) => name.endsWith('.json'))).toHaveLength(3);
    fresh = await builtHistory();
    expect(fresh).toMatchObject({ history: { dates: ['2026-11-18', '2026-11-19', '2026-11-20'], scores: { AAPL: [70, 72.5, 80], MSFT: [-40, -66, -90] } } });

    // The next run reads the assembled history in one piece: no entry is read, no file parsed.
    const again = await runDaily({ ...daily, force: true });
    expect(again.store).toEqual({ assembled: 3, reused: 0, made: 0, rebuilt: 0 });
    expect(again.rows).toBe(9);
    expect(await builtHistory()).toEqual(fresh);
  });

  it('assembles the history from the file entries when the assembled history is stale or truncated, and keeps it again', async () => {
    const assembled = join(work, 'history', 'assembled.bin');
    const bytes = await readFile(assembled);
    // Another version of the parser: its version string, same length, changed in the header.
    const version = /"version":"([0-9a-f]+)"/.exec(bytes.toString('latin1'))![1]!;
    await writeFile(assembled, Buffer.from(bytes.toString('latin1').replace(version, 'f'.repeat(version.length)), 'latin1'));
    const stale = await runDaily({ ...daily, force: true });
    expect(stale.store).toEqual({ assembled: 0, reused: 3, made: 0, rebuilt: 0 });
    expect(await builtHistory()).toEqual(fresh);

    await writeFile(assembled, (await readFile(assembled)).subarray(0, bytes.length - 5));
    const truncated = await runDaily({ ...daily, force: true });
    expect(truncated.store).toEqual({ assembled: 0, reused: 3, made: 0, rebuilt: 0 });
    expect(await builtHistory()).toEqual(fresh);
    expect((await readFile(assembled)).length).toBe(bytes.length);
  });

  it('makes an entry of another parser version, or a truncated one, again from the archive: the site comes out the same', async () => {
    const entries = (await readdir(join(work, 'history'))).filter((name) => name.endsWith('.json')).sort();
    const stale = join(work, 'history', entries[0]!);
    const entry = JSON.parse(await readFile(stale, 'utf8'));
    // Another version of the parser: the scores it kept might read differently now.
    await writeFile(stale, JSON.stringify({ ...entry, version: 'another-parser', scores: { ...entry.scores, dates: [] } }));
    const truncated = join(work, 'history', entries[1]!);
    const text = await readFile(truncated, 'utf8');
    await writeFile(truncated, text.slice(0, text.length / 2));

    // The assembled history goes too: the run assembles the history from the entries.
    await rm(join(work, 'history', 'assembled.bin'));

    const repaired = await runDaily({ ...daily, force: true });
    expect(repaired.store).toEqual({ assembled: 0, reused: 1, made: 2, rebuilt: 2 });
    expect(await builtHistory()).toEqual(fresh);
    expect(JSON.parse(await readFile(truncated, 'utf8')).scores.rows).toBe(3);

    // A store that is gone altogether is made again the same way.
    await rm(join(work, 'history'), { recursive: true });
    const rebuilt = await runDaily({ ...daily, force: true });
    expect(rebuilt.store).toEqual({ assembled: 0, reused: 0, made: 3, rebuilt: 0 });
    expect(await builtHistory()).toEqual(fresh);
  });
});

/** Every file under `dir` with the digest of its bytes, by path. */
async function tree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const e of entries.filter((e) => e.isFile())) {
    const path = join(e.parentPath, e.name);
    files[path.slice(dir.length)] = createHash('sha256').update(await readFile(path)).digest('hex');
  }
  return files;
}

describe('the same archive, built in one run or day by day', { timeout: 180_000 }, () => {
  it('gives a byte-identical site (dist/client)', async () => {
    const stepwise = join(work, 'stepwise');
    const settings = dailyIn(stepwise, { historyStore: join(stepwise, 'history'), now: daily.now });
    await mkdir(settings.source, { recursive: true });
    const assembledFrom: number[] = [];
    for (const name of ['signals-2026-11-18.csv', 'signals-2026-11-19.csv', 'signals-2026-11-20.csv']) {
      await copyFile(join(work, 'source', name), join(settings.source, name));
      const run = await runDaily(settings);
      expect(run.status).toBe('published');
      assembledFrom.push(run.store!.assembled);
    }
    // Each day was added to the assembled history the run before had kept.
    expect(assembledFrom).toEqual([0, 1, 2]);
    // The same archive (its files and their upload times), built at once: no store, no earlier build, nothing new.
    const once = join(work, 'once');
    await cp(settings.archiveDir, join(once, 'archive'), { recursive: true });
    await mkdir(join(once, 'source'));
    const single = await runDaily(dailyIn(once, { now: daily.now, force: true }));
    expect(single).toMatchObject({ status: 'published', reportDates: ['2026-11-18', '2026-11-19', '2026-11-20'] });
    const [built, stepped] = [await tree(join(once, 'dist/client')), await tree(join(stepwise, 'dist/client'))];
    // One exception: a build with no published build before it makes an earlier report's dated file from the C-Scores
    // the history keeps, while the day-by-day build kept each day's whole report from when it was the latest.
    const earlierDated = (path: string) => /^\/api\/reports\/(index\.json|2026-11-1[89]\.json)/.test(path);
    const without = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => !earlierDated(path)));
    expect(without(built)).toEqual(without(stepped));
    expect(Object.keys(built).filter(earlierDated).sort()).toEqual(Object.keys(stepped).filter(earlierDated).sort());
    expect(built['/api/reports/2026-11-20.json']).toBe(stepped['/api/reports/2026-11-20.json']);
  });
});
