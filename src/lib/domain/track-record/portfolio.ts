/**
 * The model portfolio of the track record, live only: from the first archived report on, equal weight across every
 * qualified signal, long the bullish and short the bearish, each entered at the close of the report it qualified on
 * and held until the close of the report it stopped qualifying on; the weights are reset to equal every day and each
 * change of weight is a trade charged `costBps` of the amount traded. Pure; hand-checked in tests/unit/track-portfolio.test.ts.
 */
import { z } from '../zod';
import { upperIndex, type LedgerEntry, type SignalSide } from './track-record';

/** Trading days a year: the annualising factor of returns, volatility, Sharpe and turnover. */
export const TRADING_DAYS_PER_YEAR = 252;

/** One day of the equity curve: the portfolio's and the benchmark's value, both 1 on the first day. */
export interface EquityPoint {
  date: string;
  equity: number;
  /** Null when the benchmark has no close yet. */
  benchmark: number | null;
}

/** The portfolio's curve and figures. */
export interface Portfolio {
  /** The first day (the first archived report's close) and the last. */
  start: string;
  end: string;
  costBps: number;
  points: EquityPoint[];
  totalReturn: number;
  /** Null under one day of returns. */
  annualisedReturn: number | null;
  /** Annualised standard deviation of the daily returns; null under 2 days. */
  volatility: number | null;
  /** Mean daily return over its standard deviation, annualised, with no risk-free rate; null without variation. */
  sharpe: number | null;
  /** The largest fall from a peak, as a positive fraction. */
  maxDrawdown: number;
  /** The amount traded a year as a multiple of the portfolio (each weight change counted once). */
  turnover: number;
  /** The benchmark's change over the same days, or null. */
  benchmarkReturn: number | null;
}

/** What the portfolio is computed from: the trading days, each ticker's closes aligned with them, the ledger. */
export interface PortfolioInput {
  days: readonly string[];
  closes: Readonly<Record<string, readonly (number | null)[]>>;
  entries: readonly Pick<LedgerEntry, 'ticker' | 'date' | 'direction' | 'exitDate'>[];
  /** The first archived report's date: the portfolio never starts before it. */
  firstReport: string;
  costBps: number;
  benchmark?: readonly (number | null)[] | null;
}

interface Position {
  sign: 1 | -1;
  /** Held over the days (entry, exit]: it earns from the day after its entry close through its exit close (days.length: still open). */
  entry: number;
  exit: number;
  /** The last close it was valued at. */
  last: number;
  /** Its ticker's closes over the days it earns, (entry, exit]: `window[t - entry - 1]` is day t's. */
  window: readonly (number | null)[];
}

/** The close on or before day `i` of a ticker (the last close of one that stopped trading), or null. */
function closeAt(list: readonly (number | null)[] | undefined, i: number): number | null {
  if (!list) return null;
  for (let j = i; j >= 0; j--) {
    const close = list[j];
    if (close != null && close > 0) return close;
  }
  return null;
}

const signOf = (direction: SignalSide): 1 | -1 => (direction === 'bullish' ? 1 : -1);

/** The model portfolio, or null when no trading day falls on or after the first report. */
export function modelPortfolio(input: PortfolioInput): Portfolio | null {
  const { days, closes, costBps } = input;
  const first = days.findIndex((day) => day >= input.firstReport);
  // The first report's close is the last close on or before it: a report on a weekend starts at Friday's close.
  const start = first === -1 ? -1 : days[first] === input.firstReport ? first : Math.max(0, first - 1);
  if (start < 0 || days.length === 0 || start >= days.length) return null;
  // Positions by the day of their entry close: they are bought at that close and earn from the next day.
  const opening = new Map<number, Position[]>();
  // A ticker's closes may be built on each read (the daily job's matrix makes a list per read): each ticker's are read
  // once, and each position keeps only the closes of the days it is held.
  const entriesOf = new Map<string, (typeof input.entries)[number][]>();
  for (const e of input.entries) (entriesOf.get(e.ticker) ?? entriesOf.set(e.ticker, []).get(e.ticker)!).push(e);
  for (const [ticker, entries] of entriesOf) {
    const list = closes[ticker];
    for (const e of entries) {
      const entry = Math.max(upperIndex(days, e.date), start);
      // A signal still open is held past the last day: the curve charges no exit it has not made.
      const exit = e.exitDate === null ? days.length : upperIndex(days, e.exitDate);
      if (e.date < input.firstReport || upperIndex(days, e.date) < 0 || exit <= entry) continue;
      const last = closeAt(list, entry);
      if (last === null) continue;
      const window = list ? list.slice(entry + 1, exit + 1) : [];
      (opening.get(entry) ?? opening.set(entry, []).get(entry)!).push({ sign: signOf(e.direction), entry, exit, last, window });
    }
  }
  const rate = costBps / 10_000;
  const benchmark = input.benchmark ?? null;
  const benchStart = benchmark ? closeAt(benchmark, start) : null;

  // Every position weighs sign / N, N the positions held: a weight changes only with N, so a day's trade is the
  // positions kept times the change of 1/N, plus the weights of those that left and of those that came.
  let held = opening.get(start) ?? [];
  let turnover = held.length > 0 ? 1 : 0;
  let equity = 1 - rate * turnover;
  const points: EquityPoint[] = [{ date: days[start]!, equity, benchmark: benchStart === null ? null : 1 }];
  const dailyReturns: number[] = [];
  let peak = Math.max(1, equity);
  let maxDrawdown = 1 - equity / peak;
  for (let t = start + 1; t < days.length; t++) {
    let gross = 0;
    for (const p of held) {
      const close = p.window[t - p.entry - 1];
      if (close == null || close <= 0) continue;
      gross += p.sign * (close / p.last - 1);
      p.last = close;
    }
    const before = held.length;
    if (before > 0) gross /= before;
    const kept = held.filter((p) => p.exit > t);
    const came = opening.get(t) ?? [];
    const after = kept.length + came.length;
    const trade = (before > 0 && after > 0 ? kept.length * Math.abs(1 / after - 1 / before) : 0) + (before > 0 ? (before - kept.length) / before : 0) + (after > 0 ? came.length / after : 0);
    held = came.length > 0 ? kept.concat(came) : kept;
    turnover += trade;
    const value = equity * (1 + gross) * (1 - rate * trade);
    dailyReturns.push(value / equity - 1);
    equity = value;
    peak = Math.max(peak, equity);
    maxDrawdown = Math.max(maxDrawdown, 1 - equity / peak);
    const bench = benchmark && benchStart !== null ? closeAt(benchmark, t) : null;
    points.push({ date: days[t]!, equity, benchmark: bench === null || benchStart === null ? null : bench / benchStart });
  }
  const n = dailyReturns.length;
  const mean = n ? dailyReturns.reduce((a, b) => a + b, 0) / n : 0;
  const sd = n >= 2 ? Math.sqrt(dailyReturns.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1)) : null;
  const totalReturn = equity - 1;
  const lastBench = points.at(-1)!.benchmark;
  return {
    start: days[start]!,
    end: days.at(-1)!,
    costBps,
    points,
    totalReturn,
    annualisedReturn: n >= 1 ? (1 + totalReturn) ** (TRADING_DAYS_PER_YEAR / n) - 1 : null,
    volatility: sd === null ? null : sd * Math.sqrt(TRADING_DAYS_PER_YEAR),
    sharpe: sd === null || sd === 0 ? null : (mean / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR),
    maxDrawdown,
    turnover: n >= 1 ? (turnover / n) * TRADING_DAYS_PER_YEAR : turnover,
    benchmarkReturn: lastBench === null ? null : lastBench - 1,
  };
}

/** What the equity curve reads of /api/track-record: the portfolio's points (none before the first archived report). */
export const EquityCurveFileSchema = z.object({
  portfolio: z
    .object({ points: z.array(z.object({ date: z.string(), equity: z.number(), benchmark: z.number().nullable() })) })
    .nullish(),
});
