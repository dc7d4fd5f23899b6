/**
 * The threshold's words as the built site shows them at the default of 65: the daily job builds a small report and
 * every page that states the rule (lists, heatmap, track record, the Learn page's Markdown, the stock page's
 * explanation and guide) reads exactly as before the pages took the words from the one constant.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { dailyIn } from '../fixtures/daily';

const HEADER = 'Ticker,Company Name,Report Date,C-Score,Yesterday C-Score,Delta Score,Accuracy Score,Market Score,Relevance Score,Avg. C-Score L7D,Avg. C-Score L14D,Count L7D with Signal,Count L14D with Signal,Top Ticker?';
const DATES = ['2026-11-18', '2026-11-19', '2026-11-20'];
const SCORES: Record<string, number[]> = { AAPL: [50, 60, 70], MSFT: [10, 12, 14], XOM: [-60, -66, -70] };
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil' };

/** A page's text as a reader sees it: tags dropped, entities of the texts decoded, white space collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<script\b.*?<\/script>/gs, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the built pages state the threshold as the spec words it', () => {
  let work: string;
  let daily: DailyConfig;
  const page = async (path: string) => textOf(await readFile(join(daily.distDir, 'client', path, 'index.html'), 'utf8'));

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'threshold-site-'));
    await mkdir(join(work, 'source'));
    for (const [i, date] of DATES.entries()) {
      const rows = Object.entries(SCORES).map(([t, s]) => `${t},${NAMES[t]},${date},${s[i]},0,1,2,3,4,5,6,0,0,FALSE`);
      await writeFile(join(work, 'source', `signals-${date}.csv`), [HEADER, ...rows].join('\n'));
    }
    daily = dailyIn(work);
    await runDaily(daily);
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it.each([
    ['', 'market expectations: 65 or more is bullish, -65 or less bearish.'],
    ['', 'Bullish C-Score 65 or more'],
    ['', 'Bearish C-Score -65 or less'],
    ['', 'Bullish at a C-Score of 65 or more, bearish at -65 or less.'],
    ['heatmap', 'stocks at 65 or more (bullish) or -65 or less (bearish) are deep-coloured and outlined, the others light.'],
    ['currently-qualified', 'a C-Score of 65 or more (bullish) or -65 or less (bearish).'],
    ['recently-qualified', 'became qualified (a C-Score of 65 or more, or -65 or less) on one of the last 5 reports'],
    ['reversals-exits', 'qualified bullish (C-Score 65 or more) on one report and bearish (-65 or less) on a later one'],
    ['reversals-exits', 'back between -65 and 65 on the next.'],
    ['track-record', 'Every signal that qualified (|C-Score| 65 or more), the close'],
    ['learn', 'A C-Score of 65 or more is Bullish and -65 or less is Bearish; both qualify as signals. Anything between -65 and 65 is Neutral.'],
    ['signal/AAPL', 'AAPL shows strong positive momentum, with a C-Score of 65 or more.'],
    ['signal/XOM', 'XOM shows strong negative momentum, with a C-Score of -65 or less.'],
    ['signal/MSFT', 'MSFT has a C-Score between -65 and 65: no strong signal in either direction in the latest report.'],
    ['signal/MSFT', '65 to 100 : Bullish'],
    ['signal/MSFT', '-65 to 65 : Neutral'],
    ['signal/MSFT', '-100 to -65 : Bearish'],
  ])('/%s says "%s"', async (path, text) => {
    expect(await page(path)).toContain(text);
  });
});
