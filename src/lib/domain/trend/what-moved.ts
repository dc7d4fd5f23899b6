/**
 * "What moved": each supporting score (Delta, Market, Accuracy, Relevance) with its change since the previous report
 * and over the last MOVED_REPORTS reports, from the archived exports' records, so a reader sees why the C-Score moved.
 */
import { z } from '../zod';
import type { SignalRecord } from '../report/record';
import { formatDate } from '../text/format';

/** Reports the longer change spans. */
export const MOVED_REPORTS = 5;

/** The supporting scores, in the order the export and the pages name them. */
export const SUB_SCORES = [
  { key: 'deltaScore', label: 'Delta' },
  { key: 'marketScore', label: 'Market' },
  { key: 'accuracyScore', label: 'Accuracy' },
  { key: 'relevanceScore', label: 'Relevance' },
] as const satisfies readonly { key: keyof SignalRecord; label: string }[];

/** One ticker's four supporting scores on one report, in SUB_SCORES order. */
const SubScoresSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type SubScores = z.infer<typeof SubScoresSchema>;

/**
 * The supporting scores of the last MOVED_REPORTS + 1 reports: `dates` ascending, and per ticker of the latest report
 * one entry a date (null: the ticker was not in that report).
 */
export const SubScoreHistorySchema = z.object({
  dates: z.array(z.string()),
  values: z.record(z.string(), z.array(SubScoresSchema.nullable())),
});
export type SubScoreHistory = z.infer<typeof SubScoreHistorySchema>;

function subScoresOf(record: SignalRecord): SubScores {
  return [record.deltaScore, record.marketScore, record.accuracyScore, record.relevanceScore];
}

/**
 * The sub-score history of the reports `byDate` holds (report date to that report's records): its last
 * MOVED_REPORTS + 1 dates, for the tickers of the latest one.
 */
export function subScoreHistory(byDate: ReadonlyMap<string, readonly SignalRecord[]>): SubScoreHistory {
  const dates = [...byDate.keys()].sort().slice(-(MOVED_REPORTS + 1));
  const indexes = dates.map((date) => new Map(byDate.get(date)!.map((r) => [r.ticker, r])));
  const values: SubScoreHistory['values'] = {};
  for (const ticker of indexes.at(-1)?.keys() ?? []) {
    values[ticker] = indexes.map((index) => {
      const record = index.get(ticker);
      return record ? subScoresOf(record) : null;
    });
  }
  return { dates, values };
}

/** One supporting score's line of "What moved". */
export interface MovedRow {
  label: (typeof SUB_SCORES)[number]['label'];
  current: number;
  /** Minus its value on the previous report; null when the ticker was not in it or there is none. */
  sincePrevious: number | null;
  /** Minus its value `span` reports earlier; null when the ticker was not in that report or there is none. */
  overSpan: number | null;
}

/** "What moved" for one ticker. */
export interface WhatMoved {
  rows: MovedRow[];
  /** How many reports back the longer change reaches: MOVED_REPORTS, fewer when the history is shorter. */
  span: number;
  /** The previous report's date and the date `span` reports back (null without one). */
  previousDate: string | null;
  spanDate: string | null;
  /** The sentence that says the history is shorter than MOVED_REPORTS earlier reports; null when it is not. */
  shortNote: string | null;
}

function rounded(value: number): number {
  return Math.round(value * 100) / 100;
}

/** What moved for `ticker`, or null when the history has no record of it on its latest report. */
export function whatMoved(history: SubScoreHistory, ticker: string): WhatMoved | null {
  const series = history.values[ticker];
  const current = series?.at(-1);
  if (!series || !current) return null;
  const span = Math.min(MOVED_REPORTS, series.length - 1);
  const previous = span >= 1 ? series.at(-2) : null;
  const earlier = span >= 1 ? series[series.length - 1 - span] : null;
  const rows = SUB_SCORES.map(({ label }, i) => ({
    label,
    current: current[i]!,
    sincePrevious: previous ? rounded(current[i]! - previous[i]!) : null,
    overSpan: earlier ? rounded(current[i]! - earlier[i]!) : null,
  }));
  const dates = history.dates;
  const shortNote =
    span >= MOVED_REPORTS
      ? null
      : span === 0
        ? 'The archive holds one report only: no change to show yet.'
        : `The archive holds ${span + 1} reports, so the longer change spans ${span} ${span === 1 ? 'report' : 'reports'}, not ${MOVED_REPORTS}.`;
  return {
    rows,
    span,
    previousDate: span >= 1 ? (dates.at(-2) ?? null) : null,
    spanDate: span >= 1 ? (dates[dates.length - 1 - span] ?? null) : null,
    shortNote,
  };
}

/** The heading of the longer change's column: "5 reports" (since Nov 13, 2026). */
export function spanHeading(moved: WhatMoved): string {
  return `${moved.span} ${moved.span === 1 ? 'report' : 'reports'}`;
}

/** The title of the longer change: since which report it counts. */
export function spanTitle(moved: WhatMoved): string {
  return moved.spanDate ? `Change since the report of ${formatDate(moved.spanDate)}` : 'No earlier report';
}

/** One ticker's part of the sub-score history (what its static metrics file carries), or null when it has none. */
export function tickerSubScores(history: SubScoreHistory | undefined, ticker: string): SubScoreHistory | null {
  const series = history?.values[ticker];
  return history && series ? { dates: history.dates, values: { [ticker]: series } } : null;
}
