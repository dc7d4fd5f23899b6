/**
 * Copy that matches the product, on a small report the daily job builds twice: each archive file keeps the time it was
 * archived across the rebuild, Reversals & Exits counts what it lists, and no built page glues two words together.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { readArchive } from '../../src/storage/archive';
import { dailyIn } from '../fixtures/daily';
import { gluedSpots, visibleText } from '../fixtures/visible-text';

const HEADER = 'Ticker,Company Name,Report Date,C-Score,Yesterday C-Score,Delta Score,Accuracy Score,Market Score,Relevance Score,Avg. C-Score L7D,Avg. C-Score L14D,Count L7D with Signal,Count L14D with Signal,Top Ticker?';
const FIRST = ['2026-11-13', '2026-11-16', '2026-11-17'];
const LATER = ['2026-11-18', '2026-11-19'];
// AAPL exits twice (Nov 16 and Nov 18), XOM reverses once (Nov 16), MSFT never qualifies: 3 changes of 2 stocks.
const SCORES: Record<string, number[]> = { AAPL: [70, 10, 70, 10, 10], XOM: [70, -70, -70, -70, -70], MSFT: [10, 12, 14, 15, 16] };
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil' };
const T1 = '2026-11-17T15:04:00.000Z';
const T2 = '2026-11-19T16:41:00.000Z';

let work: string;
let daily: DailyConfig;
const page = (path: string) => readFile(join(daily.distDir, 'client', path, 'index.html'), 'utf8');

async function writeDay(index: number, date: string): Promise<void> {
  const rows = Object.entries(SCORES).map(([t, s]) => `${t},${NAMES[t]},${date},${s[index]},0,1,2,3,4,5,6,0,0,FALSE`);
  await writeFile(join(work, 'source', `signals-${date}.csv`), [HEADER, ...rows].join('\n'));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'trust-copy-'));
  await mkdir(join(work, 'source'));
  for (const [i, date] of FIRST.entries()) await writeDay(i, date);
  await runDaily(dailyIn(work, { now: () => Date.parse(T1) }));
  for (const [i, date] of LATER.entries()) await writeDay(FIRST.length + i, date);
  daily = dailyIn(work, { now: () => Date.parse(T2), force: true });
  await runDaily(daily);
}, 300_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the archive keeps each file\'s time', () => {
  it('is when the file was archived, kept across the rebuild, not the build\'s', async () => {
    const files = await readArchive(daily.archiveDir);
    const at = Object.fromEntries(files.map((f) => [f.fileName, f.archivedAt]));
    expect(at).toEqual({
      'signals-2026-11-13.csv': T1,
      'signals-2026-11-16.csv': T1,
      'signals-2026-11-17.csv': T1,
      'signals-2026-11-18.csv': T2,
      'signals-2026-11-19.csv': T2,
    });
    const text = visibleText(await page('archives'));
    expect(text).toMatch(/Nov 19, 2026\s*3 signals · uploaded Nov 19, 2026, 4:41 PM UTC/);
    expect(text).toMatch(/Nov 13, 2026\s*3 signals · uploaded Nov 17, 2026, 3:04 PM UTC/);
  });
});

describe('Reversals & Exits counts what it lists', () => {
  it('the filter bar counts changes, one a row, and the sections add up to it', async () => {
    const html = await page('reversals-exits');
    const rows = (id: string) => (new RegExp(`<table id="${id}"[\\s\\S]*?</table>`).exec(html)![0].match(/<tr data-t=/g) ?? []).length;
    expect(rows('reversals-table')).toBe(1);
    expect(rows('exits-table')).toBe(2);
    const text = visibleText(html);
    expect(text).toContain('Reversals (1)');
    expect(text).toContain('Exits (2)');
    expect(html).toContain('<p class="filter-count" aria-live="polite" data-count="changes">3 changes</p>');
    expect(text).toContain('The count is of changes, one a row: 3 changes of 2 stocks, since a stock can exit, qualify again and exit again.');
  });
});

describe('no built page glues two words together', () => {
  it('finds no "close.Download", "them.Returns" or "-72.60;5d" kind of glue in any page\'s text', async () => {
    const root = join(daily.distDir, 'client');
    const pages = (await readdir(root, { recursive: true })).filter((p) => p.endsWith('index.html'));
    expect(pages.length).toBeGreaterThan(20);
    const glued: string[] = [];
    // A ticker's dot (BRK.B) and a capital's abbreviation (U.S.) are not glue; lower-case before the mark is.
    for (const path of pages) for (const spot of gluedSpots(visibleText(await readFile(join(root, path), 'utf8')), /^$/)) glued.push(`${path}: ${spot}`);
    expect(glued).toEqual([]);
  });
});
