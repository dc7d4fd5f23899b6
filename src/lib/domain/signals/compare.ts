/**
 * /compare?t=AAPL,MSFT,NVDA: up to COMPARE_MAX stocks side by side. The address's ticker list (order kept, shareable),
 * the colours and line styles that tell the stocks apart, price rebased to 100, and each stock's table row.
 */
import { isTicker } from '../report/ticker';
import type { SignalRecord } from '../report/record';
import { asciiUpper } from '../text/text';
import { classifySignal, scoreChange, signalDirection, type SignalClass, type SignalDirection } from './signal';

/** The most stocks one comparison shows. */
export const COMPARE_MAX = 5;

/** The query parameter that lists the tickers. */
export const COMPARE_PARAM = 't';

/** The page's address. */
export const COMPARE_PATH = '/compare';

/** What an address's ticker list holds: the tickers shown, in order, and what was left out and why. */
export interface CompareSelection {
  /** Well-formed tickers, upper case, de-duplicated, the first COMPARE_MAX in the order given. */
  tickers: string[];
  /** Entries that are no ticker at all, as given (trimmed). */
  malformed: string[];
  /** Well-formed tickers beyond the first COMPARE_MAX. */
  dropped: string[];
}

/** Reads `t`: comma- or space-separated tickers, any case; duplicates and empty entries are skipped. */
export function parseCompareTickers(raw: string | null | undefined): CompareSelection {
  const tickers: string[] = [];
  const malformed: string[] = [];
  const dropped: string[] = [];
  for (const part of (raw ?? '').split(/[\s,]+/)) {
    const entry = part.trim();
    if (entry === '') continue;
    const ticker = asciiUpper(entry);
    if (!isTicker(ticker)) {
      if (!malformed.includes(entry)) malformed.push(entry);
      continue;
    }
    if (tickers.includes(ticker) || dropped.includes(ticker)) continue;
    (tickers.length < COMPARE_MAX ? tickers : dropped).push(ticker);
  }
  return { tickers, malformed, dropped };
}

/** The address comparing `tickers` (the commas stay readable: a ticker never needs escaping). */
export function compareHref(tickers: readonly string[]): string {
  return tickers.length === 0 ? COMPARE_PATH : `${COMPARE_PATH}?${COMPARE_PARAM}=${tickers.join(',')}`;
}

/** The notice for what an address asked for and the page cannot show; null when it shows everything. */
export function selectionNotice(selection: CompareSelection, unknown: readonly string[] = []): string | null {
  const parts: string[] = [];
  const quoted = (list: readonly string[]) => list.map((t) => `"${t}"`).join(', ');
  if (selection.malformed.length > 0) parts.push(`Not a ticker: ${quoted(selection.malformed)}.`);
  if (unknown.length > 0) parts.push(`Not in the latest report: ${unknown.join(', ')}.`);
  if (selection.dropped.length > 0) {
    parts.push(`A comparison shows at most ${COMPARE_MAX} stocks: showing the first ${COMPARE_MAX}, left out ${selection.dropped.join(', ')}.`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}

/** One stock's look on the chart: a colour, and a line style and marker so colour is never the only difference. */
export interface CompareStyle {
  color: string;
  /** lightweight-charts' LineStyle: 0 solid, 1 dotted, 2 dashed, 3 large dashed, 4 sparse dotted. */
  lineStyle: 0 | 1 | 2 | 3 | 4;
  /** The SVG stroke-dasharray of the same style, for the legend. */
  dash: string;
  /** The legend's marker, also spoken. */
  marker: string;
  markerName: string;
}

/** The five stocks' styles, in the order of the address (colours apart in both themes and for colour-blind readers). */
export const COMPARE_STYLES: readonly CompareStyle[] = [
  { color: '#2563eb', lineStyle: 0, dash: '', marker: '●', markerName: 'circle' },
  { color: '#d97706', lineStyle: 2, dash: '6 3', marker: '■', markerName: 'square' },
  { color: '#9333ea', lineStyle: 1, dash: '2 3', marker: '▲', markerName: 'triangle' },
  { color: '#0d9488', lineStyle: 3, dash: '10 4', marker: '◆', markerName: 'diamond' },
  { color: '#db2777', lineStyle: 4, dash: '2 6', marker: '✚', markerName: 'cross' },
];

/** A dated value. */
export interface DatedValue {
  date: string;
  value: number;
}

/**
 * Closes rebased to 100 on the first shown day: each close over the close of the first day on or after `from`,
 * times 100, rounded to 2 decimals; days before `from`, unusable closes and a zero base are left out. Sorted by date,
 * one value a date (the later one of two).
 */
export function rebaseTo100(closes: readonly DatedValue[], from: string): DatedValue[] {
  const byDate = new Map<string, number>();
  for (const c of closes) if (c.date >= from && Number.isFinite(c.value) && c.value > 0) byDate.set(c.date, c.value);
  const days = [...byDate.keys()].sort();
  const base = days.length > 0 ? byDate.get(days[0]!)! : 0;
  if (base <= 0) return [];
  return days.map((date) => ({ date, value: Math.round((byDate.get(date)! / base) * 10_000) / 100 }));
}

/** The first shown day: the latest of the stocks' first days, so every line starts on it (null with none). */
export function firstSharedDay(series: readonly (readonly DatedValue[])[]): string | null {
  const firsts = series.filter((s) => s.length > 0).map((s) => s.reduce((min, p) => (p.date < min ? p.date : min), s[0]!.date));
  return firsts.length === 0 ? null : firsts.reduce((max, d) => (d > max ? d : max));
}

/** One stock's row of the comparison table. */
export interface CompareRow {
  ticker: string;
  companyName: string;
  cScore: number;
  signal: SignalClass;
  direction: SignalDirection;
  /** Today's C-Score minus yesterday's. */
  change: number | null;
  delta: number;
  market: number;
  accuracy: number;
  relevance: number;
  avg7: number;
  avg14: number;
  days7: number;
  days14: number;
  sector: string | null;
}

/** A record's row of the comparison table. */
export function compareRow(record: SignalRecord): CompareRow {
  return {
    ticker: record.ticker,
    companyName: record.companyName,
    cScore: record.cScore,
    signal: classifySignal(record.cScore),
    direction: signalDirection(record.cScore),
    change: scoreChange(record.cScore, record.yesterdayCScore),
    delta: record.deltaScore,
    market: record.marketScore,
    accuracy: record.accuracyScore,
    relevance: record.relevanceScore,
    avg7: record.avgCScoreL7D,
    avg14: record.avgCScoreL14D,
    days7: record.countL7DWithSignal,
    days14: record.countL14DWithSignal,
    sector: record.sector ?? null,
  };
}

/** The tickers after adding one (at the end, unless present or full) or removing one; the order of the rest is kept. */
export function withTicker(tickers: readonly string[], ticker: string): string[] {
  const t = asciiUpper(ticker.trim());
  if (!isTicker(t) || tickers.includes(t) || tickers.length >= COMPARE_MAX) return [...tickers];
  return [...tickers, t];
}

/** The tickers without `ticker`, the order of the rest kept. */
export function withoutTicker(tickers: readonly string[], ticker: string): string[] {
  return tickers.filter((t) => t !== ticker);
}

/** Calendar days the comparison spans, ending on the report date: the longest window of the live daily-bars route. */
export const COMPARE_DAYS = 31;

/** The comparison's window: COMPARE_DAYS calendar days ending on the report date, or on `today` if that is earlier. */
export function compareWindow(reportDate: string, today: string): { from: string; to: string } {
  const to = reportDate < today ? reportDate : today;
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (COMPARE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}
