import type { Bar, Earnings, NewsArticle, Quote, TickerDetails } from '../../lib/domain/market-data/market';
import type { CallerOf } from '../upstream';

export type { Bar, TickerDetails };

/** A logo image fetched through our server. */
export interface LogoImage {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/** Health of the provider: its name and whether its last call to the market-data API succeeded (null before any). */
export interface ProviderStatus {
  name: 'polygon' | 'demo';
  lastCallOk: boolean | null;
  lastError: string | null;
  budgetPerMinute: number | null;
  budgetRemaining: number | null;
}

/** Why the provider could not answer; the routes then serve the last good answer or the spec's empty result. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'budget' | 'timeout' | 'http' | 'auth' | 'malformed' | 'network',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The market-data provider behind the live routes (DESIGN.md "API routes"). Every method answers for an
 * upper-case, validated ticker; `null` or an empty list means the provider has nothing for it; a ProviderError
 * means it could not ask.
 */
export interface MarketDataProvider {
  readonly name: 'polygon' | 'demo';
  /** Quote shape B; absent figures stay absent. `caller` is asked who the call is for only when it reaches upstream. */
  quote(ticker: string, caller?: CallerOf): Promise<Quote | null>;
  tickerDetails(ticker: string): Promise<TickerDetails | null>;
  news(ticker: string, limit: number): Promise<NewsArticle[]>;
  /** Daily bars from `from` to `to` (yyyy-mm-dd, both included), oldest first. */
  dailyBars(ticker: string, from: string, to: string): Promise<Bar[]>;
  previousClose(ticker: string): Promise<Bar | null>;
  earnings(ticker: string): Promise<Earnings>;
  /** The logo image of a ticker (from `knownLogoUrl` when the company store has it), or null when there is none. */
  logo(ticker: string, knownLogoUrl?: string): Promise<LogoImage | null>;
  status(): ProviderStatus;
}

/** Earnings when no source has a date: the spec's empty state. */
export const NO_EARNINGS: Earnings = { earningsAvailable: false, earningsDate: null, nextEarningsDate: null };
