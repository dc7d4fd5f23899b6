/**
 * The daily job writes each ticker's badge, feeds and embeddable card itself, beside the build: the files on disk, what
 * they say, the entitlement rule for a locked top ticker, and the smoke check that names a missing one.
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

describe('the badges, feeds and cards the daily job writes', () => {
  it('writes four files a ticker, tells of each, and the smoke check finds them all', async () => {
    root = await mkdtemp(join(tmpdir(), 'ticker-files-'));
    const told: string[] = [];
    expect(await writeTickerFiles(root, HISTORY, SETTINGS, (path) => told.push(path))).toBe(8);
    expect(told.sort()).toEqual(['badge/AAPL.svg', 'badge/MSFT.svg', 'embed/AAPL/index.html', 'embed/MSFT/index.html', 'feeds/signal/AAPL.json', 'feeds/signal/AAPL.xml', 'feeds/signal/MSFT.json', 'feeds/signal/MSFT.xml']);
    expect(tickerFilePaths('AAPL')).toEqual({ badge: 'badge/AAPL.svg', atom: 'feeds/signal/AAPL.xml', json: 'feeds/signal/AAPL.json', embed: 'embed/AAPL/index.html' });

    // The card: the day's score and word, the spark of the history's scores, the badge and the link to the stock page.
    const card = await readFile(join(root, 'embed/AAPL/index.html'), 'utf8');
    expect(card).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(card).toContain('<p class="score bearish">-70.00 <span>Bearish</span></p>');
    expect(card).toContain('<polyline points="0,9 40,5.4 80,5.8 120,30.6"></polyline>');
    expect(card).toContain('<img src="/badge/AAPL.svg" alt="AAPL C-Score -70.00, Bearish, on Nov 20, 2026 (C-Score Signals)" height="20">');
    expect(card).toContain('<a href="https://signals.example/signal/AAPL" target="_blank" rel="noopener">C-Score Signals: AAPL');
    expect(card).toContain('<link rel="canonical" href="https://signals.example/signal/AAPL">');

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
    expect(await checkTickerFiles(root, ['AAPL', 'NVDA'])).toEqual(['missing file badge/NVDA.svg', 'missing file feeds/signal/NVDA.xml', 'missing file feeds/signal/NVDA.json', 'missing file embed/NVDA/index.html']);
  });

  it('with the paywall on, a locked top ticker\'s badge, feeds and card show no score', async () => {
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
      const card = await readFile(join(root, `embed/${ticker}/index.html`), 'utf8');
      expect(card).toContain('<p class="score locked">Top signal</p>');
      expect(card).not.toMatch(/Bullish|Bearish|Neutral|<polyline|-8\d\.\d\d/);
    }
    // An open ticker's card keeps its score.
    expect(await readFile(join(root, 'embed/A/index.html'), 'utf8')).toContain('-90.00 <span>Bearish</span>');
  });
});
