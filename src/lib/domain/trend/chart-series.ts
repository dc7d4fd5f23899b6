/**
 * The live chart's data in the model lightweight-charts asserts: one point per calendar day ('yyyy-mm-dd'), strictly
 * ascending. Built here from the trend, the ticker's daily bars (the one price series) and its stored signal
 * ledger, so the browser only draws what the domain prepared.
 */
import type { Bar } from '../market-data/market';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../signals/signal';
import type { SignalSide } from '../track-record/track-record';
import { formatDate, formatMonthName, formatPrice, formatScore } from '../text/format';
import { CHART_COLORS } from './scale';
import { TREND_AVERAGE_AXIS_LABELS, TREND_AVERAGE_HEADINGS, TREND_TOOLTIP_LABELS, trendRangeStart, type ChartPoint, type TrendPointType, type TrendRange } from './trend';

/** A day of a series: the calendar day the library reads as a business day. */
export interface DayValue {
  time: string;
  value: number;
}

/** A daily candle. */
export interface DayCandle {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The price pane: candles when every bar has its open, high, low and close, else the closes as a line. */
export type PriceSeries = { kind: 'candles'; data: DayCandle[] } | { kind: 'line'; data: DayValue[] };

/** The C-Score line: its days, what each day is (the tooltip's label), and the two averages as labelled price lines. */
export interface ScoreSeries {
  data: DayValue[];
  types: Map<string, TrendPointType>;
  averages: { type: '7d-avg' | '14d-avg'; title: string; heading: string; value: number }[];
}

/** The stored signal events the chart marks. */
export type ChartEventKind = 'entered' | 'exited' | 'reversed';

/** A marker in the library's shape, with its meaning for the tooltip. */
export interface ChartMarker {
  time: string;
  kind: ChartEventKind;
  direction: SignalSide;
  position: 'aboveBar' | 'belowBar' | 'inBar';
  shape: 'arrowUp' | 'arrowDown' | 'circle' | 'square';
  color: string;
  text: string;
  meaning: string;
}

export { CHART_COLORS } from './scale';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const byTime = <T extends { time: string }>(a: T, b: T) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0);

/** One item per time, the last given winning, ascending: the order the library asserts. */
export function ascendingUnique<T extends { time: string }>(items: readonly T[]): T[] {
  const byDay = new Map<string, T>();
  for (const item of items) byDay.set(item.time, item);
  return [...byDay.values()].sort(byTime);
}

/**
 * The score line and the averages from the chart points (toChartPoints' order: the averages first, the current day
 * last, so on a repeated date the current day's score wins).
 */
export function scoreSeries(points: readonly ChartPoint[]): ScoreSeries {
  const days = points.filter((p) => p.type !== '7d-avg' && p.type !== '14d-avg' && Number.isFinite(p.cScore));
  const data = ascendingUnique(days.map((p) => ({ time: p.date, value: p.cScore })));
  const types = new Map(days.map((p) => [p.date, p.type]));
  const averages = points
    .filter((p): p is ChartPoint & { type: '7d-avg' | '14d-avg' } => p.type === '7d-avg' || p.type === '14d-avg')
    .map((p) => ({ type: p.type, title: TREND_AVERAGE_AXIS_LABELS[p.type], heading: TREND_AVERAGE_HEADINGS[p.type], value: p.cScore }));
  return { data, types, averages };
}

/** The price pane's series from the provider's bars: one per trading day, ascending. */
export function priceSeries(bars: readonly Bar[]): PriceSeries {
  const valid = bars.filter((b) => Number.isFinite(b.t) && Number.isFinite(b.c));
  const ohlc = valid.length > 0 && valid.every((b) => [b.o, b.h, b.l].every((v) => typeof v === 'number' && Number.isFinite(v)));
  if (ohlc) return { kind: 'candles', data: ascendingUnique(valid.map((b) => ({ time: isoDay(b.t), open: b.o, high: b.h, low: b.l, close: b.c }))) };
  return { kind: 'line', data: ascendingUnique(valid.map((b) => ({ time: isoDay(b.t), value: b.c }))) };
}

/** The close of a day in the price series, if it has that day. */
export function closeOn(series: PriceSeries, time: string): number | undefined {
  const found = (series.data as { time: string }[]).find((d) => d.time === time) as DayCandle | DayValue | undefined;
  return found === undefined ? undefined : 'close' in found ? found.close : found.value;
}

/** Longest window of the daily bars route (/api/polygon/aggs): a month, so a stranger cannot spend the budget on history. */
export const BARS_ROUTE_DAYS = 31;

/** The days of bars the chart asks for a range: from the range's first day (not before the first score) to the last score's. */
export function barsSpan(scoreDays: { first: string; last: string }, reportDate: string, range: TrendRange): { from: string; to: string } {
  const start = trendRangeStart(reportDate, range) ?? scoreDays.first;
  return { from: scoreDays.first > start ? scoreDays.first : start, to: scoreDays.last };
}

/**
 * Windows of at most `maxDays` days that cover `from`..`to` (the bars route's longest window), oldest first; laid
 * from `from` on, or with 'end' back from `to` (so spans ending on one day share their windows).
 */
export function barWindows(from: string, to: string, maxDays: number, anchor: 'start' | 'end' = 'start'): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  const [first, last] = [Date.parse(from), Date.parse(to)];
  const step = (maxDays + 1) * DAY_MS;
  if (anchor === 'start') {
    for (let start = first; start <= last; start += step) windows.push({ from: isoDay(start), to: isoDay(Math.min(last, start + maxDays * DAY_MS)) });
  } else {
    for (let end = last; end >= first; end -= step) windows.unshift({ from: isoDay(Math.max(first, end - maxDays * DAY_MS)), to: isoDay(end) });
  }
  return windows;
}

/** A row of the ticker's stored signal ledger as the track-record file gives it: what the markers need of it. */
export interface LedgerEntry {
  date: string;
  direction: SignalSide;
  cScore: number;
  exitDate: string | null;
}

/**
 * The rows of a ticker's track-record file (`{ ledger: [...] }`); throws naming the first wrong field. Read by hand,
 * four fields a row: the live chart needs them before its first drawing, and a schema library would double its start.
 */
export function ledgerRows(file: unknown): LedgerEntry[] {
  const rows = typeof file === 'object' && file !== null ? (file as { ledger?: unknown }).ledger : undefined;
  if (!Array.isArray(rows)) throw new Error('ledger: expected an array of rows');
  return rows.map((row: unknown, index) => {
    const r = (typeof row === 'object' && row !== null ? row : {}) as Partial<Record<keyof LedgerEntry, unknown>>;
    const wrong = (field: keyof LedgerEntry, expected: string) => new Error(`ledger[${index}].${field}: expected ${expected}, got ${JSON.stringify(r[field]) ?? 'nothing'}`);
    if (typeof r.date !== 'string') throw wrong('date', 'a date string');
    if (r.direction !== 'bullish' && r.direction !== 'bearish') throw wrong('direction', '"bullish" or "bearish"');
    if (typeof r.cScore !== 'number') throw wrong('cScore', 'a number');
    if (typeof r.exitDate !== 'string' && r.exitDate !== null) throw wrong('exitDate', 'a date string or null');
    return { date: r.date, direction: r.direction, cScore: r.cScore, exitDate: r.exitDate };
  });
}

const threshold = (direction: SignalSide) => (direction === 'bullish' ? `C-Score ${BULLISH_THRESHOLD} or more` : `C-Score ${BEARISH_THRESHOLD} or less`);

/** A marker of one event, with the words of its meaning. */
function marker(time: string, kind: ChartEventKind, direction: SignalSide): ChartMarker {
  const color = CHART_COLORS[kind === 'exited' ? 'neutral' : direction];
  if (kind === 'entered') {
    const up = direction === 'bullish';
    return { time, kind, direction, color, position: up ? 'belowBar' : 'aboveBar', shape: up ? 'arrowUp' : 'arrowDown', text: 'In', meaning: `Entered a ${direction} signal (${threshold(direction)})` };
  }
  if (kind === 'exited') {
    return { time, kind, direction, color, position: direction === 'bullish' ? 'aboveBar' : 'belowBar', shape: 'circle', text: 'Out', meaning: `Exited the ${direction} signal (no longer ${threshold(direction)})` };
  }
  return { time, kind, direction, color, position: 'inBar', shape: 'square', text: 'Rev', meaning: `Reversed to ${direction} (${threshold(direction)})` };
}

/**
 * The markers of the stored ledger on the score line's days: an entry, an exit, or a reversal where an exit and an
 * entry the other way fall on one report; at most one per day, ascending.
 */
export function signalMarkers(ledger: readonly LedgerEntry[], days: readonly DayValue[]): ChartMarker[] {
  const shown = new Set(days.map((d) => d.time));
  const entries = new Map(ledger.map((row) => [`${row.date}:${row.direction}`, row]));
  const out: ChartMarker[] = [];
  const reversedOn = new Set<string>();
  for (const row of ledger) {
    if (row.exitDate === null) continue;
    const other: SignalSide = row.direction === 'bullish' ? 'bearish' : 'bullish';
    if (entries.has(`${row.exitDate}:${other}`)) {
      reversedOn.add(`${row.exitDate}:${other}`);
      out.push(marker(row.exitDate, 'reversed', other));
    } else out.push(marker(row.exitDate, 'exited', row.direction));
  }
  for (const row of ledger) if (!reversedOn.has(`${row.date}:${row.direction}`)) out.push(marker(row.date, 'entered', row.direction));
  return ascendingUnique(out.filter((m) => shown.has(m.time)));
}

/** The crosshair's reading of a day: its date, close and C-Score in words (the tooltip and the live region). */
export function dayReading(time: string, score: number | undefined, type: TrendPointType | undefined, close: number | undefined, markers: readonly ChartMarker[]): string {
  const parts = [formatDate(time)];
  if (close !== undefined) parts.push(`Close ${formatPrice(close)}`);
  if (score !== undefined) parts.push(`${TREND_TOOLTIP_LABELS[type ?? 'historical']} ${formatScore(score)}`);
  for (const m of markers) if (m.time === time) parts.push(m.meaning);
  return parts.join(', ');
}

/**
 * A time-axis tick of the chart: the year ('2026') where a year starts, the short month ('Nov') where a month starts,
 * else the day of the month ('27'). Written out rather than left to the library, whose own builds an Intl formatter
 * per tick on every frame.
 */
export function axisTick(day: string, kind: 'year' | 'month' | 'day'): string {
  if (kind === 'year') return day.slice(0, 4);
  if (kind === 'month') return formatMonthName(day);
  return String(Number(day.slice(8, 10)));
}

/** The library's kinds of time tick (its TickMarkType: Year 0, Month 1, DayOfMonth 2; times of day are not drawn here). */
const TICK_KINDS = ['year', 'month', 'day'] as const;

/**
 * The chart options both live charts share for their dates: the axis' ticks by `axisTick` and the crosshair's date
 * as the tooltip writes it ('Nov 27, 2026'). `dayOf` turns the library's time back into yyyy-mm-dd.
 */
export function dateLabels<T>(dayOf: (time: T) => string) {
  return {
    tickMarkFormatter: (time: T, type: number) => axisTick(dayOf(time), TICK_KINDS[type] ?? 'day'),
    timeFormatter: (time: T) => formatDate(dayOf(time)),
  };
}

/** The averages as the tooltip reads them beside a day, with the spec's labels ('14D avg. 91.90, 7D avg. 91.85'). */
export function averagesReading(averages: ScoreSeries['averages']): string {
  return averages.map((a) => `${TREND_TOOLTIP_LABELS[a.type]} ${formatScore(a.value)}`).join(', ');
}
