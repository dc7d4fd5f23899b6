/** Issue 17: outcomes computed from hand-made series, checked against hand-computed numbers. */
import { describe, expect, it } from 'vitest';
import { horizonOutcome, ledgerRows, scoreBand, signalEntries, summarize, type PriceSeries } from '../../src/lib/domain/track-record';

// January 2026's trading days from the 2nd to the 21st: Monday the 19th (Martin Luther King Jr. Day) is a holiday.
const DAYS = ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12', '2026-01-13', '2026-01-14', '2026-01-15', '2026-01-16', '2026-01-20', '2026-01-21'];
const series = (closes: Record<string, number>): PriceSeries => ({ days: DAYS, closes: new Map(Object.entries(closes)) });
const flat = (value: number) => Object.fromEntries(DAYS.map((d) => [d, value]));

describe('a signal\'s outcome 5 trading days on', () => {
  it('bullish: a hit when the price rose (100 -> 110: +10%), a miss when it fell (100 -> 95: -5%)', () => {
    const up = horizonOutcome(series({ ...flat(100), '2026-01-12': 110 }), '2026-01-05', 'bullish', 100, 5);
    expect(up).toMatchObject({ status: 'closed', date: '2026-01-12', close: 110, hit: true });
    expect(up.priceReturn).toBeCloseTo(0.1, 10);
    expect(up.signalReturn).toBeCloseTo(0.1, 10);
    const down = horizonOutcome(series({ ...flat(100), '2026-01-12': 95 }), '2026-01-05', 'bullish', 100, 5);
    expect(down).toMatchObject({ status: 'closed', hit: false });
    expect(down.signalReturn).toBeCloseTo(-0.05, 10);
  });

  it('bearish: a hit when the price fell (100 -> 90: +10% for the signal), a miss when it rose (100 -> 104: -4%)', () => {
    const fell = horizonOutcome(series({ ...flat(100), '2026-01-12': 90 }), '2026-01-05', 'bearish', 100, 5);
    expect(fell).toMatchObject({ status: 'closed', hit: true });
    expect(fell.priceReturn).toBeCloseTo(-0.1, 10);
    expect(fell.signalReturn).toBeCloseTo(0.1, 10);
    const rose = horizonOutcome(series({ ...flat(100), '2026-01-12': 104 }), '2026-01-05', 'bearish', 100, 5);
    expect(rose).toMatchObject({ status: 'closed', hit: false });
    expect(rose.signalReturn).toBeCloseTo(-0.04, 10);
  });

  it('counts trading days: a holiday inside the horizon moves its end a day later (Jan 13 + 5 is Jan 21, not Jan 20)', () => {
    const outcome = horizonOutcome(series({ ...flat(50), '2026-01-21': 55 }), '2026-01-13', 'bullish', 50, 5);
    expect(outcome).toMatchObject({ status: 'closed', date: '2026-01-21', close: 55, hit: true });
    expect(outcome.priceReturn).toBeCloseTo(0.1, 10);
  });

  it('a horizon still to come is open, with the return so far and no verdict', () => {
    const outcome = horizonOutcome(series({ ...flat(100), '2026-01-21': 103 }), '2026-01-16', 'bullish', 100, 5);
    expect(outcome).toMatchObject({ status: 'open', date: '2026-01-21', close: 103, hit: null });
    expect(outcome.priceReturn).toBeCloseTo(0.03, 10);
  });

  it('a ticker that stopped trading mid-horizon is marked, with the return to its last close, never dropped', () => {
    const prices = series({ '2026-01-02': 100, '2026-01-05': 100, '2026-01-06': 98, '2026-01-07': 96, '2026-01-08': 80 });
    const five = horizonOutcome(prices, '2026-01-05', 'bullish', 100, 5);
    expect(five).toMatchObject({ status: 'stopped', date: '2026-01-08', close: 80, hit: false });
    expect(five.signalReturn).toBeCloseTo(-0.2, 10);
    // Thirty days on lies past the series, but the market went on trading without it: stopped, not open.
    expect(horizonOutcome(prices, '2026-01-05', 'bullish', 100, 30)).toMatchObject({ status: 'stopped', date: '2026-01-08' });
  });

  it('no close on the report date: no outcome at all', () => {
    expect(horizonOutcome(series({}), '2026-01-05', 'bullish', null, 5)).toMatchObject({ status: 'no-price', priceReturn: null, hit: null });
  });
});

describe('the ledger', () => {
  const dates = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12'];

  it('has one row per time a ticker qualified, with its exit: neutral, a reversal, or leaving the report', () => {
    expect(signalEntries([70, 72, 50, -70, -68, null])).toEqual([
      { index: 0, direction: 'bullish', exitIndex: 2 },
      { index: 3, direction: 'bearish', exitIndex: 5 },
    ]);
    // A reversal exits the bullish signal and enters the bearish one on the same report.
    expect(signalEntries([70, -70, -80])).toEqual([
      { index: 0, direction: 'bullish', exitIndex: 1 },
      { index: 1, direction: 'bearish', exitIndex: null },
    ]);
    expect(signalEntries([10, 64.99, -64.99])).toEqual([]);
  });

  it('measures entry to exit in the signal\'s direction', () => {
    const prices = series({ ...flat(100), '2026-01-07': 108, '2026-01-08': 100, '2026-01-12': 90 });
    const rows = ledgerRows('AAPL', dates, [70, 72, 50, -70, -68, null], prices);
    expect(rows.map((r) => [r.date, r.direction, r.cScore, r.entryClose, r.exitDate])).toEqual([
      ['2026-01-05', 'bullish', 70, 100, '2026-01-07'],
      ['2026-01-08', 'bearish', -70, 100, '2026-01-12'],
    ]);
    expect(rows[0]!.exitReturn).toBeCloseTo(0.08, 10);
    expect(rows[1]!.exitReturn).toBeCloseTo(0.1, 10);
    expect(rows[0]!.outcomes.map((o) => o.horizon)).toEqual([5, 30, 90]);
  });

  it('sums hit rate and average return per horizon over resolved signals, and counts the open ones', () => {
    const prices = series({ ...flat(100), '2026-01-12': 110 });
    const rows = [
      ...ledgerRows('UP', ['2026-01-05'], [80], prices),
      ...ledgerRows('DOWN', ['2026-01-05'], [-80], prices),
    ];
    const [five, thirty] = summarize(rows);
    // UP: +10% (hit); DOWN: the price rose 10%, so -10% for the bearish signal (miss).
    expect(five).toMatchObject({ horizon: 5, resolved: 2, open: 0, hits: 1, hitRate: 0.5 });
    expect(five!.averageReturn).toBeCloseTo(0, 10);
    expect(thirty).toMatchObject({ horizon: 30, resolved: 0, open: 2, hitRate: null, averageReturn: null });
  });

  it('bands qualified scores by size, the bearish ones mirrored', () => {
    expect([65, 74.99, 75, 84.99, 85, 100, -65, -85, 64.99].map(scoreBand)).toEqual(['65-75', '65-75', '75-85', '75-85', '85-100', '85-100', '65-75', '85-100', null]);
  });
});
