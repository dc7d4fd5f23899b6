/**
 * The offline demo provider (DESIGN.md "API routes"): deterministic per ticker and day, no network. It never
 * invents facts about real companies: prices are the one demo series of ../../lib/domain/market-data/demo-prices
 * flagged `isDemo`, P/E, EPS, dividend, beta and market cap stay absent, news and earnings are their empty states,
 * and company facts come from the universe file.
 */
import { CACHE_WINDOWS } from '../../lib/domain/site/cache-windows';
import type { Earnings, NewsArticle, Quote } from '../../lib/domain/market-data/market';
import type { UniverseCompany } from '../../lib/domain/report/schemas';
import { isTradingDay } from '../../lib/domain/market-data/calendar';
import { demoBar, demoBars, demoClose, demoQuote, isoDayOf, tradingDayBefore } from '../../lib/domain/market-data/demo-prices';
import { TtlCache } from '../cache';
import type { ClosingPricesSource, DailyClose } from '../../lib/domain/track-record/track-data';
import { NO_EARNINGS, type Bar, type LogoImage, type MarketDataProvider, type ProviderStatus, type TickerDetails } from './provider';

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
    return demoQuote(ticker, this.today(), new Date(this.now()).toISOString());
  }

  /** The provider's calendar day: a quote, the bars and the previous close all count from it. */
  private today(): string {
    return isoDayOf(this.now());
  }

  tickerDetails(ticker: string): Promise<TickerDetails | null> {
    const company = this.universe.get(ticker);
    return this.answered(company ? { ticker, name: company.name, sic_description: company.subIndustry } : null);
  }

  news(): Promise<NewsArticle[]> {
    return this.answered([]);
  }

  dailyBars(ticker: string, from: string, to: string): Promise<Bar[]> {
    const today = this.today();
    return this.answered(demoBars(ticker, from, to < today ? to : today));
  }

  /** Every universe ticker's demo close on a trading day up to today (the bars' closes); none on another day or later. */
  groupedDaily(date: string): Promise<DailyClose[]> {
    if (date > this.today() || !isTradingDay(date)) return this.answered([]);
    return this.answered([...this.universe.keys()].map((ticker) => ({ ticker, close: demoClose(ticker, date) })));
  }

  /** The bar of the last trading day before today, as Polygon's previous-close call answers. */
  previousClose(ticker: string): Promise<Bar | null> {
    return this.answered(demoBar(ticker, tradingDayBefore(this.today())));
  }

  earnings(): Promise<Earnings> {
    return this.answered(NO_EARNINGS);
  }

  logo(): Promise<LogoImage | null> {
    return this.answered(null);
  }
}
