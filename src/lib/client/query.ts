/**
 * The islands' data cache (spec section 9 "Data client defaults" and "Detail page"): @nanostores/query with
 * data fresh for 5 minutes, unused data discarded after 10, refetch on window focus, no polling by default,
 * retries by shouldRetry (none for a 4xx other than 401, up to 2 otherwise) and mutations retried once.
 */
import { nanoquery, type FetcherStore, type ManualMutator } from '@nanostores/query';
import type { SignalRecord } from '../domain/schemas';
import type { Earnings, NewsArticle, Quote } from '../domain/market';
import type { SimilarTicker } from '../domain/similar';
import type { TrendResponse } from '../domain/trend';
import type { CompanyDescription, CompanyInfo, MarketSentiment, TickerMetrics } from '../domain/api-responses';
import {
  fetchAllSignals,
  fetchCompanyDescription,
  fetchCompanyInfo,
  fetchEarnings,
  fetchMarketSentiment,
  fetchNews,
  fetchQuote,
  fetchSimilarTickers,
  fetchStock,
  fetchStockCompleteData,
  fetchTickerMetrics,
  fetchTrend,
  type StockCompleteData,
} from './api';
import { shouldRetry } from './http';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Spec section 9 "Data client defaults". */
export const QUERY_DEFAULTS = {
  staleMs: 5 * MINUTE,
  discardMs: 10 * MINUTE,
  retryDelayMs: SECOND,
} as const;

/** How long each answer stays fresh (spec section 9, the detail page and the modal's caching windows). */
export const STALE_TIMES_MS = {
  stock: 0,
  allSignals: MINUTE,
  trend: MINUTE,
  quote: MINUTE,
  news: 5 * MINUTE,
  companyInfo: HOUR,
  similar: HOUR,
  completeData: MINUTE,
  sentiment: HOUR,
  metrics: MINUTE,
  description: 24 * HOUR,
  earnings: 24 * HOUR,
} as const;

/** How long unused answers are kept when the spec says so; others use QUERY_DEFAULTS.discardMs. */
export const CACHE_TIMES_MS = {
  trend: 5 * MINUTE,
  companyInfo: 24 * HOUR,
} as const;

/** The quote is refetched this often while shown (spec section 9). */
export const QUOTE_REFETCH_MS = 5 * MINUTE;

/** nanoquery's retry hook from shouldRetry: its retryCount starts at 1 for the first failure; delay grows by 1 s. */
export function retryDelay({ error, retryCount }: { error: unknown; retryCount: number }): number | false {
  return shouldRetry(error, retryCount - 1) ? QUERY_DEFAULTS.retryDelayMs * retryCount : false;
}

/** The trend chart allows one retry only (spec section 9 modal window "trend 1 h with one retry"). */
function oneRetry({ error, retryCount }: { error: unknown; retryCount: number }): number | false {
  return retryCount <= 1 && shouldRetry(error, retryCount - 1) ? QUERY_DEFAULTS.retryDelayMs : false;
}

const [createFetcherStore, createMutatorStoreRaw, cacheControls] = nanoquery({
  dedupeTime: QUERY_DEFAULTS.staleMs,
  cacheLifetime: QUERY_DEFAULTS.discardMs,
  revalidateOnFocus: true,
  revalidateOnReconnect: true,
  onErrorRetry: retryDelay,
});

export { createFetcherStore, cacheControls };

/** A mutator store whose mutation is tried once more after a failure that shouldRetry allows (spec: mutations retry once). */
export function createMutatorStore<Data = void, Result = unknown>(mutator: ManualMutator<Data, Result>) {
  return createMutatorStoreRaw<Data, Result>(async (args) => {
    try {
      return await mutator(args);
    } catch (error) {
      if (!shouldRetry(error, 0, true)) throw error;
      return mutator(args);
    }
  });
}

function key(ticker: string): string {
  return ticker.trim().toUpperCase();
}

/** The signal record of a ticker (detail page: stale 0, 2 retries 1 s apart). */
export function stockStore(ticker: string): FetcherStore<SignalRecord> {
  return createFetcherStore<SignalRecord>(['stock/', key(ticker)], {
    fetcher: (_, t) => fetchStock(String(t)),
    dedupeTime: STALE_TIMES_MS.stock,
  });
}

/** The latest report's records (stale 60 s). */
export const $allSignals: FetcherStore<SignalRecord[]> = createFetcherStore<SignalRecord[]>(['all-signals'], {
  fetcher: () => fetchAllSignals(),
  dedupeTime: STALE_TIMES_MS.allSignals,
});

/** The C-Score trend (stale 60 s, kept 5 min). */
export function trendStore(ticker: string, { modal = false } = {}): FetcherStore<TrendResponse> {
  return createFetcherStore<TrendResponse>(['c-score-trend/', key(ticker)], {
    fetcher: (_, t) => fetchTrend(String(t)),
    dedupeTime: modal ? HOUR : STALE_TIMES_MS.trend,
    cacheLifetime: modal ? HOUR : CACHE_TIMES_MS.trend,
    onErrorRetry: modal ? oneRetry : retryDelay,
  });
}

/** The live quote (stale 60 s, refetched every 5 min while shown). */
export function quoteStore(ticker: string): FetcherStore<Quote> {
  return createFetcherStore<Quote>(['stock-price/', key(ticker)], {
    fetcher: (_, t) => fetchQuote(String(t)),
    dedupeTime: STALE_TIMES_MS.quote,
    revalidateInterval: QUOTE_REFETCH_MS,
  });
}

/** News (stale 5 min; fetch 5, the page shows 3). */
export function newsStore(ticker: string): FetcherStore<NewsArticle[]> {
  return createFetcherStore<NewsArticle[]>(['news/', key(ticker)], {
    fetcher: (_, t) => fetchNews(String(t)),
    dedupeTime: STALE_TIMES_MS.news,
  });
}

/** Company info (stale 1 h, kept 24 h). */
export function companyInfoStore(ticker: string): FetcherStore<CompanyInfo> {
  return createFetcherStore<CompanyInfo>(['company-info/', key(ticker)], {
    fetcher: (_, t) => fetchCompanyInfo(String(t)),
    dedupeTime: STALE_TIMES_MS.companyInfo,
    cacheLifetime: CACHE_TIMES_MS.companyInfo,
  });
}

/** Similar tickers (stale 1 h). */
export function similarTickersStore(ticker: string): FetcherStore<SimilarTicker[]> {
  return createFetcherStore<SimilarTicker[]>(['similar-tickers/', key(ticker)], {
    fetcher: (_, t) => fetchSimilarTickers(String(t)),
    dedupeTime: STALE_TIMES_MS.similar,
  });
}

/** Complete stock data (modal window 60 s); null when it could not be fetched. */
export function completeDataStore(ticker: string): FetcherStore<StockCompleteData | null> {
  return createFetcherStore<StockCompleteData | null>(['stock-complete-data/', key(ticker)], {
    fetcher: (_, t) => fetchStockCompleteData(String(t)),
    dedupeTime: STALE_TIMES_MS.completeData,
  });
}

/** Market sentiment (modal window 1 h). */
export function sentimentStore(ticker: string): FetcherStore<MarketSentiment> {
  return createFetcherStore<MarketSentiment>(['market-sentiment/', key(ticker)], {
    fetcher: (_, t) => fetchMarketSentiment(String(t)),
    dedupeTime: STALE_TIMES_MS.sentiment,
    cacheLifetime: STALE_TIMES_MS.sentiment,
  });
}

/** Ticker metrics (modal window 60 s). */
export function metricsStore(ticker: string): FetcherStore<TickerMetrics> {
  return createFetcherStore<TickerMetrics>(['ticker-metrics/', key(ticker)], {
    fetcher: (_, t) => fetchTickerMetrics(String(t)),
    dedupeTime: STALE_TIMES_MS.metrics,
  });
}

/** Company description (modal window 24 h). */
export function descriptionStore(ticker: string): FetcherStore<CompanyDescription> {
  return createFetcherStore<CompanyDescription>(['company-description/', key(ticker)], {
    fetcher: (_, t) => fetchCompanyDescription(String(t)),
    dedupeTime: STALE_TIMES_MS.description,
    cacheLifetime: STALE_TIMES_MS.description,
  });
}

/** Earnings (modal window 24 h). */
export function earningsStore(ticker: string): FetcherStore<Earnings> {
  return createFetcherStore<Earnings>(['earnings-date/', key(ticker)], {
    fetcher: (_, t) => fetchEarnings(String(t)),
    dedupeTime: STALE_TIMES_MS.earnings,
    cacheLifetime: STALE_TIMES_MS.earnings,
  });
}
