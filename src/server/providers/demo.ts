/**
 * The offline demo provider (DESIGN.md "API routes"): deterministic per ticker and day, no network. It never
 * invents facts about real companies: prices are a seeded walk flagged `isDemo`, P/E, EPS, dividend, beta and
 * market cap stay absent, news and earnings are their empty states, and company facts come from the universe file.
 */
import { CACHE_WINDOWS } from '../../lib/domain/site/cache-windows';
import type { Earnings, NewsArticle, Quote } from '../../lib/domain/market-data/market';
import type { UniverseCompany } from '../../lib/domain/report/schemas';
import { TtlCache } from '../cache';
import type { ClosingPricesSource, DailyClose } from '../../lib/domain/track-record/track-data';
import { NO_EARNINGS, type Bar, type LogoImage, type MarketDataProvider, type ProviderStatus, type TickerDetails } from './provider';

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

/** The demo close of a ticker on a UTC day number: a mean-reverting walk around a per-ticker base price. */
export function demoClose(ticker: string, day: number): number {
  const base = 20 + unit(`${ticker}:base`) * 380;
  let level = 0;
  for (let d = day - WALK_DAYS; d <= day; d++) level = 0.9 * level + (unit(`${ticker}:${d}`) - 0.5) * 0.06;
  return round2(base * Math.exp(level));
}

/** The demo bar of a ticker on a UTC day number. */
function demoBar(ticker: string, day: number): Bar {
  const close = demoClose(ticker, day);
  const open = demoClose(ticker, day - 1);
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

function dayNumber(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}

/** Settings of the demo provider. */
export interface DemoOptions {
  universe: readonly UniverseCompany[];
  now?: () => number;
}

/** The demo provider. */
export class DemoProvider implements MarketDataProvider, ClosingPricesSource {
  readonly name = 'demo' as const;
  private readonly universe: Map<string, UniverseCompany>;
  private readonly now: () => number;
  // The walk is worked out once per quote window, as a real provider's answer would be kept.
  private readonly quotes: TtlCache<Quote>;
  private lastCallOk: boolean | null = null;

  constructor(options: DemoOptions) {
    this.universe = new Map(options.universe.map((company) => [company.ticker, company]));
    this.now = options.now ?? Date.now;
    this.quotes = new TtlCache({ now: this.now });
  }

  status(): ProviderStatus {
    return { name: this.name, lastCallOk: this.lastCallOk, lastError: null, budgetPerMinute: null, budgetRemaining: null };
  }

  private answered<T>(value: T): Promise<T> {
    this.lastCallOk = true;
    return Promise.resolve(value);
  }

  async quote(ticker: string): Promise<Quote | null> {
    return this.answered((await this.quotes.get(ticker, CACHE_WINDOWS.quote.upstreamMs, async () => this.walkQuote(ticker))).value);
  }

  private walkQuote(ticker: string): Quote {
    const today = Math.floor(this.now() / DAY_MS);
    const bar = demoBar(ticker, today);
    const previousClose = demoClose(ticker, today - 1);
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
      fetchedAt: new Date(this.now()).toISOString(),
      isDemo: true,
    };
  }

  tickerDetails(ticker: string): Promise<TickerDetails | null> {
    const company = this.universe.get(ticker);
    return this.answered(company ? { ticker, name: company.name, sic_description: company.subIndustry } : null);
  }

  news(): Promise<NewsArticle[]> {
    return this.answered([]);
  }

  dailyBars(ticker: string, from: string, to: string): Promise<Bar[]> {
    const bars: Bar[] = [];
    const last = Math.min(dayNumber(to), Math.floor(this.now() / DAY_MS));
    for (let day = dayNumber(from); day <= last; day++) {
      const weekday = new Date(day * DAY_MS).getUTCDay();
      if (weekday !== 0 && weekday !== 6) bars.push(demoBar(ticker, day));
    }
    return this.answered(bars);
  }

  /** Every universe ticker's demo close on a weekday up to today (the same walk as the bars); none on a weekend or later. */
  groupedDaily(date: string): Promise<DailyClose[]> {
    const day = dayNumber(date);
    const weekday = new Date(day * DAY_MS).getUTCDay();
    if (weekday === 0 || weekday === 6 || day > Math.floor(this.now() / DAY_MS)) return this.answered([]);
    return this.answered([...this.universe.keys()].map((ticker) => ({ ticker, close: demoClose(ticker, day) })));
  }

  previousClose(ticker: string): Promise<Bar | null> {
    return this.answered(demoBar(ticker, Math.floor(this.now() / DAY_MS) - 1));
  }

  earnings(): Promise<Earnings> {
    return this.answered(NO_EARNINGS);
  }

  logo(): Promise<LogoImage | null> {
    return this.answered(null);
  }
}
