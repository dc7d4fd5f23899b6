/**
 * /compare's chart before lightweight-charts loads: the drawing of the same lines the library is given (each stock's
 * C-Score and its price rebased to 100), in the library's layout (two panes on one time axis, one day a step, the
 * scale on the right), so the page paints the comparison without the library and nothing moves when it takes over.
 * Positions are fractions of each pane, so one drawing fits any width.
 */
import { formatShortDate } from '../text/format';
import { TREND_REFERENCE_LINES, TREND_Y_TICKS } from '../trend/scale';
import { linePath, scoreY, spreadLabels } from '../trend/trend-chart';
import type { CompareStyle, DatedValue } from './compare';

/** The chart's height in px (the live chart's and the first paint's). */
export const COMPARE_CHART_HEIGHT = 420;

/** The score pane's share of the two panes' height; the price pane has the rest. */
export const COMPARE_SCORE_PANE_SHARE = 0.55;

/**
 * Px the time axis takes under the panes, and the price scale right of them: the library's scale is given this width
 * at least, which holds a ticker's label with its last value.
 */
export const COMPARE_AXES = { time: 28, scale: 112 } as const;

/** Height in px of a line's label on the scale: two labels closer than this are moved apart, as the library does. */
export const COMPARE_TAG_HEIGHT = 18;

/** The score pane's empty space above 110 and below -110, as a fraction of the pane. */
export const COMPARE_SCORE_MARGIN = 0.02;

/** The price pane's empty space above and below the lines, as fractions of the pane (the library's default margins). */
export const COMPARE_PRICE_MARGINS = { top: 0.2, bottom: 0.1 } as const;

/** Units of a pane's SVG drawing (x and y): the paths are whole units of it. */
export const COMPARE_VIEWBOX = 1000;

/** One stock's two lines, as the chart is given them. */
export interface CompareSeries {
  ticker: string;
  scores: readonly DatedValue[];
  /** Closes already rebased to 100. */
  closes: readonly DatedValue[];
}

/** One stock's lines with its look, as the page draws them. */
export interface CompareChartLine extends CompareSeries {
  style: CompareStyle;
  scores: DatedValue[];
  closes: DatedValue[];
}

/** A tick of an axis: its value or date, its label, and its place as a fraction of the pane (y from the top, x from the left). */
export interface CompareTick {
  label: string;
  at: number;
}

/** What the first paint draws. */
export interface CompareGeometry {
  /** Per stock, its score path and price path in COMPARE_VIEWBOX units ('' when it has no point there). */
  lines: { ticker: string; score: string; price: string }[];
  scoreTicks: CompareTick[];
  /** The score pane's reference lines (0 solid, the thresholds dashed), y as a fraction of the pane. */
  references: { value: number; y: number; dashed: boolean; tone: 'neutral' | 'bullish' | 'bearish' }[];
  priceTicks: CompareTick[];
  /** y of 100 (the first shown day's price) in the price pane, null with no price. */
  priceBase: number | null;
  timeTicks: CompareTick[];
  /** Each line's label on its pane's scale: its ticker and last value, at the value (moved apart to not overlap). */
  tags: { ticker: string; pane: 'score' | 'price'; text: string; at: number }[];
}

/** The latest-dated of some points. */
function latest(points: readonly DatedValue[]): DatedValue | undefined {
  return points.reduce<DatedValue | undefined>((last, p) => (last === undefined || p.date >= last.date ? p : last), undefined);
}

/** The panes' heights in px. */
export function comparePaneHeights(): { score: number; price: number } {
  const panes = COMPARE_CHART_HEIGHT - COMPARE_AXES.time;
  return { score: panes * COMPARE_SCORE_PANE_SHARE, price: panes * (1 - COMPARE_SCORE_PANE_SHARE) };
}

/** A value as the library's scale writes it: two decimals, a minus sign. */
export function scaleValue(value: number): string {
  return value.toFixed(2).replace('-', '\u2212');
}

/** Round steps for the price scale's ticks. */
const STEPS = [0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100];

/** The days of all lines, each once, ascending: the library places one day a step, with no gap for a weekend. */
export function compareDays(series: readonly CompareSeries[]): string[] {
  const days = new Set<string>();
  for (const s of series) for (const p of [...s.scores, ...s.closes]) days.add(p.date);
  return [...days].sort();
}

/** The drawing of `series` (in the order of the address). */
export function compareGeometry(series: readonly CompareSeries[]): CompareGeometry {
  const days = compareDays(series);
  const step = new Map(days.map((day, i) => [day, days.length > 1 ? i / (days.length - 1) : 1]));
  const prices = series.flatMap((s) => s.closes.map((p) => p.value)).filter(Number.isFinite);
  const [low, high] = prices.length > 0 ? [Math.min(...prices), Math.max(...prices)] : [100, 100];
  const span = high - low || 1;
  const inner = 1 - COMPARE_PRICE_MARGINS.top - COMPARE_PRICE_MARGINS.bottom;
  const priceY = (value: number) => COMPARE_PRICE_MARGINS.top + ((high - value) / span) * inner;
  const path = (points: readonly DatedValue[], y: (value: number) => number) =>
    linePath(points.filter((p) => Number.isFinite(p.value) && step.has(p.date)).map((p) => ({ x: step.get(p.date)! * COMPARE_VIEWBOX, y: y(p.value) * COMPARE_VIEWBOX })));
  const scoreAt = (value: number) => COMPARE_SCORE_MARGIN + scoreY(value) * (1 - 2 * COMPARE_SCORE_MARGIN);
  const lines = series.map((s) => ({ ticker: s.ticker, score: path(s.scores, scoreAt), price: path(s.closes, priceY) }));
  const unit = STEPS.find((size) => span / size < 4) ?? Math.ceil(span / 3);
  const priceTicks: CompareTick[] = [];
  if (prices.length > 0) for (let v = Math.ceil(low / unit) * unit; v <= high + 1e-9; v += unit) priceTicks.push({ label: String(Number(v.toFixed(1))), at: priceY(v) });
  const heights = comparePaneHeights();
  const tagsOf = (pane: 'score' | 'price', last: (s: CompareSeries) => DatedValue | undefined, y: (value: number) => number) => {
    const shown = series.map((s) => ({ ticker: s.ticker, point: last(s) })).filter((t): t is { ticker: string; point: DatedValue } => t.point !== undefined && Number.isFinite(t.point.value));
    const height = heights[pane];
    const placed = spreadLabels(shown.map((t) => y(t.point.value) * height), COMPARE_TAG_HEIGHT, height);
    return shown.map((t, i) => ({ ticker: t.ticker, pane, text: `${t.ticker} ${scaleValue(t.point.value)}`, at: placed[i]! / height }));
  };
  const picks = days.length <= 1 ? days.map((_, i) => i) : [0, Math.round((days.length - 1) / 2), days.length - 1];
  return {
    lines,
    scoreTicks: TREND_Y_TICKS.map((value) => ({ label: String(value), at: scoreAt(value) })),
    references: TREND_REFERENCE_LINES.map((r) => ({ value: r.value, y: scoreAt(r.value), dashed: r.dashed, tone: r.tone })),
    priceTicks,
    priceBase: prices.length > 0 ? priceY(100) : null,
    tags: [...tagsOf('score', (s) => latest(s.scores), scoreAt), ...tagsOf('price', (s) => latest(s.closes), priceY)],
    timeTicks: [...new Set(picks)].map((i) => ({ label: formatShortDate(days[i]!), at: step.get(days[i]!)! })),
  };
}
