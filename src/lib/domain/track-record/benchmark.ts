/**
 * The track record's benchmark: the closes of BENCHMARK_TICKER (SPY by default) from the provider's daily series,
 * or with the demo provider a demo index derived from the demo closes, labelled as such.
 */

/** The benchmark's name when the closes are the demo provider's. */
export const DEMO_INDEX_NAME = 'Demo index';

/** The benchmark a track record is measured against: its ticker (or the demo index) and its closes aligned with the days. */
export interface BenchmarkSeries {
  /** The ticker whose closes these are, or DEMO_INDEX_NAME. */
  ticker: string;
  /** True when the series is the demo index (the demo provider's closes, not market data). */
  demo: boolean;
  closes: (number | null)[];
}

/**
 * The demo index over `days`: starts at 100 and moves each day by the mean daily change of every ticker with a close
 * on both days (an equal-weight index of the demo closes); a day without any such ticker keeps the last level.
 */
export function demoIndexCloses(days: readonly string[], closes: Readonly<Record<string, readonly (number | null)[]>>): (number | null)[] {
  const lists = Object.values(closes);
  const index: (number | null)[] = [];
  let level = 100;
  for (let i = 0; i < days.length; i++) {
    if (i > 0) {
      let sum = 0;
      let n = 0;
      for (const list of lists) {
        const before = list[i - 1];
        const now = list[i];
        if (before == null || now == null || before <= 0) continue;
        sum += now / before - 1;
        n++;
      }
      if (n > 0) level *= 1 + sum / n;
    }
    index.push(Number(level.toFixed(6)));
  }
  return index;
}

/** BENCHMARK_TICKER's default. */
export const DEFAULT_BENCHMARK_TICKER = 'SPY';

/** TRACK_COST_BPS's default: the model portfolio's cost per trade, in basis points of the amount traded. */
export const DEFAULT_COST_BPS = 10;
