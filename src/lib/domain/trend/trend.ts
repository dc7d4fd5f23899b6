/**
 * The C-Score trend: the response the build writes for /api/c-score-trend/{ticker}, its validation on the client
 * (spec section 5 "Trend data"), and the points the chart draws (section 5 "Chart dates", section 2 ordering).
 */
import type { TrendPoint, TrendResponse } from './trend-schema';
import { formatDate, formatMonthDay, isCalendarDate } from '../text/format';
import type { SignalHistory, SignalRecord } from '../report/schemas';
import { signalDirection, type SignalDirection } from '../signals/signal';
import { asciiUpper } from '../text/text';

export type { TrendPoint, TrendResponse } from './trend-schema';

/** What a chart point stands for. */
export type TrendPointType = 'current' | 'previous' | '7d-avg' | '14d-avg' | 'historical';

/** A point ready to draw: ISO date, numeric C-Score, its kind and its labels. */
export interface ChartPoint {
  date: string;
  cScore: number;
  type: TrendPointType;
  /** X-axis label: month/day, or '7D Avg' / '14D Avg'. */
  axisLabel: string;
  /** The date as short month, day, year ('Nov 20, 2026'). */
  dateLabel: string;
}

/** Chart points in drawing order, and what had to be repaired on the way. */
export interface ChartData {
  points: ChartPoint[];
  warnings: string[];
}

export { TREND_REFERENCE_LINES, TREND_Y_DOMAIN, TREND_Y_TICKS } from './scale';

/** Chart height in px on the card, in the small view and in the modal. */
export const TREND_CHART_HEIGHTS = { card: 180, small: 200, modal: 225 } as const;

/** Line width and dot radius in px. */
export const TREND_LINE = { width: 2, dotRadius: 6 } as const;

/** Tooltip label of each kind of point. */
export const TREND_TOOLTIP_LABELS: Readonly<Record<TrendPointType, string>> = {
  current: 'Current day',
  previous: 'Previous day',
  '7d-avg': '7D avg.',
  '14d-avg': '14D avg.',
  historical: 'C-Score',
};

/** Tooltip heading of the average points; other points use their date. */
export const TREND_AVERAGE_HEADINGS = { '7d-avg': '7-Day Average', '14d-avg': '14-Day Average' } as const;

/** X-axis label of the average points. */
export const TREND_AVERAGE_AXIS_LABELS = { '7d-avg': '7D Avg', '14d-avg': '14D Avg' } as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function byDate(a: { date: string }, b: { date: string }): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}

/** First report date of the window of the last `size` reports, or the earliest when there are fewer. */
function windowStart(dates: readonly string[], size: number, fallback: string): string {
  return dates[Math.max(0, dates.length - size)] ?? fallback;
}

// The latest report's records by ticker, made once per history: a build asks for every ticker's trend, twice.
const latestIndexes = new WeakMap<readonly SignalRecord[], Map<string, SignalRecord>>();
function latestByTicker(history: SignalHistory): Map<string, SignalRecord> {
  let index = latestIndexes.get(history.latest);
  if (!index) {
    index = new Map();
    for (const record of history.latest) {
      const key = asciiUpper(record.ticker);
      if (!index.has(key)) index.set(key, record);
    }
    latestIndexes.set(history.latest, index);
  }
  return index;
}

/** Trend response for a ticker of the latest report: its scores on every report date and its 7- and 14-day averages; null when the ticker is not in the latest report. */
export function buildTrend(history: SignalHistory, ticker: string): TrendResponse | null {
  const record = latestByTicker(history).get(asciiUpper(ticker.trim()));
  if (!record) return null;

  const scores = history.scores[record.ticker] ?? [];
  const historical: TrendPoint[] = [];
  history.dates.forEach((date, i) => {
    const score = scores[i];
    if (typeof score === 'number') historical.push({ date, cScore: score });
  });
  // The record itself is the score of the latest report, even when the history table lacks the row.
  if (!historical.some((p) => p.date === record.reportDate)) {
    historical.push({ date: record.reportDate, cScore: record.cScore });
    historical.sort(byDate);
  }
  const current = historical.at(-1);
  if (current) current.isCurrentDay = true;
  const previous = historical.at(-2);
  if (previous) previous.isYesterday = true;

  const averages: TrendPoint[] = [
    { date: windowStart(history.dates, 14, record.reportDate), cScore: record.avgCScoreL14D, is14DayAvg: true },
    { date: windowStart(history.dates, 7, record.reportDate), cScore: record.avgCScoreL7D, is7DayAvg: true },
  ];
  // Stable sort: an average point precedes the historical point of the same date.
  const trend = [...averages, ...historical].sort(byDate);
  return { ticker: record.ticker, reportDate: record.reportDate, trend };
}

/** The trend chart's ranges: a span of calendar months back from the report date, or the whole history. */
export const TREND_RANGES = [
  { id: '1M', label: 'Last month', months: 1 },
  { id: '3M', label: 'Last 3 months', months: 3 },
  { id: '1Y', label: 'Last year', months: 12 },
  { id: 'All', label: 'All history', months: null },
] as const satisfies readonly { id: string; label: string; months: number | null }[];

/** A range of the trend chart. */
export type TrendRange = (typeof TREND_RANGES)[number]['id'];

/**
 * The range the chart opens on. A stock page embeds exactly its points (some three months of weekday
 * reports), so the page stays the same size at any history length; a longer range loads the full trend.
 */
export const DEFAULT_TREND_RANGE: TrendRange = '3M';

/** The calendar months `range` spans back from the report date (the whole history: Infinity). */
export function trendRangeMonths(range: TrendRange): number {
  return TREND_RANGES.find((r) => r.id === range)!.months ?? Number.POSITIVE_INFINITY;
}

/** The first day of `range` ending on `reportDate` (yyyy-mm-dd), or null for the whole history. */
export function trendRangeStart(reportDate: string, range: TrendRange): string | null {
  const months = trendRangeMonths(range);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(reportDate);
  if (!Number.isFinite(months) || !match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1 - months, Number(match[3])];
  // Nov 30 minus 3 months is Aug 30, and May 31 minus 3 months is the last day of February, not a day of March.
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/** The points `range` shows: the report dates from its first day on, and always the two average points. */
export function pointsInRange<P extends TrendPoint>(points: readonly P[], reportDate: string, range: TrendRange): P[] {
  const start = trendRangeStart(reportDate, range);
  return points.filter((p) => start === null || p.is7DayAvg === true || p.is14DayAvg === true || p.date >= start);
}

/** The ranges that show nothing more than a shorter one (each with that shorter range), and the note that says why. */
export interface RangesBeyondHistory {
  same: Record<TrendRange, TrendRange | null>;
  note: string | null;
}

/**
 * Which ranges would show nothing more than a shorter one. Only a complete trend can say so: one holding only the
 * default range of a longer history leaves the longer ranges to load it.
 */
export function rangesBeyondHistory(points: readonly TrendPoint[], reportDate: string, complete: boolean): RangesBeyondHistory {
  const days = points.filter((p) => !p.is7DayAvg && !p.is14DayAvg).map((p) => p.date).sort();
  const same = Object.fromEntries(TREND_RANGES.map((r) => [r.id, null])) as Record<TrendRange, TrendRange | null>;
  if (!complete || days.length === 0) return { same, note: null };
  const counts = TREND_RANGES.map((r) => pointsInRange(points, reportDate, r.id).length);
  TREND_RANGES.forEach((r, i) => {
    const shorter = TREND_RANGES.findIndex((_, j) => j < i && counts[j] === counts[i]);
    if (shorter >= 0) same[r.id] = TREND_RANGES[shorter]!.id;
  });
  const groups = new Map<TrendRange, TrendRange[]>();
  for (const r of TREND_RANGES) if (same[r.id]) groups.set(same[r.id]!, [...(groups.get(same[r.id]!) ?? []), r.id]);
  if (groups.size === 0) return { same, note: null };
  const list = (ids: TrendRange[]) => (ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`);
  const parts = [...groups].map(([shorter, ids]) => `${list(ids)} ${ids.length === 1 ? 'shows' : 'show'} the same as ${shorter}`);
  const reports = `${days.length} ${days.length === 1 ? 'report' : 'reports'}`;
  return { same, note: `${parts.join('; ')}: the history starts on ${formatDate(days[0])} (${reports}).` };
}

/**
 * Report dates every page may read besides the chart's default range: the 14-day averages, the lists' last
 * RECENT_REPORTS reports, the AI facts' last points and the alerts' flicker check all fit, with room to spare.
 */
export const PAGE_MIN_REPORTS = 30;

/**
 * The history the pages are rendered from: the report dates of the chart's default range (at least
 * PAGE_MIN_REPORTS of them), plus one date before it whose score is each ticker's latest earlier score, if any, so
 * `embeddedTrend` still knows whether a ticker's trend is complete. Five years of 6,000 tickers are 7.5 million
 * scores; the pages need a few hundred thousand, and the static API (written from the full history) has the rest.
 */
export function pageHistory(history: SignalHistory): SignalHistory {
  const reportDate = history.dates.at(-1);
  if (reportDate === undefined) return history;
  const rangeStart = trendRangeStart(reportDate, DEFAULT_TREND_RANGE) ?? '';
  const inRange = history.dates.findIndex((date) => date >= rangeStart);
  const first = Math.min(inRange < 0 ? history.dates.length : inRange, history.dates.length - PAGE_MIN_REPORTS);
  const before = first - 1;
  if (before <= 0) return history;
  const scores: SignalHistory['scores'] = {};
  for (const [ticker, series] of Object.entries(history.scores)) {
    let earlier: number | null = null;
    for (let i = Math.min(before, series.length - 1); i >= 0 && earlier === null; i -= 1) earlier = series[i] ?? null;
    scores[ticker] = [earlier, ...series.slice(first)];
  }
  return { ...history, dates: history.dates.slice(before), scores };
}

/** The part of a trend a stock page embeds (the default range), and whether it is the whole trend. */
export function embeddedTrend(trend: TrendResponse): { trend: TrendResponse; complete: boolean } {
  const shown = pointsInRange(trend.trend, trend.reportDate, DEFAULT_TREND_RANGE);
  return { trend: { ...trend, trend: shown }, complete: shown.length === trend.trend.length };
}

/** The number in a trend point's cScore, or null when it is not numeric (a number or a numeric string). */
function numericScore(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** The known fields of a raw point; a missing date becomes '' so the chart can place it first. */
function toTrendPoint(raw: Record<string, unknown>): TrendPoint {
  const point: TrendPoint = {
    date: typeof raw.date === 'string' ? raw.date : '',
    cScore: raw.cScore as number | string,
  };
  if (raw.isCurrentDay === true) point.isCurrentDay = true;
  if (raw.isYesterday === true) point.isYesterday = true;
  if (raw.is7DayAvg === true) point.is7DayAvg = true;
  if (raw.is14DayAvg === true) point.is14DayAvg = true;
  return point;
}

/** Points of a trend response with a numeric, non-zero C-Score, by date ascending; throws when there are none. */
export function validateTrend(ticker: string, response: unknown): TrendPoint[] {
  const trend: unknown[] = isObject(response) && Array.isArray(response.trend) ? response.trend : [];
  if (trend.length === 0) throw new Error(`No historical C-Score data available for ${ticker}`);
  const valid = trend.filter(isObject).filter((raw) => {
    const score = numericScore(raw.cScore);
    return score !== null && score !== 0;
  });
  if (valid.length === 0) throw new Error(`No valid C-Score values available for ${ticker}`);
  return valid.map(toTrendPoint).sort(byDate);
}

/** ISO date of a chart point: 'yy-mm-dd' gains '20', a leading '19' becomes '20'; null when still not a calendar date. */
function normalizeChartDate(raw: string): string | null {
  let date = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? raw.slice(0, 10) : raw;
  if (/^\d{2}-\d{2}-\d{2}$/.test(date)) date = `20${date}`;
  else if (/^19\d{2}-\d{2}-\d{2}$/.test(date)) date = `20${date.slice(2)}`;
  return isCalendarDate(date) ? date : null;
}

/** The C-Score a chart point draws: a string is parsed as a float, anything missing or unparsable is 0. */
function chartScore(value: unknown): number {
  const parsed = typeof value === 'string' ? Number.parseFloat(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : 0;
}

/** Kind of a raw point from its flags; the first flag set wins, in the order current, previous, 7d-avg, 14d-avg. */
function pointType(raw: Record<string, unknown>): TrendPointType {
  if (raw.isCurrentDay === true) return 'current';
  if (raw.isYesterday === true) return 'previous';
  if (raw.is7DayAvg === true) return '7d-avg';
  if (raw.is14DayAvg === true) return '14d-avg';
  return 'historical';
}

/** X-axis label of a chart point: '7D Avg', '14D Avg' or month/day. */
export function trendAxisLabel(type: TrendPointType, date: string): string {
  if (type === '7d-avg' || type === '14d-avg') return TREND_AVERAGE_AXIS_LABELS[type];
  return formatMonthDay(date);
}

/** Tooltip of a chart point: the heading (date, or '7-Day Average' / '14-Day Average') and the label of the value. */
export function trendTooltip(point: ChartPoint): { heading: string; label: string } {
  const heading =
    point.type === '7d-avg' || point.type === '14d-avg' ? TREND_AVERAGE_HEADINGS[point.type] : point.dateLabel;
  return { heading, label: TREND_TOOLTIP_LABELS[point.type] };
}

/**
 * Chart points in drawing order: the 14-day average, the 7-day average, historical points by date (a point that
 * came without a date first), the current day last. The order is not by date, so plot by index, not by time.
 * A missing or invalid date is replaced with the UTC calendar date of `today` and reported in `warnings`.
 */
export function toChartPoints(points: unknown, today: Date = new Date()): ChartData {
  const warnings: string[] = [];
  if (!Array.isArray(points) || points.length === 0) return { points: [], warnings };
  const todayIso = today.toISOString().slice(0, 10);

  const prepared = points.flatMap((raw: unknown, index) => {
    if (!isObject(raw)) {
      warnings.push(`Trend point ${index + 1} is not an object and was skipped.`);
      return [];
    }
    const rawDate = typeof raw.date === 'string' ? raw.date.trim() : '';
    // No "+1 day" shift as the spec's source app does: that undid its own UTC-parse-then-local-display bug,
    // and we format calendar dates in UTC, so the label already equals the report date.
    let date = normalizeChartDate(rawDate);
    if (date === null) {
      warnings.push(
        rawDate === ''
          ? `Trend point ${index + 1} has no date; shown on today's date ${todayIso}.`
          : `Trend point ${index + 1} has an invalid date "${rawDate}"; shown on today's date ${todayIso}.`,
      );
      date = todayIso;
    }
    const type = pointType(raw);
    const point: ChartPoint = {
      date,
      cScore: chartScore(raw.cScore),
      type,
      axisLabel: trendAxisLabel(type, date),
      dateLabel: formatDate(date),
    };
    return [{ lacksDate: rawDate === '', point }];
  });

  prepared.sort((a, b) => Number(!a.lacksDate) - Number(!b.lacksDate) || byDate(a.point, b.point));
  const sorted = prepared.map((p) => p.point);
  const ofType = (type: TrendPointType) => sorted.filter((p) => p.type === type);
  return {
    points: [
      ...ofType('14d-avg'),
      ...ofType('7d-avg'),
      ...sorted.filter((p) => p.type === 'historical' || p.type === 'previous'),
      ...ofType('current'),
    ],
    warnings,
  };
}

/** Colour of the whole trend line, by the current C-Score only: bullish, bearish or neutral. */
export function trendColor(currentScore: number | null | undefined): SignalDirection {
  return signalDirection(currentScore);
}

/** One ticker's C-Scores on the last report dates it was in, oldest first. */
export function tickerTrend(history: SignalHistory, record: SignalRecord, points: number): { date: string; cScore: number }[] {
  const series = history.scores[record.ticker] ?? [];
  const last = history.dates.length - 1;
  const trend: { date: string; cScore: number }[] = [];
  // From the newest report back: a card wants the last few of more than a thousand dates.
  for (let i = last; i >= 0 && trend.length < points; i -= 1) {
    const score = i === last ? record.cScore : series[i];
    if (score !== null && score !== undefined) trend.push({ date: history.dates[i]!, cScore: score });
  }
  return trend.reverse();
}
