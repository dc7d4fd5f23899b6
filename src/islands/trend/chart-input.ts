/**
 * What the trend card's live chart is given, from the trend, the bars and the ledger: one derivation for the island
 * (TrendChart) and the chart's early start (early.ts). Each step answers the same object for the same inputs, so the
 * island that takes over an early chart finds it already holds what the island would give it.
 */
import type { Bar } from '../../lib/domain/market-data/market';
import type { SignalDirection } from '../../lib/domain/signals/signal';
import { priceSeries, scoreSeries, signalMarkers, type LedgerEntry, type ScoreSeries } from '../../lib/domain/trend/chart-series';
import { toChartPoints, validateTrend, type ChartData, type TrendPoint } from '../../lib/domain/trend/trend';
import type { LiveChartData } from './live-chart';

/** How long the chart's first drawing waits for the bars and the ledger before drawing the C-Score alone. */
export const PARTS_WAIT_MS = 1500;

/** The daily bars under the chart: none asked yet, or the ones loaded and whether they are the demo provider's. */
export type Prices = { bars: Bar[]; isDemo: boolean } | null;

export type View =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'empty'; message: string }
  | { state: 'chart'; valid: TrendPoint[]; reportDate: string };

const views = new WeakMap<object, View>();

/** Turns a trend response into what the card shows: the valid points, or the spec's empty message. */
export function trendView(ticker: string, response: unknown): View {
  const known = typeof response === 'object' && response !== null ? views.get(response) : undefined;
  if (known) return known;
  let view: View;
  try {
    const valid = validateTrend(ticker, response);
    const given = typeof response === 'object' && response !== null ? (response as { reportDate?: unknown }).reportDate : undefined;
    const reportDate = typeof given === 'string' ? given : (valid.find((p) => p.isCurrentDay)?.date ?? valid.at(-1)!.date);
    view = { state: 'chart', valid, reportDate };
  } catch (error) {
    view = { state: 'empty', message: (error as Error).message };
  }
  if (typeof response === 'object' && response !== null) views.set(response, view);
  return view;
}

const series = new WeakMap<readonly TrendPoint[], { chart: ChartData; scores: ScoreSeries }>();

/** The whole trend as the chart holds it (the range only moves its view): its points, warnings and score line. */
export function trendSeries(valid: readonly TrendPoint[]): { chart: ChartData; scores: ScoreSeries } {
  let made = series.get(valid);
  if (!made) {
    const chart = toChartPoints(valid);
    made = { chart, scores: scoreSeries(chart.points) };
    series.set(valid, made);
  }
  return made;
}

/** The inputs made per score line, the latest last (a few: a range change adds one). */
const inputs = new WeakMap<ScoreSeries, { prices: Prices; ledger: readonly LedgerEntry[] | null; color: SignalDirection; input: LiveChartData }[]>();
const KEPT_INPUTS = 4;

/** The chart's data: the score line, the shown span's prices and the signal events as markers. */
export function liveChartInput(scores: ScoreSeries, prices: Prices, ledger: readonly LedgerEntry[] | null, color: SignalDirection): LiveChartData {
  const made = inputs.get(scores) ?? [];
  const known = made.find((m) => m.prices === prices && m.ledger === ledger && m.color === color);
  if (known) return known.input;
  const input: LiveChartData = { score: scores, price: prices ? priceSeries(prices.bars) : null, markers: signalMarkers(ledger ?? [], scores.data), color, isDemo: prices?.isDemo ?? false };
  inputs.set(scores, [...made.slice(1 - KEPT_INPUTS), { prices, ledger, color, input }]);
  return input;
}

/** The drawn chart's accessible name. */
export function liveChartLabel(ticker: string): string {
  return `Price and C-Score of ${ticker}. Left and right arrow keys move the crosshair between days; Home and End go to the first and last.`;
}
