/** The model portfolio on a small hand-computed series: entries, exits, costs, drawdown and the figures. */
import { describe, expect, it } from 'vitest';
import { modelPortfolio } from '../../src/lib/domain/track-record/portfolio';

const DAYS = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08'];
// A bullish from the 5th, out on the 7th (100 -> 110 -> 99); B bearish from the 6th, still open (50 -> 45 -> 54).
const CLOSES = { A: [100, 110, 99, 99], B: [50, 50, 45, 54] };
const ENTRIES = [
  { ticker: 'A', date: '2026-01-05', direction: 'bullish' as const, exitDate: '2026-01-07' },
  { ticker: 'B', date: '2026-01-06', direction: 'bearish' as const, exitDate: null },
];
const BENCH = [400, 404, 402, 410];

describe('the model portfolio', () => {
  const p = modelPortfolio({ days: DAYS, closes: CLOSES, entries: ENTRIES, firstReport: '2026-01-05', costBps: 10, benchmark: BENCH })!;

  it('enters at the report\'s close, holds while qualified, equal weight long and short, 10 bps of each trade', () => {
    // Jan 5: buys A with the whole portfolio (traded 1): 1 - 0.001.
    // Jan 6: A +10%; then A to 1/2 and B short 1/2 (traded 0.5 + 0.5).
    // Jan 7: A -10% at +1/2, B -10% at -1/2: 0; A exits, B to -1 (traded 0.5 + 0.5).
    // Jan 8: B +20% at -1: -20%; B still open: no trade, no exit charged.
    const e0 = 0.999;
    const e1 = e0 * 1.1 * 0.999;
    const e2 = e1 * 1 * 0.999;
    const e3 = e2 * 0.8;
    expect(p.points.map((x) => x.date)).toEqual(DAYS);
    p.points.forEach((point, i) => expect(point.equity).toBeCloseTo([e0, e1, e2, e3][i]!, 12));
    expect(p.totalReturn).toBeCloseTo(e3 - 1, 12);
    expect(p.maxDrawdown).toBeCloseTo(1 - e3 / e1, 12);
    // Traded 1 + 1 + 1 + 0 over 3 days of returns, a year of 252 days.
    expect(p.turnover).toBeCloseTo((3 / 3) * 252, 9);
    expect(p.annualisedReturn).toBeCloseTo(e3 ** (252 / 3) - 1, 9);
  });

  it('volatility and Sharpe from the daily returns (sample standard deviation, no risk-free rate), annualised', () => {
    const e = p.points.map((x) => x.equity);
    const r = [e[1]! / e[0]! - 1, e[2]! / e[1]! - 1, e[3]! / e[2]! - 1];
    const mean = (r[0]! + r[1]! + r[2]!) / 3;
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / 2);
    expect(p.volatility).toBeCloseTo(sd * Math.sqrt(252), 12);
    expect(p.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(252), 12);
  });

  it('the benchmark over the same days, 1 on the first', () => {
    expect(p.points.map((x) => x.benchmark)).toEqual([1, 1.01, 1.005, 1.025]);
    expect(p.benchmarkReturn).toBeCloseTo(0.025, 12);
  });

  it('cost per trade: 0 bps leaves the gross curve (1, 1.1, 1.1, 0.88)', () => {
    const free = modelPortfolio({ days: DAYS, closes: CLOSES, entries: ENTRIES, firstReport: '2026-01-05', costBps: 0 })!;
    [1, 1.1, 1.1, 0.88].forEach((v, i) => expect(free.points[i]!.equity).toBeCloseTo(v, 12));
    expect(free.benchmarkReturn).toBeNull();
  });

  it('starts at the first archived report and never before: an entry dated earlier is left out', () => {
    const late = modelPortfolio({ days: DAYS, closes: CLOSES, entries: ENTRIES, firstReport: '2026-01-06', costBps: 0 })!;
    expect(late.start).toBe('2026-01-06');
    // Only B (from the 6th): 1, 1.1 (short -10%), 0.88 (short +20%).
    [1, 1.1, 0.88].forEach((v, i) => expect(late.points[i]!.equity).toBeCloseTo(v, 12));
  });

  it('no trading day on or after the first report: no portfolio', () => {
    expect(modelPortfolio({ days: DAYS, closes: CLOSES, entries: ENTRIES, firstReport: '2026-02-01', costBps: 10 })).toBeNull();
  });

  it('reads a ticker\'s closes once per holding, not once per day: the daily job\'s closes build a list on each read', () => {
    // 300 days; A held from the first day to the last, B from day 100 to day 200.
    const days = Array.from({ length: 300 }, (_, i) => new Date(Date.UTC(2026, 0, 5) + i * 86_400_000).toISOString().slice(0, 10));
    const reads = { A: 0, B: 0 };
    const closes = {
      get A() {
        reads.A += 1;
        return days.map((_, i) => 100 + i);
      },
      get B() {
        reads.B += 1;
        return days.map((_, i) => 50 + (i % 7));
      },
    };
    const entries = [
      { ticker: 'A', date: days[0]!, direction: 'bullish' as const, exitDate: null },
      { ticker: 'B', date: days[100]!, direction: 'bearish' as const, exitDate: days[200]! },
      { ticker: 'B', date: days[220]!, direction: 'bullish' as const, exitDate: days[280]! },
    ];
    const read = modelPortfolio({ days, closes, entries, firstReport: days[0]!, costBps: 10 })!;
    // The same curve as with plain lists.
    const plain = modelPortfolio({ days, closes: { A: closes.A, B: closes.B }, entries, firstReport: days[0]!, costBps: 10 })!;
    expect(read.points).toEqual(plain.points);
    reads.A = 0;
    reads.B = 0;
    modelPortfolio({ days, closes, entries, firstReport: days[0]!, costBps: 10 });
    // Once per ticker, however many times it is held.
    expect(reads).toEqual({ A: 1, B: 1 });
  });
});
