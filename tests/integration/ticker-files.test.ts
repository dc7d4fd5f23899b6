/**
 * The daily job writes each ticker's badge and feeds itself, beside the build: the files on disk, what they say, the
 * entitlement rule for a locked top ticker, and the smoke check that names a missing one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { checkTickerFiles, tickerFilePaths, writeTickerFiles } from '../../src/ingest/ticker-files';
import { atomProblems10, jsonFeedProblems } from '../fixtures/feed-validators';
import { signalRecord } from '../fixtures/records';

const SETTINGS = { siteUrl: 'https://signals.example', siteName: 'C-Score Signals', paywall: false };
/** AAPL enters bullish on 11-18 and reverses to bearish on 11-20; MSFT never qualifies. */
const HISTORY: SignalHistory = {
  dates: ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'],
  latest: [signalRecord('AAPL', { cScore: -70, reportDate: '2026-11-20' }), signalRecord('MSFT', { cScore: 10, reportDate: '2026-11-20' })],
  scores: { AAPL: [50, 70, 68, -70], MSFT: [1, 2, 3, 10] },
};

let root: string | null = null;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = null;
});

describe('the badges and feeds the daily job writes', () => {
  it('writes three files a ticker, tells of each, and the smoke check finds them all', async () => {
    root = await mkdtemp(join(tmpdir(), 'ticker-files-'));
    const told: string[] = [];
    expect(await writeTickerFiles(root, HISTORY, SETTINGS, (path) => told.push(path))).toBe(6);
    expect(told.sort()).toEqual(['badge/AAPL.svg', 'badge/MSFT.svg', 'feeds/signal/AAPL.json', 'feeds/signal/AAPL.xml', 'feeds/signal/MSFT.json', 'feeds/signal/MSFT.xml']);
    expect(tickerFilePaths('AAPL')).toEqual({ badge: 'badge/AAPL.svg', atom: 'feeds/signal/AAPL.xml', json: 'feeds/signal/AAPL.json' });

    const badge = await readFile(join(root, 'badge/AAPL.svg'), 'utf8');
    expect(badge).toMatch(/^<svg[^>]*role="img"/);
    expect(badge).toContain('AAPL C-Score -70.00, Bearish, on Nov 20, 2026 (C-Score Signals)');
    const atom = await readFile(join(root, 'feeds/signal/AAPL.xml'), 'utf8');
    expect(atomProblems10(atom)).toEqual([]);
    expect(atom).toContain('C-Score Signals: AAPL signal changes');
    const json = JSON.parse(await readFile(join(root, 'feeds/signal/AAPL.json'), 'utf8')) as { version: string; items: { title: string }[] };
    expect(jsonFeedProblems(JSON.stringify(json))).toEqual([]);
    expect(json.items.map((item) => item.title)).toEqual(['AAPL reversed to bearish: C-Score 68.00 to -70.00', 'AAPL is a new bullish signal: C-Score 50.00 to 70.00']);
    expect(await checkTickerFiles(root, ['AAPL', 'MSFT'])).toEqual([]);

    // A ticker the files lack is named, each file of it.
    expect(await checkTickerFiles(root, ['AAPL', 'NVDA'])).toEqual(['missing file badge/NVDA.svg', 'missing file feeds/signal/NVDA.xml', 'missing file feeds/signal/NVDA.json']);
  });

  it('with the paywall on, a locked top ticker\'s badge and feeds show no score', async () => {
    root = await mkdtemp(join(tmpdir(), 'ticker-files-'));
    // Seven top tickers: the free slice shows five, the two beyond it are locked.
    const latest = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((ticker, i) => signalRecord(ticker, { cScore: -90 + i, reportDate: '2026-11-20', isTopTicker: true }));
    const history: SignalHistory = { dates: ['2026-11-19', '2026-11-20'], latest, scores: Object.fromEntries(latest.map((r) => [r.ticker, [0, r.cScore]])) };
    await writeTickerFiles(root, history, { ...SETTINGS, paywall: true }, () => undefined);
    const badges = await Promise.all(latest.map(async (r) => [r.ticker, await readFile(join(root!, `badge/${r.ticker}.svg`), 'utf8')] as const));
    const lockedBadges = badges.filter(([, svg]) => svg.includes('Top signal'));
    expect(lockedBadges.map(([ticker]) => ticker)).toEqual(['F', 'G']);
    for (const [ticker, svg] of lockedBadges) {
      expect(svg).not.toMatch(/Bullish|Bearish|Neutral/);
      const feed = await readFile(join(root, `feeds/signal/${ticker}.json`), 'utf8');
      expect(feed).not.toMatch(/C-Score -?\d/);
      expect(feed).toContain(`${ticker} is a top signal`);
    }
  });
});
