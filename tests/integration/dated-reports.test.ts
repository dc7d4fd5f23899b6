/**
 * The dated daily files, `/api/reports/{date}.json`: a build writes one per archived report, and the next day's build
 * writes only the new day, keeping (hard-linking) the published files instead of writing them again.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDatedReports } from '../../src/ingest/dated-reports';
import { buildHistory } from '../../src/ingest/history';
import { assembleHistory, fileScores } from '../../src/ingest/history-store';
import { parseExport } from '../../src/ingest/parse';
import { DatedReportFileSchema, DatedReportIndexSchema, RECORD_COLUMNS } from '../../src/lib/domain/report/dated-report';
import type { ArchivedFile, SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';
import { SAMPLE_EXPORTS } from '../fixtures/published-report';

let root: string;
let days: { name: string; id: string; records: SignalRecord[] }[];

/** The history of the first `count` sample days, and their archived files as the archive lists them. */
function historyOf(count: number): { history: SignalHistory; files: ArchivedFile[] } {
  const chosen = days.slice(0, count);
  const { history } = buildHistory(assembleHistory(chosen.map((d) => ({ sha256: '', scores: fileScores(d.name, d.records) }))), chosen.at(-1)!.records, []);
  const files = chosen.map((d): ArchivedFile => ({
    id: d.id,
    sha256: d.id.repeat(4),
    fileName: d.name,
    kind: 'csv',
    bytes: 1,
    archivedAt: '2026-11-20T00:00:00.000Z',
    reportDates: [d.records[0]!.reportDate],
    rowCount: d.records.length,
    sheets: [],
  }));
  return { history, files };
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dated-reports-'));
  const names = (await readdir(SAMPLE_EXPORTS)).filter((name) => name.endsWith('.csv')).sort().slice(-3);
  days = [];
  for (const [i, name] of names.entries()) {
    days.push({ name, id: `${i}`.padStart(16, 'a'), records: (await parseExport(name, await readFile(join(SAMPLE_EXPORTS, name)))).records });
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the dated daily files', () => {
  it('a build writes a file per report; the next day writes only the new day and keeps the first file untouched', async () => {
    const first = join(root, 'first');
    const day1 = historyOf(2);
    const told: string[] = [];
    const one = await writeDatedReports(first, day1.history, day1.files, { paywall: false, previousDir: null, onWritten: (path) => told.push(path) });
    expect(one).toMatchObject({ written: 2, kept: 0 });
    const [older, latest] = day1.history.dates as [string, string];
    expect(told).toEqual([`api/reports/${older}.json`, `api/reports/${latest}.json`, 'api/reports/index.json']);

    const latestFile = DatedReportFileSchema.parse(await readJson(join(first, `api/reports/${latest}.json`)));
    expect(latestFile).toMatchObject({ reportDate: latest, kind: 'records', view: 'public', columns: RECORD_COLUMNS });
    expect(latestFile.rows).toHaveLength(day1.history.latest.length);
    const aapl = latestFile.rows.find((row) => row[0] === 'AAPL')!;
    const record = day1.history.latest.find((r) => r.ticker === 'AAPL')!;
    expect(Object.fromEntries(latestFile.columns.map((c, i) => [c, aapl[i]])).cScore).toBe(record.cScore);

    const olderFile = DatedReportFileSchema.parse(await readJson(join(first, `api/reports/${older}.json`)));
    expect(olderFile).toMatchObject({ reportDate: older, kind: 'scores', columns: ['ticker', 'cScore'] });
    expect(olderFile.rows.find((row) => row[0] === 'AAPL')?.[1]).toBe(day1.history.scores.AAPL![0]);

    // A compressed copy, as the daily job leaves beside it, is kept with the file.
    await writeFile(join(first, `api/reports/${latest}.json.gz`), 'gzip bytes');
    const before = await stat(join(first, `api/reports/${latest}.json`));

    // The next morning: a fresh folder, the published build as the previous one.
    const second = join(root, 'second');
    const day2 = historyOf(3);
    const told2: string[] = [];
    const two = await writeDatedReports(second, day2.history, day2.files, { paywall: false, previousDir: first, onWritten: (path) => told2.push(path) });
    const newest = day2.history.dates.at(-1)!;
    expect(two).toMatchObject({ written: 1, kept: 2 });
    expect(told2).toEqual([`api/reports/${newest}.json`, 'api/reports/index.json']);
    expect(two.keptPaths).toContain(`api/reports/${latest}.json.gz`);
    // Not rewritten: the same file (inode) and bytes; the day it was the latest, it was written whole, and stays so.
    const after = await stat(join(second, `api/reports/${latest}.json`));
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(DatedReportFileSchema.parse(await readJson(join(second, `api/reports/${latest}.json`))).kind).toBe('records');
    const index = DatedReportIndexSchema.parse(await readJson(join(second, 'api/reports/index.json')));
    expect(index.reports.map((r) => [r.reportDate, r.kind])).toEqual([
      [older, 'scores'],
      [latest, 'records'],
      [newest, 'records'],
    ]);
    expect(index.reports.map((r) => r.path)).toEqual(day2.history.dates.map((d) => `/api/reports/${d}.json`));
  });

  it('writes a kept date again when its archived file changed (a corrected report)', async () => {
    const first = join(root, 'corrected-1');
    const day1 = historyOf(2);
    await writeDatedReports(first, day1.history, day1.files, { paywall: false, previousDir: null });
    const second = join(root, 'corrected-2');
    const day2 = historyOf(3);
    day2.files[0] = { ...day2.files[0]!, id: 'ffffffffffffffff' };
    const outcome = await writeDatedReports(second, day2.history, day2.files, { paywall: false, previousDir: first });
    expect(outcome).toMatchObject({ written: 2, kept: 1 });
  });

  it('with PAYWALL=on holds only what an anonymous visitor may see: the day\'s free rows, no earlier report', async () => {
    const dir = join(root, 'paywall');
    await mkdir(dir, { recursive: true });
    const day = historyOf(3);
    const outcome = await writeDatedReports(dir, day.history, day.files, { paywall: true, previousDir: null });
    expect(outcome).toMatchObject({ written: 1, kept: 0 });
    const file = DatedReportFileSchema.parse(await readJson(join(dir, `api/reports/${day.history.dates.at(-1)}.json`)));
    expect(file.view).toBe('free');
    expect(file.rows.length).toBeLessThan(day.history.latest.length);
    const index = DatedReportIndexSchema.parse(await readJson(join(dir, 'api/reports/index.json')));
    expect(index.reports).toHaveLength(1);
  });
});
