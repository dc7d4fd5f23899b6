/**
 * The demo provider's prices: one daily series per ticker, a pure function of the ticker and the trading day. The demo
 * bars, the demo quote (its previous close, open, range and price) and the daily job's demo closes all read it, so
 * every page that shows a ticker's close on a day shows the same number. Only NYSE trading days have a bar.
 */
import { isTradingDay, tradingDaysEnding } from './calendar';
import type { Bar, Quote } from './market';

const DAY_MS = 86_400_000;
/** Days the walk runs before the day asked for, so each day's price depends on the ones before it. */
const WALK_DAYS = 60;

/** 32-bit FNV-1a hash of a text. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) fixed by the seed text. */
function unit(seed: string): number {
  let t = (hash(seed) + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(date: string): number {
  const ms = ISO_DAY.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`expected a date as yyyy-mm-dd, got "${date}"`);
  return ms / DAY_MS;
}

/** The calendar day (yyyy-mm-dd, UTC) of a clock reading in ms: the demo provider's "today". */
export function isoDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day before an ISO date. */
function dayBefore(date: string): string {
  return isoDayOf((dayNumber(date) - 1) * DAY_MS);
}

/** The last trading day on or before `date` (the session a quote on that day belongs to). */
export function sessionDay(date: string): string {
  return tradingDaysEnding(date, 1)[0]!;
}

/** The last trading day strictly before `date`. */
export function tradingDayBefore(date: string): string {
  return sessionDay(dayBefore(date));
}

/**
 * The demo close of a ticker on a day (yyyy-mm-dd): a mean-reverting walk around a per-ticker base price, always
 * positive. Defined for every calendar day; only trading days' closes are ever shown.
 */
export function demoClose(ticker: string, date: string): number {
  const day = dayNumber(date);
  const base = 20 + unit(`${ticker}:base`) * 380;
  let level = 0;
  for (let d = day - WALK_DAYS; d <= day; d++) level = 0.9 * level + (unit(`${ticker}:${d}`) - 0.5) * 0.06;
  return round2(base * Math.exp(level));
}

/**
 * The demo bar of a ticker on a trading day: the close is `demoClose`, the open a small gap from the previous trading
 * day's close, and the range holds both.
 */
export function demoBar(ticker: string, date: string): Bar {
  if (!isTradingDay(date)) throw new RangeError(`${date} is not an NYSE trading day: the demo series has no bar for it`);
  const day = dayNumber(date);
  const close = demoClose(ticker, date);
  const previous = demoClose(ticker, tradingDayBefore(date));
  const open = round2(previous * (1 + (unit(`${ticker}:${day}:open`) - 0.5) * 0.01));
  const spread = 0.005 + unit(`${ticker}:${day}:range`) * 0.015;
  return {
    t: day * DAY_MS,
    o: open,
    h: round2(Math.max(open, close) * (1 + spread)),
    l: round2(Math.min(open, close) * (1 - spread)),
    c: close,
    v: Math.round(500_000 + unit(`${ticker}:${day}:volume`) * 20_000_000),
  };
}

/** The demo bars of a ticker on the trading days from `from` to `to` (both included), oldest first. */
export function demoBars(ticker: string, from: string, to: string): Bar[] {
  const bars: Bar[] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day++) {
    const date = isoDayOf(day * DAY_MS);
    if (isTradingDay(date)) bars.push(demoBar(ticker, date));
  }
  return bars;
}

/**
 * The demo quote of a ticker on the calendar day `today`: the session is the last trading day on or before it; the
 * price is the session's close, a move from the previous close (the last close before the session, which on a trading
 * day is the last close before today), with the session's open, range and volume.
 */
export function demoQuote(ticker: string, today: string, fetchedAt: string): Quote {
  const session = sessionDay(today);
  const bar = demoBar(ticker, session);
  const previousClose = demoClose(ticker, tradingDayBefore(session));
  const change = round2(bar.c - previousClose);
  return {
    symbol: ticker,
    regularMarketPrice: bar.c,
    regularMarketChange: change,
    regularMarketChangePercent: round2((change / previousClose) * 100),
    regularMarketPreviousClose: previousClose,
    regularMarketOpen: bar.o,
    regularMarketDayLow: bar.l,
    regularMarketDayHigh: bar.h,
    regularMarketVolume: bar.v,
    fetchedAt,
    sessionDate: session,
    isDemo: true,
  };
}
