/**
 * The browser's one data layer (spec section 9): @nanostores/query stores with the windows of
 * lib/domain/site/cache-windows.ts. An answer is fresh for its window and shared by every reader of the page; data is
 * refetched when the tab shows again; retries follow `withRetries`. React islands read a store with
 * `useStore(store, { ssr: 'initial' })`, plain DOM code with `.subscribe`.
 */
import { nanoquery, type FetcherStore } from '@nanostores/query';
import { atom } from 'nanostores';
import { CACHE_WINDOWS, CLIENT_DEFAULTS, type CacheWindow, type CacheWindowName } from '../domain/site/cache-windows';
import type { Earnings, NewsArticle, Quote } from '../domain/market-data/market';
import type { SignalRecord } from '../domain/report/schemas';
import { asciiUpper } from '../domain/text/text';
import { fetchChartTrend, fetchEarnings, fetchNews, fetchQuote, fetchStockRecord } from './api';
import { isRetryable } from './http';

const [createFetcherStore] = nanoquery({
  dedupeTime: CLIENT_DEFAULTS.staleMs,
  cacheLifetime: CLIENT_DEFAULTS.discardMs,
  revalidateOnFocus: true,
  revalidateOnReconnect: true,
  // Retries run inside each fetch (withRetries): a store shows a failure once the last try failed, never between tries.
  onErrorRetry: false,
});

/**
 * Runs `fetch`, and again after a failure `isRetryable` allows (spec section 9: not after a 4xx other than 401),
 * up to `retries` more times, CLIENT_DEFAULTS.retryDelayMs apart.
 */
async function withRetries<T>(fetch: () => Promise<T>, retries: number): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch();
    } catch (error) {
      if (attempt >= retries || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, CLIENT_DEFAULTS.retryDelayMs));
    }
  }
}

// A key part that stays null: nanoquery never calls this store's fetcher.
const idle = createFetcherStore<never>([atom<null>(null)], { fetcher: () => Promise.reject(new Error('The idle store has nothing to fetch.')) });

/**
 * The store that never fetches: an island reads it while it has nothing to fetch. Every store is this one while
 * Astro pre-renders a page, so rendering an island at build time never starts a request.
 */
export function idleStore<T>(): FetcherStore<T> {
  return idle as unknown as FetcherStore<T>;
}

const stores = new Map<string, FetcherStore>();

/** The one store of a ticker's answer of one kind, with that kind's window (one store per ticker and kind). */
function tickerStore<T>(name: CacheWindowName, ticker: string, fetch: (ticker: string) => Promise<T>): FetcherStore<T> {
  if (import.meta.env.SSR) return idleStore<T>();
  const symbol = asciiUpper(ticker.trim());
  const key = `${name}/${symbol}`;
  let store = stores.get(key);
  if (!store) {
    const { staleMs, keepMs = CLIENT_DEFAULTS.discardMs, refetchMs, retries = CLIENT_DEFAULTS.retries }: CacheWindow = CACHE_WINDOWS[name];
    store = createFetcherStore<T>(key, {
      fetcher: () => withRetries(() => fetch(symbol), retries),
      dedupeTime: staleMs,
      cacheLifetime: keepMs,
      revalidateInterval: refetchMs,
    });
    stores.set(key, store);
  }
  return store as FetcherStore<T>;
}

/** True while a store has neither an answer nor a failure: not started yet, or its first fetch under way. */
export function isLoading(value: { data?: unknown; error?: unknown }): boolean {
  return value.data === undefined && value.error === undefined;
}

/** The signal record of a ticker, else its record in the all-signals list; null when neither has it (stale at once, 2 retries). */
export function stockRecordStore(ticker: string): FetcherStore<SignalRecord | null> {
  return tickerStore('stock', ticker, fetchStockRecord);
}

/** The live quote (stale after 60 s, refetched every 5 min while shown). */
export function quoteStore(ticker: string): FetcherStore<Quote> {
  return tickerStore('quote', ticker, fetchQuote);
}

/** The earnings date (24 h). */
export function earningsStore(ticker: string): FetcherStore<Earnings> {
  return tickerStore('earnings', ticker, fetchEarnings);
}

/** News (stale after 5 min; 5 articles fetched, the card shows 3). */
export function newsStore(ticker: string): FetcherStore<NewsArticle[]> {
  return tickerStore('news', ticker, fetchNews);
}

/**
 * The C-Score trend as the live chart reads it (with validateTrend): the page's window (stale 60 s, kept 5 min,
 * 2 retries) or the modal's (1 h, one retry).
 */
export function trendStore(ticker: string, { modal = false } = {}): FetcherStore<unknown> {
  return tickerStore(modal ? 'modalTrend' : 'trend', ticker, fetchChartTrend);
}
