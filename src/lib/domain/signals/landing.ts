/**
 * The landing page's figures: the day in numbers, today's top signals and the strongest new
 * signals, from the same lists the list pages show (one source per number).
 */
import { recentlyQualified, reversalsAndExits } from './lists';
import type { SignalHistory, SignalRecord } from '../report/schemas';
import { signalDirection } from './signal';

/** How many top-signal cards the landing page shows. */
export const TOP_SIGNAL_CARDS = 6;
/** How many new signals it shows. */
export const NEW_SIGNAL_CARDS = 5;
/** How many rows of the All Signals table the landing page shows (its top, C-Score descending); the rest is at /all-signals. */
export const LANDING_TABLE_ROWS = 20;

/** The top of the All Signals table for the landing page: its first LANDING_TABLE_ROWS rows, in the table's order. */
export function landingTableRows<T>(rows: readonly T[], count: number = LANDING_TABLE_ROWS): T[] {
  return rows.slice(0, count);
}

/** The latest report in numbers: qualified stocks by direction, new signals, and the exits and reversals of that day. */
export interface DayInNumbers {
  date: string;
  bullish: number;
  bearish: number;
  newToday: number;
  exits: number;
  reversals: number;
}

/** Counts the latest report's qualified stocks, its new signals, and the exits and reversals dated that day. */
export function dayInNumbers(history: SignalHistory): DayInNumbers {
  const date = history.dates.at(-1) ?? '';
  const directions = history.latest.map((r) => signalDirection(r.cScore));
  const events = reversalsAndExits(history);
  return {
    date,
    bullish: directions.filter((d) => d === 'bullish').length,
    bearish: directions.filter((d) => d === 'bearish').length,
    newToday: recentlyQualified(history).newToday.length,
    exits: events.exits.filter((e) => e.date === date).length,
    reversals: events.reversals.filter((e) => e.date === date).length,
  };
}

const byStrength = (a: SignalRecord, b: SignalRecord) => Math.abs(b.cScore) - Math.abs(a.cScore) || (a.ticker < b.ticker ? -1 : 1);

/** Today's top signals among `shown` (the rows a visitor may see): the top tickers, strongest |C-Score| first. */
export function topSignalCards(shown: readonly SignalRecord[], count: number = TOP_SIGNAL_CARDS): SignalRecord[] {
  return shown.filter((r) => r.isTopTicker).sort(byStrength).slice(0, count);
}

/** The strongest of today's new signals among `shown`, |C-Score| first. */
export function strongestNewSignals(history: SignalHistory, shown: readonly SignalRecord[], count: number = NEW_SIGNAL_CARDS): SignalRecord[] {
  const visible = new Map(shown.map((r) => [r.ticker, r]));
  return recentlyQualified(history)
    .newToday.flatMap((r) => visible.get(r.ticker) ?? [])
    .sort(byStrength)
    .slice(0, count);
}
