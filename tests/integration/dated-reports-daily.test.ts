/**
 * The dated daily files through the real daily job: a build over two days writes both files; the next day's run
 * writes the new day and keeps the first day's file (and its compressed copy) as it was, not written again.
 */
import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { DatedReportFileSchema, DatedReportIndexSchema } from '../../src/lib/domain/report/dated-report';
import { dailyIn } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

// Enough tickers that a day's file passes the compression threshold, so its .gz and .br are made and kept too.
const TICKERS = ['AAPL', 'MSFT', 'XOM', 'NVDA', 'AMZN', 'GOOGL', 'META', 'JPM', 'JNJ', 'PG', 'KO', 'PEP'];
const dayCsv = (date: string, shift: number) => exportCsv(TICKERS.map((ticker, i) => exportRow(ticker, `${ticker} Inc.`, date, ((i * 17 + shift) % 180) - 90)));

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dated-daily-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('the dated daily files of the daily job', { timeout: 180_000 }, () => {
  it('a build over two days writes both files; the next day writes the third and does not rewrite the first', async () => {
    const source = join(work, 'source');
    await writeExports(source, { 'signals-2026-11-18.csv': dayCsv('2026-11-18', 0), 'signals-2026-11-19.csv': dayCsv('2026-11-19', 5) });
    const daily = dailyIn(work);
    await runDaily(daily);
    const reports = join(daily.distDir, 'client/api/reports');
    const first = DatedReportFileSchema.parse(JSON.parse(await readFile(join(reports, '2026-11-18.json'), 'utf8')));
    expect(first).toMatchObject({ reportDate: '2026-11-18', kind: 'scores' });
    expect(first.rows).toHaveLength(TICKERS.length);
    const second = DatedReportFileSchema.parse(JSON.parse(await readFile(join(reports, '2026-11-19.json'), 'utf8')));
    expect(second).toMatchObject({ reportDate: '2026-11-19', kind: 'records' });
    const before = await stat(join(reports, '2026-11-19.json'));
    const beforeGzip = await stat(join(reports, '2026-11-19.json.gz'));

    await writeExports(source, { 'signals-2026-11-20.csv': dayCsv('2026-11-20', 9) });
    await runDaily(daily);
    const after = await stat(join(reports, '2026-11-19.json'));
    // The same file: linked from the published build, not written again (same inode, same modification time).
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect((await stat(join(reports, '2026-11-19.json.gz'))).ino).toBe(beforeGzip.ino);
    const third = DatedReportFileSchema.parse(JSON.parse(await readFile(join(reports, '2026-11-20.json'), 'utf8')));
    expect(third).toMatchObject({ reportDate: '2026-11-20', kind: 'records' });
    const index = DatedReportIndexSchema.parse(JSON.parse(await readFile(join(reports, 'index.json'), 'utf8')));
    expect(index.reports.map((entry) => `${entry.reportDate} ${entry.kind}`)).toEqual(['2026-11-18 scores', '2026-11-19 records', '2026-11-20 records']);
  });
});
