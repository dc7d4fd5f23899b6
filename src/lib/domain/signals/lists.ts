/**
 * The signal lists of DESIGN.md "Lists", derived from the signal history. D is the latest report date and
 * "qualified" means bullish or bearish (isQualified). Every list holds tickers of the latest report only, so each row has a
 * record and a /signal/{ticker} page.
 */
import { formatDate } from '../text/format';
import type { SignalHistory, SignalRecord } from '../report/schemas';
import { isQualified, signalDirection } from './signal';

/** How many of the latest reports "recently" covers: Recently Qualified and Reversals & Exits. */
export const RECENT_REPORTS = 5;

/** Direction of a qualified signal. */
export type QualifiedDirection = 'bullish' | 'bearish';

/** A ticker still qualified on D and the report date on which it became qualified. */
export interface RecentSignal {
  record: SignalRecord;
  since: string;
}

/** The two sections of Recently Qualified. */
export interface RecentlyQualified {
  /** Qualified on D and not on the report before (absent counts as not qualified). */
  newToday: SignalRecord[];
  /** Became qualified on one of the last 5 reports, D included, and qualified ever since. */
  recent: RecentSignal[];
}

/** The columns Recently Qualified shows after the ticker: the date a stock qualified, and whether it is new on the latest report. */
export const RECENTLY_QUALIFIED_COLUMNS = [
  { key: 'since', label: 'Qualified on', kind: 'text' },
  { key: 'newToday', label: 'New', kind: 'text', width: 6 },
] as const;

/** The cells of those columns for one stock (each stock is one row: `recent` holds the new ones too). */
export function recentlyQualifiedCells(signal: RecentSignal, isNew: boolean): { text: string; sortValue: string }[] {
  return [
    { text: formatDate(signal.since), sortValue: signal.since },
    { text: isNew ? 'Yes' : 'No', sortValue: isNew ? '1' : '0' },
  ];
}

/** A marker a list row shows after its ticker: visible text, and the fuller words screen readers hear after it. */
export interface RowMarker {
  kind: 'top' | 'new';
  text: string;
  spoken: string;
  /** The same titles as the stock page's star and dot (spec section 2). */
  title: string;
}

/** The row's markers: "Top" for a top ticker, "New" for a new signal (spec section 3's isTopTicker and _signalChangeType). */
export function rowMarkers(record: Pick<SignalRecord, 'isTopTicker' | '_signalChangeType'>): RowMarker[] {
  const markers: RowMarker[] = [];
  if (record.isTopTicker) markers.push({ kind: 'top', text: 'Top', spoken: ' signal', title: 'Top Signal' });
  if (record._signalChangeType === 'new') markers.push({ kind: 'new', text: 'New', spoken: ' signal', title: 'New Signal' });
  return markers;
}

/** How many stocks rows name: a ticker with two events on Reversals & Exits is one stock. */
export function stockCount(tickers: Iterable<string>): number {
  return new Set(tickers).size;
}

/** A qualified signal that fell back to neutral on `date`. */
export interface SignalExit {
  ticker: string;
  from: QualifiedDirection;
  to: 'neutral';
  date: string;
}

/** A qualified signal that turned to the opposite direction on `date`. */
export interface SignalReversal {
  ticker: string;
  from: QualifiedDirection;
  to: QualifiedDirection;
  date: string;
}

/** The two lists of Reversals & Exits, newest first. */
export interface ReversalsAndExits {
  exits: SignalExit[];
  reversals: SignalReversal[];
}

/** A record's C-Score on every report date, null where it was not in the report; on D the record's own score. */
function scoresOf(history: SignalHistory, record: SignalRecord): (number | null)[] {
  const scores = history.scores[record.ticker] ?? [];
  const last = history.dates.length - 1;
  return history.dates.map((_, i) => (i === last ? record.cScore : (scores[i] ?? null)));
}

function byTicker(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Strongest conviction first: |C| descending, then bullish before bearish, then ticker. */
function byConviction(a: SignalRecord, b: SignalRecord): number {
  return Math.abs(b.cScore) - Math.abs(a.cScore) || b.cScore - a.cScore || byTicker(a.ticker, b.ticker);
}

/** Every ticker of the latest report, C-Score descending, ticker ascending on ties. */
export function allSignals(history: SignalHistory): SignalRecord[] {
  return [...history.latest].sort((a, b) => b.cScore - a.cScore || byTicker(a.ticker, b.ticker));
}

/** Tickers qualified on the latest report, bullish and bearish together, |C| descending. */
export function currentlyQualified(history: SignalHistory): SignalRecord[] {
  return history.latest.filter((r) => isQualified(r.cScore)).sort(byConviction);
}

/**
 * New signals (qualified on D, not on the report before) and signals that became qualified on one of the last
 * 5 reports and still are, with that date. `recent` includes the new ones (since = D); a bullish-to-bearish flip
 * is not "becoming qualified", so `since` is the last report on which the ticker turned from not qualified to qualified.
 */
export function recentlyQualified(history: SignalHistory): RecentlyQualified {
  const count = history.dates.length;
  const last = count - 1;
  const firstRecent = Math.max(0, count - RECENT_REPORTS);
  const newToday: SignalRecord[] = [];
  const recent: RecentSignal[] = [];
  if (count === 0) return { newToday, recent };

  for (const record of history.latest) {
    const scores = scoresOf(history, record);
    if (!isQualified(scores[last])) continue;
    if (!isQualified(scores[last - 1])) newToday.push(record);
    let crossing = last;
    while (crossing > 0 && isQualified(scores[crossing - 1])) crossing -= 1;
    const since = history.dates[crossing];
    if (crossing >= firstRecent && since !== undefined) recent.push({ record, since });
  }
  newToday.sort(byConviction);
  recent.sort((a, b) => byTicker(b.since, a.since) || byConviction(a.record, b.record));
  return { newToday, recent };
}

/**
 * Exits and reversals within the last `window` reports, newest first (then by ticker).
 * Exit: qualified on one report and scored but not qualified on the next (a ticker missing from the next report
 * has no known score and is not an exit). Reversal: qualified in one direction and later in the other, with or
 * without neutral reports between; a flip on consecutive reports is a reversal only, never an exit, as the
 * ticker is still qualified.
 */
export function reversalsAndExits(history: SignalHistory, window: number = RECENT_REPORTS): ReversalsAndExits {
  const exits: SignalExit[] = [];
  const reversals: SignalReversal[] = [];
  const start = Math.max(0, history.dates.length - window);

  for (const record of history.latest) {
    const scores = scoresOf(history, record);
    let lastQualified: QualifiedDirection | null = null;
    for (let i = start; i < history.dates.length; i += 1) {
      const date = history.dates[i];
      const score = scores[i];
      if (date === undefined || score === null || score === undefined) continue;
      const direction = signalDirection(score);
      const before = i > start ? scores[i - 1] : null;
      const beforeDirection = signalDirection(before);
      if (beforeDirection !== 'neutral' && direction === 'neutral') {
        exits.push({ ticker: record.ticker, from: beforeDirection, to: 'neutral', date });
      }
      if (direction !== 'neutral') {
        if (lastQualified !== null && lastQualified !== direction) {
          reversals.push({ ticker: record.ticker, from: lastQualified, to: direction, date });
        }
        lastQualified = direction;
      }
    }
  }
  const newestFirst = (a: { date: string; ticker: string }, b: { date: string; ticker: string }) =>
    byTicker(b.date, a.date) || byTicker(a.ticker, b.ticker);
  return { exits: exits.sort(newestFirst), reversals: reversals.sort(newestFirst) };
}

/** The latest records, in their order, with `_signalChangeType: 'new'` on the new signals and on no others. */
export function withSignalChangeType(history: SignalHistory): SignalRecord[] {
  const newTickers = new Set(recentlyQualified(history).newToday.map((r) => r.ticker));
  return history.latest.map((record) => {
    const copy: SignalRecord = { ...record };
    if (newTickers.has(record.ticker)) copy._signalChangeType = 'new';
    else delete copy._signalChangeType;
    return copy;
  });
}
