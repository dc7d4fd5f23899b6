/** /compare's domain: the address's ticker list, the notice for what it leaves out, rebasing to 100, the table row. */
import { describe, expect, it } from 'vitest';
import {
  COMPARE_MAX,
  compareHref,
  compareRow,
  compareWindow,
  firstSharedDay,
  parseCompareTickers,
  rebaseTo100,
  selectionNotice,
  withoutTicker,
  withTicker,
} from '../../src/lib/domain/signals/compare';
import { compareHitRate } from '../../src/lib/domain/signals/compare-data';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';
import type { LedgerRow } from '../../src/lib/domain/track-record/track-record';

describe('parseCompareTickers', () => {
  it('keeps the order given, upper-cases and de-duplicates', () => {
    expect(parseCompareTickers('nvda,AAPL, msft,aapl')).toEqual({ tickers: ['NVDA', 'AAPL', 'MSFT'], malformed: [], dropped: [] });
  });

  it('keeps the first 5 of 6 and names the sixth', () => {
    const s = parseCompareTickers('AAPL,MSFT,NVDA,AMZN,GOOGL,META');
    expect(COMPARE_MAX).toBe(5);
    expect(s.tickers).toEqual(['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL']);
    expect(s.dropped).toEqual(['META']);
    expect(selectionNotice(s)).toBe('A comparison shows at most 5 stocks: showing the first 5, left out META.');
  });

  it('names a malformed entry and skips empty ones; BRK.B and BF-B are tickers', () => {
    const s = parseCompareTickers('AAPL,,$$$, brk.b ,BF-B,TOOLONGTICKER1');
    expect(s.tickers).toEqual(['AAPL', 'BRK.B', 'BF-B']);
    expect(s.malformed).toEqual(['$$$', 'TOOLONGTICKER1']);
    expect(selectionNotice(s, ['ZZZZ'])).toBe('Not a ticker: "$$$", "TOOLONGTICKER1". Not in the latest report: ZZZZ.');
  });

  it('reads nothing from an absent or empty parameter', () => {
    expect(parseCompareTickers(null)).toEqual({ tickers: [], malformed: [], dropped: [] });
    expect(selectionNotice(parseCompareTickers(''))).toBeNull();
  });

  it('writes the address back in the same order', () => {
    expect(compareHref(['MSFT', 'AAPL'])).toBe('/compare?t=MSFT,AAPL');
    expect(compareHref([])).toBe('/compare');
    expect(parseCompareTickers(new URL(`http://x${compareHref(['BRK.B', 'AAPL'])}`).searchParams.get('t')).tickers).toEqual(['BRK.B', 'AAPL']);
  });

  it('adds at the end, never a sixth or a duplicate, and removes keeping the order', () => {
    expect(withTicker(['AAPL'], 'msft')).toEqual(['AAPL', 'MSFT']);
    expect(withTicker(['AAPL'], 'AAPL')).toEqual(['AAPL']);
    expect(withTicker(['A', 'B', 'C', 'D', 'E'], 'F')).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(withoutTicker(['A', 'B', 'C'], 'B')).toEqual(['A', 'C']);
  });
});

describe('rebaseTo100', () => {
  it('is 100 on the first shown day and each close over that day\'s close after it', () => {
    const closes = [
      { date: '2026-11-19', value: 50 },
      { date: '2026-11-20', value: 200 },
      { date: '2026-11-23', value: 210 },
      { date: '2026-11-24', value: 190.5 },
    ];
    expect(rebaseTo100(closes, '2026-11-20')).toEqual([
      { date: '2026-11-20', value: 100 },
      { date: '2026-11-23', value: 105 },
      { date: '2026-11-24', value: 95.25 },
    ]);
  });

  it('sorts, keeps one value a day and leaves out unusable closes', () => {
    const closes = [
      { date: '2026-11-24', value: 30 },
      { date: '2026-11-20', value: 0 },
      { date: '2026-11-21', value: 20 },
      { date: '2026-11-22', value: Number.NaN },
    ];
    expect(rebaseTo100(closes, '2026-11-20')).toEqual([
      { date: '2026-11-21', value: 100 },
      { date: '2026-11-24', value: 150 },
    ]);
    expect(rebaseTo100([], '2026-11-20')).toEqual([]);
  });

  it('starts every line on the latest of their first days', () => {
    expect(firstSharedDay([[{ date: '2026-11-02', value: 1 }], [{ date: '2026-11-04', value: 1 }, { date: '2026-11-03', value: 1 }], []])).toBe('2026-11-03');
    expect(firstSharedDay([])).toBeNull();
  });

  it('spans 31 calendar days ending on the report date, or today when that is earlier', () => {
    expect(compareWindow('2026-11-20', '2026-11-27')).toEqual({ from: '2026-10-21', to: '2026-11-20' });
    expect(compareWindow('2026-11-20', '2026-11-10')).toEqual({ from: '2026-10-11', to: '2026-11-10' });
  });
});

describe('compareRow', () => {
  it('shows the record\'s scores, its signal and the change vs yesterday', () => {
    const record: SignalRecord = {
      ticker: 'AAPL', companyName: 'Apple Inc.', cScore: 72, yesterdayCScore: 60, reportDate: '2026-11-20', isTopTicker: false,
      deltaScore: 12, accuracyScore: 55, marketScore: -4, relevanceScore: 81, avgCScoreL7D: 64.5, avgCScoreL14D: 58,
      countL7DWithSignal: 3, countL14DWithSignal: 5, sector: 'Information Technology',
    };
    expect(compareRow(record)).toMatchObject({ cScore: 72, signal: 'Bullish', direction: 'bullish', change: 12, delta: 12, market: -4, days7: 3, days14: 5, sector: 'Information Technology' });
    expect(compareRow({ ...record, cScore: -70, sector: undefined })).toMatchObject({ signal: 'Bearish', change: -130, sector: null });
  });

  it('reads the hit rate at 30 trading days from the ledger', () => {
    const row = (hit: boolean | null, status: 'closed' | 'open'): LedgerRow => ({
      ticker: 'AAPL', date: '2026-09-01', direction: 'bullish', cScore: 70, entryClose: 100, exitDate: null, exitReturn: null,
      outcomes: [5, 30, 90].map((horizon) => ({ horizon: horizon as 5 | 30 | 90, status, date: null, close: null, priceReturn: 0.1, signalReturn: hit ? 0.1 : -0.1, hit, benchmarkReturn: null, excessReturn: null })),
    });
    expect(compareHitRate([row(true, 'closed'), row(true, 'closed'), row(false, 'closed'), row(null, 'open')])).toEqual({ hitRate: 2 / 3, resolved: 3 });
    expect(compareHitRate([])).toEqual({ hitRate: null, resolved: 0 });
  });
});
