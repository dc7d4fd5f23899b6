/**
 * The geometry of the trend chart's first paint (the server-rendered SVG): where each day, tick, reference line
 * and average label sits. Pure, so the page's first paint (rendered at build time) and the live chart
 * are the same drawing: same axes, thresholds and scale, nothing jumps when the island takes over.
 *
 * Positions are fractions of the plot box (x from the first to the last report day on a calendar time axis, y on
 * the -110..110 domain), so one drawing fits any width; the plot box's insets are fixed pixels.
 */
import { TREND_Y_DOMAIN, TREND_Y_TICKS } from './scale';
import type { ChartPoint } from './trend';

/** The plot box's insets in px inside the chart: averages' labels on the left, the score ticks on the right, dates below. */
export const TREND_PLOT_INSETS = { top: 8, right: 34, bottom: 20, left: 56 } as const;

/** Height in px of an average's label in the left gutter: two labels closer than this are moved apart. */
export const AVERAGE_LABEL_HEIGHT = 15;

/** Height in px of the price pane above the C-Score chart (the live chart's top pane, reserved in the first paint). */
export const PRICE_PANE_HEIGHT = 96;

/** SVG user units of the plot: x 0..1000, y the score domain (110 at the top). */
export const PLOT_VIEWBOX = { width: 1000, height: TREND_Y_DOMAIN[1] - TREND_Y_DOMAIN[0] } as const;

/** A report day of the chart: its point, its index among the chart's points, and its place in the plot (fractions). */
export interface ChartDay {
  point: ChartPoint;
  index: number;
  x: number;
  y: number;
}

/** An average as a horizontal reference line, with its label's centre in px from the plot's top. */
export interface ChartAverage {
  point: ChartPoint;
  index: number;
  y: number;
  labelTop: number;
}

/** Everything the chart draws. */
export interface TrendGeometry {
  days: ChartDay[];
  averages: ChartAverage[];
  /** The line through the days in PLOT_VIEWBOX units ('' for no day). */
  path: string;
  xTicks: { date: string; label: string; x: number; align: 'start' | 'middle' | 'end' }[];
  yTicks: { value: number; y: number }[];
}


/** y of a score as a fraction of the plot's height from its top, on the chart's domain. */
export function scoreY(score: number): number {
  const [min, max] = TREND_Y_DOMAIN;
  return (max - Math.max(min, Math.min(max, score))) / (max - min);
}

/** x of a date between the first and the last day (fractions of the plot's width; one day sits at the right edge). */
function timeScale(first: string, last: string): (date: string) => number {
  const [start, end] = [Date.parse(first), Date.parse(last)];
  return (date) => (end > start ? (Date.parse(date) - start) / (end - start) : 1);
}

/**
 * The line through the points as straight segments, as the live chart draws it: relative moves in whole units (a
 * thousandth of the plot's width, half a point of score), each from the rounded end of the one before, so no rounding
 * adds up and the drawing costs every stock page a few bytes a day.
 */
export function linePath(points: readonly { x: number; y: number }[]): string {
  if (points.length === 0) return '';
  let [x0, y0] = [Math.round(points[0]!.x), Math.round(points[0]!.y)];
  let d = `M${x0},${y0}`;
  for (let i = 1; i < points.length; i += 1) {
    const [x1, y1] = [Math.round(points[i]!.x), Math.round(points[i]!.y)];
    const [dx, dy] = [x1 - x0, y1 - y0];
    d += `${i === 1 ? 'l' : dx < 0 ? '' : ' '}${dx}${dy < 0 ? '' : ','}${dy}`;
    [x0, y0] = [x1, y1];
  }
  return d;
}

/**
 * Centres (px from the plot's top) of labels wanted at `wanted` px, moved apart to at least `gap` px and kept
 * within 0..`height` with half a label to spare, in the order given.
 */
export function spreadLabels(wanted: readonly number[], gap: number, height: number): number[] {
  const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  const placed = order.map((o) => o.y);
  const [low, high] = [gap / 2, height - gap / 2];
  // Push down from the top, then back up from the bottom: n labels always fit when n x gap <= height.
  for (let k = 0; k < placed.length; k += 1) placed[k] = Math.max(placed[k]!, k === 0 ? low : placed[k - 1]! + gap);
  for (let k = placed.length - 1; k >= 0; k -= 1) placed[k] = Math.min(placed[k]!, k === placed.length - 1 ? high : placed[k + 1]! - gap);
  const out = new Array<number>(wanted.length);
  order.forEach((o, k) => (out[o.i] = placed[k]!));
  return out;
}

/** Dates of the x-axis: the first and last day and evenly spaced days between, `count` at most. */
function tickDays(days: readonly ChartDay[], count: number): ChartDay[] {
  if (days.length <= count) return [...days];
  const picked = new Set<number>();
  for (let k = 0; k < count; k += 1) picked.add(Math.round((k * (days.length - 1)) / (count - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => days[i]!);
}

/** The chart's drawing for points in toChartPoints' order, in a chart `height` px high. */
export function trendGeometry(points: readonly ChartPoint[], height: number): TrendGeometry {
  const plotHeight = height - TREND_PLOT_INSETS.top - TREND_PLOT_INSETS.bottom;
  const indexed = points.map((point, index) => ({ point, index }));
  const dated = indexed.filter(({ point }) => point.type !== '7d-avg' && point.type !== '14d-avg');
  const x = dated.length ? timeScale(dated[0]!.point.date, dated.at(-1)!.point.date) : () => 1;
  const days = dated.map(({ point, index }) => ({ point, index, x: x(point.date), y: scoreY(point.cScore) }));
  const averageList = indexed.filter(({ point }) => point.type === '7d-avg' || point.type === '14d-avg');
  const labelTops = spreadLabels(averageList.map(({ point }) => scoreY(point.cScore) * plotHeight), AVERAGE_LABEL_HEIGHT, plotHeight);
  const averages = averageList.map(({ point, index }, k) => ({ point, index, y: scoreY(point.cScore), labelTop: labelTops[k]! }));
  const path = linePath(days.map((d) => ({ x: d.x * PLOT_VIEWBOX.width, y: d.y * PLOT_VIEWBOX.height })));
  const ticks = tickDays(days, 4);
  const xTicks = ticks.map((d, k) => ({
    date: d.point.date,
    label: d.point.axisLabel,
    x: d.x,
    align: ticks.length > 1 && k === 0 ? ('start' as const) : k === ticks.length - 1 ? ('end' as const) : ('middle' as const),
  }));
  return { days, averages, path, xTicks, yTicks: TREND_Y_TICKS.map((value) => ({ value, y: scoreY(value) })) };
}
