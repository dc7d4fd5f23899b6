/**
 * A locked top ticker (PAYWALL=on, anonymous or Free) shows as locked everywhere: "Top signal", no score, no
 * direction. The domain functions behind the brief, the chat's tools, the feeds and the share image, each with the
 * one rule of entitlements.ts.
 */
import { describe, expect, it } from 'vitest';
import { dailyFacts, factsText } from '../../src/lib/domain/ai/facts';
import { shareImageText } from '../../src/lib/domain/signals/detail';
import { freeSlice, LOCKED_SIGNAL_LABEL, lockedTickersFor } from '../../src/lib/domain/accounts/entitlements';
import { feedItemText } from '../../src/lib/domain/alerts/feeds';
import type { SignalEvent } from '../../src/lib/domain/alerts/alerts';
import type { SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';
import { chatTools } from '../../src/server/ai/tools';
import { signalRecord } from '../fixtures/records';

const dates = ['2026-11-16', '2026-11-17', '2026-11-18'];
function history(rows: Record<string, { scores: number[]; sector: string }>): SignalHistory {
  const latest: SignalRecord[] = Object.entries(rows).map(([ticker, row]) =>
    signalRecord(ticker, { cScore: row.scores.at(-1)!, yesterdayCScore: row.scores.at(-2)!, reportDate: '2026-11-18', sector: row.sector, subIndustry: row.sector }),
  );
  return { dates, latest, scores: Object.fromEntries(Object.entries(rows).map(([t, r]) => [t, r.scores])) };
}

const day = history({
  XOM: { scores: [50, 60, 80.25], sector: 'Energy' },
  AAPL: { scores: [70, 66, 10], sector: 'Information Technology' },
  MSFT: { scores: [-80, -70, -90], sector: 'Information Technology' },
  NVDA: { scores: [70, 80, -70.5], sector: 'Information Technology' },
});
const LOCKED = new Set(['NVDA']);

describe('the one rule', () => {
  it('locks the top tickers beyond the free 5 for anonymous and Free with PAYWALL=on, none for Pro or without it', () => {
    const records = Array.from({ length: 7 }, (_, i) => signalRecord(`T${i}`, { cScore: 90 - i, isTopTicker: true }));
    const slice = freeSlice(records);
    expect([...lockedTickersFor(slice, { paywall: true, isPro: false })]).toEqual(['T5', 'T6']);
    expect(lockedTickersFor(slice, { paywall: true, isPro: true }).size).toBe(0);
    expect(lockedTickersFor(slice, { paywall: false, isPro: false }).size).toBe(0);
  });
});

describe('the daily brief', () => {
  it('names a locked ticker nowhere: not its reversal today (its direction), not in a sector figure', () => {
    const text = factsText(dailyFacts(day, '2026-11-18', LOCKED));
    expect(text).not.toContain('NVDA');
    expect(text).toContain('1 stock exited a signal in this report and 0 reversed direction.');
    // Information Technology without NVDA: AAPL 10 and MSFT -90 average -40 (with NVDA it would be -50.17).
    expect(text).toContain('Information Technology (2 stocks): the average C-Score is -40.00');
  });
});

describe("the chat's tools", () => {
  const options = { toolCallId: 'call-1', messages: [] };
  const tools = chatTools(day, '2026-11-18', LOCKED);

  it('listQualified places a locked ticker in no direction', async () => {
    const bearish = (await tools.listQualified.execute!({ direction: 'bearish' }, options)) as { count: number; stocks: { ticker: string }[] };
    expect(bearish.stocks.map((s) => s.ticker)).toEqual(['MSFT']);
    expect(bearish.count).toBe(1);
    // Pro: the locked ticker is there.
    const pro = (await chatTools(day, '2026-11-18', new Set()).listQualified.execute!({ direction: 'bearish' }, options)) as { stocks: { ticker: string }[] };
    expect(pro.stocks.map((s) => s.ticker)).toEqual(['MSFT', 'NVDA']);
  });

  it('findTicker, readTicker and compareTickers say "Top signal", no score, no direction', async () => {
    const found = (await tools.findTicker.execute!({ query: 'NVDA' }, options)) as { matches: object[] };
    const read = (await tools.readTicker.execute!({ ticker: 'NVDA' }, options)) as object;
    const compared = (await tools.compareTickers.execute!({ tickers: ['NVDA', 'MSFT'] }, options)) as { stocks: object[] };
    for (const answer of [found.matches[0]!, read, compared.stocks[0]!]) {
      expect(answer).toMatchObject({ ticker: 'NVDA', signal: LOCKED_SIGNAL_LABEL });
      expect(answer).not.toHaveProperty('cScore');
      expect(JSON.stringify(answer)).not.toMatch(/70\.5|bearish|bullish/i);
    }
  });
});

describe('feeds and share images', () => {
  const event: SignalEvent = { ticker: 'NVDA', reportDate: '2026-11-18', kind: 'reversed', direction: 'bearish', scoreBefore: 80, scoreAfter: -70.5, borderline: false };

  it('a locked event of the latest report says only that the ticker is a top signal', () => {
    expect(feedItemText(event, { lockedSignal: () => true })).toBe('NVDA is a top signal');
    expect(feedItemText(event, { showScores: () => false })).toBe('NVDA reversed to bearish');
    expect(feedItemText(event, {})).toBe('NVDA reversed to bearish: C-Score 80.00 to -70.50');
  });

  it('a locked share image says "Top signal · Pro": no score, no direction, never "Neutral"', () => {
    const text = shareImageText({ ticker: 'NVDA', companyName: 'Nvidia', cScore: null, reportDate: '2026-11-18' }, 'C-Score Signals');
    expect(text.classification).toBe('Top signal · Pro');
    expect(text.score).toBe('★');
  });
});
