/**
 * How old the report is, in NYSE trading days, at a moment. A trading day counts from its session's opening bell
 * (09:30 New York): before the bell the day's report may not be out yet, so the previous trading day's is current.
 * A report is current when no session has opened after its date; it is stale (for /api/health) past one such session.
 * The browser gets the same rule as data: the opening times of the sessions after the report (`sessionOpensAfter`),
 * so counting those at or before its clock gives the same age without a calendar in the page.
 */
import { isTradingDay } from './calendar';

const DAY_MS = 86_400_000;
const ISO_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Sessions after the report that the page carries; an older report says "more than" this many. */
export const SESSION_OPENS_CARRIED = 20;

/** Past this many trading days, /api/health says `stale`. */
export const STALE_AFTER_TRADING_DAYS = 1;

function assertIso(iso: string): void {
  if (!ISO_RE.test(iso) || Number.isNaN(Date.parse(`${iso}T00:00:00Z`))) throw new RangeError(`expected a date as yyyy-mm-dd, got "${iso}"`);
}

function nextDay(iso: string): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

let nyHour: Intl.DateTimeFormat | undefined;

/** The opening bell (09:30 New York, EST or EDT) of the session on `iso`, in ms since the epoch. */
export function sessionOpenMs(iso: string): number {
  assertIso(iso);
  // 09:30 EST is 14:30 UTC; when New York is on EDT that instant reads 10:30 there, so the bell is an hour earlier.
  const est = Date.parse(`${iso}T14:30:00Z`);
  nyHour ??= new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' });
  return Number(nyHour.format(est)) === 10 ? est - 3_600_000 : est;
}

/** The opening bells of the first `count` trading days after `reportDate`, ascending (by default, what a page carries). */
export function sessionOpensAfter(reportDate: string, count = SESSION_OPENS_CARRIED + 1): number[] {
  assertIso(reportDate);
  const opens: number[] = [];
  for (let day = nextDay(reportDate); opens.length < count; day = nextDay(day)) {
    if (isTradingDay(day)) opens.push(sessionOpenMs(day));
  }
  return opens;
}

/** The sessions among `opens` (the bells after a report) that have opened at `nowMs`: the page's script counts so too. */
export function sessionsOpened(opens: readonly number[], nowMs: number): number {
  return opens.filter((open) => open <= nowMs).length;
}

/** The report's age at `nowMs`: the trading sessions opened after its date (at most `SESSION_OPENS_CARRIED + 1`). */
export function tradingDaysBehind(reportDate: string, nowMs: number): number {
  return sessionsOpened(sessionOpensAfter(reportDate), nowMs);
}

/** How the site speaks of the report's day at a moment. */
export interface ReportDay {
  reportDate: string;
  /** Trading sessions opened since the report's date; 0 is the latest trading day's report. */
  behind: number;
  /** The report is the latest trading day's: headings may say "today". */
  current: boolean;
  /** Past `STALE_AFTER_TRADING_DAYS`: /api/health answers `stale`. */
  stale: boolean;
}

export function reportDay(reportDate: string, nowMs: number): ReportDay {
  const behind = tradingDaysBehind(reportDate, nowMs);
  return { reportDate, behind, current: behind === 0, stale: behind > STALE_AFTER_TRADING_DAYS };
}

/** "1 trading day ago", "4 trading days ago", "more than 20 trading days ago". */
export function tradingDaysAgo(behind: number): string {
  if (behind > SESSION_OPENS_CARRIED) return `more than ${SESSION_OPENS_CARRIED} trading days ago`;
  return `${behind} trading day${behind === 1 ? '' : 's'} ago`;
}
