/** The track record against a benchmark, with honest uncertainty: hand-computed cases. */
import { describe, expect, it } from 'vitest';
import { excessReturn, horizonOutcome, summarize, measureEntry, type PriceSeries } from '../../src/lib/domain/track-record/track-record';
import { enoughToJudge, meanInterval, MIN_RESOLVED, wilsonInterval } from '../../src/lib/domain/track-record/stats';
import { demoIndexCloses } from '../../src/lib/domain/track-record/benchmark';

const DAYS = ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12', '2026-01-13'];
const series = (closes: Record<string, number>): PriceSeries => ({ days: DAYS, closes: new Map(Object.entries(closes)) });
const flat = (value: number) => Object.fromEntries(DAYS.map((d) => [d, value]));

describe('excess return in the signal\'s direction', () => {
  it.each([
    // direction, stock's change, benchmark's change, excess
    ['bullish', 0.1, 0.04, 0.06],
    ['bullish', 0.02, 0.05, -0.03],
    ['bullish', -0.05, -0.08, 0.03],
    ['bearish', -0.1, 0.02, 0.12],
    ['bearish', 0.03, 0.05, 0.02],
    ['bearish', -0.02, -0.06, -0.04],
  ] as const)('%s: the stock %d, the benchmark %d: excess %d', (direction, stock, bench, expected) => {
    expect(excessReturn(direction, stock, bench)).toBeCloseTo(expected, 12);
  });

  it('no benchmark close: no excess', () => {
    expect(excessReturn('bullish', 0.1, null)).toBeNull();
  });

  it('a horizon\'s outcome carries the benchmark\'s change over the same days and the excess (100 -> 110 vs 400 -> 404)', () => {
    const stock = series({ ...flat(100), '2026-01-12': 110 });
    const spy = series({ ...flat(400), '2026-01-12': 404 });
    const bull = horizonOutcome(stock, '2026-01-05', 'bullish', 100, 5, spy);
    expect(bull.benchmarkReturn).toBeCloseTo(0.01, 12);
    expect(bull.excessReturn).toBeCloseTo(0.09, 12);
    const bear = horizonOutcome(stock, '2026-01-05', 'bearish', 100, 5, spy);
    expect(bear.signalReturn).toBeCloseTo(-0.1, 12);
    expect(bear.excessReturn).toBeCloseTo(-0.09, 12);
  });
});

describe('the 95% Wilson interval of a hit rate', () => {
  it.each([
    // hits, n, low, high (published values of the Wilson score interval)
    [8, 10, 0.49, 0.943],
    [0, 10, 0, 0.278],
    [10, 10, 0.722, 1],
    [50, 100, 0.404, 0.596],
    [1, 2, 0.095, 0.905],
    [55, 400, 0.107, 0.175],
  ])('%i of %i: [%d, %d]', (hits, n, low, high) => {
    const [l, h] = wilsonInterval(hits, n)!;
    expect(l).toBeCloseTo(low, 3);
    expect(h).toBeCloseTo(high, 3);
  });

  it('no signals: no interval; impossible counts are refused with what to fix', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(/0 <= hits <= n/);
  });
});

describe('the 95% interval of a mean return (normal approximation)', () => {
  it('mean ± 1.96 s/√n: returns 0.01, 0.03, 0.05, 0.07 (mean 0.04, s 0.025820)', () => {
    const values = [0.01, 0.03, 0.05, 0.07];
    const [l, h] = meanInterval(values.length, values.reduce((a, b) => a + b, 0), values.reduce((a, b) => a + b * b, 0))!;
    expect(l).toBeCloseTo(0.04 - 1.959964 * (0.0258199 / 2), 6);
    expect(h).toBeCloseTo(0.04 + 1.959964 * (0.0258199 / 2), 6);
  });

  it('one value: no interval', () => {
    expect(meanInterval(1, 0.05, 0.0025)).toBeNull();
  });
});

describe('the "too few to judge" threshold', () => {
  it.each([
    [0, false],
    [1, false],
    [19, false],
    [20, true],
    [400, true],
  ])('%i resolved signals: enough = %s', (resolved, enough) => {
    expect(MIN_RESOLVED).toBe(20);
    expect(enoughToJudge(resolved)).toBe(enough);
  });
});

describe('a group\'s figures against the benchmark', () => {
  it('7 hits of 10 resolved, 6 beating the benchmark: both rates with their intervals, mean benchmark and excess', () => {
    const spy = series({ ...flat(100), '2026-01-12': 101 });
    const rows = Array.from({ length: 10 }, (_, i) => {
      // Ten stocks ending at 98 to 107 from 100, against a benchmark's +1%.
      const end = 100 + (i - 2);
      return measureEntry({ ticker: `T${i}`, date: '2026-01-05', direction: 'bullish', cScore: 70, exitDate: null }, series({ ...flat(100), '2026-01-12': end }), spy);
    });
    const five = summarize(rows)[0]!;
    // Ends 98, 99, 100, 101 .. 107: 7 rose (hits), 6 beat the benchmark's +1%.
    expect(five).toMatchObject({ resolved: 10, hits: 7, benchmarkResolved: 10, benchmarkHits: 6 });
    expect(five.hitRateVsBenchmark).toBeCloseTo(0.6, 12);
    expect(five.benchmarkReturn).toBeCloseTo(0.01, 12);
    expect(five.excessReturn).toBeCloseTo(0.025 - 0.01, 12);
    expect(five.hitRateInterval![0]).toBeCloseTo(0.397, 3);
    expect(five.hitRateInterval![1]).toBeCloseTo(0.892, 3);
  });
});

describe('the demo index', () => {
  it('starts at 100 and moves by the mean daily change of the tickers with closes on both days', () => {
    const index = demoIndexCloses(['d1', 'd2', 'd3'], { A: [10, 11, 11], B: [20, 18, null], C: [null, 5, 6] });
    // d2: A +10%, B -10% (C has no close on d1): 0 -> 100; d3: A 0%, C +20% (B none): +10% -> 110.
    expect(index).toEqual([100, 100, 110]);
  });
});
