/**
 * Typed calls of our own API routes for the islands (spec section 7), with the failure messages of section 8.
 * Calls the spec says "rethrow" throw a FetchFailure carrying the catalogue message; calls it says "return empty"
 * log the failure and answer an empty value.
 */
import type {
  ArchiveFileListing,
  CompanyDescription,
  CompanyInfo,
  CompanyNameRecord,
  MarketSentiment,
  TickerMetrics,
} from '../domain/api-responses';
import type { Bar, Earnings, NewsArticle, Quote, TickerDetails } from '../domain/market';
import type { SignalRecord } from '../domain/schemas';
import type { SimilarTicker } from '../domain/similar';
import type { TrendResponse } from '../domain/trend';
import { ApiError, FetchFailure, probe, request, withFailureMessage } from './http';

/** The failure messages of spec section 8, one per feature. */
export const FETCH_ERRORS = {
  user: 'Failed to fetch user data',
  completeData: 'Failed to fetch complete stock data',
  sentiment: 'Failed to fetch market sentiment',
  metrics: 'Failed to fetch current ticker metrics',
  description: 'Failed to fetch company description',
  price: 'Failed to fetch stock price data',
  earnings: 'Failed to fetch earnings date data',
  similar: 'Failed to fetch similar tickers',
  trend: 'Failed to fetch C-Score trend data',
  files: 'Failed to fetch files',
  signals: 'Failed to fetch signals',
} as const;

/** The answer of /api/stock-complete-data/{ticker}. */
export interface StockCompleteData {
  ticker: string;
  reportDate: string;
  stock: SignalRecord;
  metrics: TickerMetrics;
  companyInfo: CompanyInfo;
  similarTickers: SimilarTicker[];
}

/** The answer of /api/polygon/company-info/{ticker}. */
export interface PolygonCompanyInfo {
  ticker: string;
  logoUrl: string | null;
  companyName: string;
  description: string;
}

/** The answer of /api/polygon/sync-company-info. */
export interface SyncCompanyInfoReport {
  provider: 'polygon' | 'demo';
  synced: number;
  skipped: number;
  remaining: number;
  done: boolean;
  message: string;
}

/** A ticker as a path segment: trimmed, upper-cased, encoded. */
function segment(ticker: string): string {
  return encodeURIComponent(ticker.trim().toUpperCase());
}

/** Logs a failed best-effort call (spec section 8: "a non-OK response is logged and returns empty"). */
function logged<T>(what: string, empty: T): (error: unknown) => T {
  return (error) => {
    console.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    return empty;
  };
}

/** GET /api/all-signals: the latest report's records (an array, or an object with a data array). */
export function fetchAllSignals(signal?: AbortSignal): Promise<SignalRecord[]> {
  return withFailureMessage(FETCH_ERRORS.signals, async () => {
    const body = await request<SignalRecord[] | { data?: SignalRecord[] }>('/api/all-signals', { signal });
    return Array.isArray(body) ? body : (body.data ?? []);
  });
}

/** GET /api/stock/{ticker}; a failure says 'Error fetching stock data for {ticker}: {status text}' (section 8). */
export async function fetchStock(ticker: string, signal?: AbortSignal): Promise<SignalRecord> {
  try {
    return await request<SignalRecord>(`/api/stock/${segment(ticker)}`, { signal });
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    const text = error instanceof Error ? error.message.replace(/^\d{3}: /, '') : String(error);
    throw new FetchFailure(`Error fetching stock data for ${ticker.trim().toUpperCase()}: ${text}`, String(error), status);
  }
}

/** The detail page's record: the direct fetch, else the record found in the all-signals list (spec section 4). */
export async function fetchStockWithFallback(ticker: string, signal?: AbortSignal): Promise<SignalRecord | null> {
  try {
    return await fetchStock(ticker, signal);
  } catch (error) {
    logged('The stock fetch', null)(error);
    const wanted = ticker.trim().toUpperCase();
    const all = await fetchAllSignals(signal).catch(logged('The all-signals fallback', [] as SignalRecord[]));
    return all.find((record) => record.ticker.toUpperCase() === wanted) ?? null;
  }
}

/** GET /api/stock-complete-data/{ticker}; null on failure (section 8: 'yields no data'). */
export function fetchStockCompleteData(ticker: string, signal?: AbortSignal): Promise<StockCompleteData | null> {
  return request<StockCompleteData>(`/api/stock-complete-data/${segment(ticker)}`, { signal }).catch(logged(FETCH_ERRORS.completeData, null));
}

/** GET /api/market-sentiment/{ticker}. */
export function fetchMarketSentiment(ticker: string, signal?: AbortSignal): Promise<MarketSentiment> {
  return withFailureMessage(FETCH_ERRORS.sentiment, () => request<MarketSentiment>(`/api/market-sentiment/${segment(ticker)}`, { signal }));
}

/** GET /api/ticker-metrics/{ticker}. */
export function fetchTickerMetrics(ticker: string, signal?: AbortSignal): Promise<TickerMetrics> {
  return withFailureMessage(FETCH_ERRORS.metrics, () => request<TickerMetrics>(`/api/ticker-metrics/${segment(ticker)}`, { signal }));
}

/** GET /api/company-name/{ticker}: the name, or null when the server has none. */
export function fetchCompanyName(ticker: string, signal?: AbortSignal): Promise<string | null> {
  return request<CompanyNameRecord>(`/api/company-name/${segment(ticker)}`, { signal })
    .then((body) => body.companyName || null)
    .catch(logged('The company-name fetch', null));
}

/** GET /api/company-names: every ticker's name; empty on failure. */
export function fetchCompanyNames(signal?: AbortSignal): Promise<CompanyNameRecord[]> {
  return request<CompanyNameRecord[]>('/api/company-names', { signal }).catch(logged('The company-names fetch', [] as CompanyNameRecord[]));
}

/** POST /api/save-company-name: saves a name the provider lookup found. */
export function saveCompanyName(ticker: string, companyName: string): Promise<{ ticker: string; companyName: string; saved: boolean }> {
  return request('/api/save-company-name', { body: { ticker: ticker.trim().toUpperCase(), companyName } });
}

/** GET /api/company-info/{ticker}: the fallback company info. */
export function fetchCompanyInfo(ticker: string, signal?: AbortSignal): Promise<CompanyInfo> {
  return request<CompanyInfo>(`/api/company-info/${segment(ticker)}`, { signal });
}

/** GET /api/company-description/{ticker}. */
export function fetchCompanyDescription(ticker: string, signal?: AbortSignal): Promise<CompanyDescription> {
  return withFailureMessage(FETCH_ERRORS.description, () => request<CompanyDescription>(`/api/company-description/${segment(ticker)}`, { signal }));
}

/** HEAD /api/company-description/{ticker}: whether a description is available. */
export function hasCompanyDescription(ticker: string, signal?: AbortSignal): Promise<boolean> {
  return probe(`/api/company-description/${segment(ticker)}`, signal);
}

/** GET /api/company-descriptions: every ticker's description (a list, or an object with descriptions). */
export async function fetchCompanyDescriptions(signal?: AbortSignal): Promise<CompanyDescription[]> {
  const body = await request<CompanyDescription[] | { descriptions?: CompanyDescription[] }>('/api/company-descriptions', { signal }).catch(
    logged('The company-descriptions fetch', [] as CompanyDescription[]),
  );
  return Array.isArray(body) ? body : (body.descriptions ?? []);
}

/** GET /api/stock-price/{ticker}: quote shape B, `fetchedAt` added when missing; rethrows (section 8). */
export function fetchQuote(ticker: string, signal?: AbortSignal): Promise<Quote> {
  return withFailureMessage(FETCH_ERRORS.price, async () => {
    const quote = await request<Quote>(`/api/stock-price/${segment(ticker)}`, { signal });
    return quote.fetchedAt ? quote : { ...quote, fetchedAt: new Date().toISOString() };
  });
}

/** GET /api/earnings-date/{ticker}. */
export function fetchEarnings(ticker: string, signal?: AbortSignal): Promise<Earnings> {
  return withFailureMessage(FETCH_ERRORS.earnings, () => request<Earnings>(`/api/earnings-date/${segment(ticker)}`, { signal }));
}

/** GET /api/similar-tickers/{ticker}. */
export function fetchSimilarTickers(ticker: string, signal?: AbortSignal): Promise<SimilarTicker[]> {
  return withFailureMessage(FETCH_ERRORS.similar, () => request<SimilarTicker[]>(`/api/similar-tickers/${segment(ticker)}`, { signal }));
}

/** GET /api/c-score-trend/{ticker}; validate the answer with validateTrend from lib/domain/trend. */
export function fetchTrend(ticker: string, signal?: AbortSignal): Promise<TrendResponse> {
  return withFailureMessage(FETCH_ERRORS.trend, () => request<TrendResponse>(`/api/c-score-trend/${segment(ticker)}`, { signal }));
}

/** GET /api/polygon/company-info/{ticker}; null on failure. */
export function fetchPolygonCompanyInfo(ticker: string, signal?: AbortSignal): Promise<PolygonCompanyInfo | null> {
  return request<PolygonCompanyInfo>(`/api/polygon/company-info/${segment(ticker)}`, { signal }).catch(logged('The company-info fetch', null));
}

/** POST /api/polygon/company-names: a map of ticker to name; empty on failure. */
export function fetchPolygonCompanyNames(tickers: readonly string[]): Promise<Record<string, string>> {
  if (tickers.length === 0) return Promise.resolve({});
  return request<Record<string, string>>('/api/polygon/company-names', { body: { tickers } }).catch(logged('The company-names lookup', {}));
}

/** GET /api/polygon/ticker-details/{ticker}: its results, or null. */
export function fetchTickerDetails(ticker: string, signal?: AbortSignal): Promise<TickerDetails | null> {
  return request<{ results: TickerDetails | null }>(`/api/polygon/ticker-details/${segment(ticker)}`, { signal })
    .then((body) => body.results ?? null)
    .catch(logged('The ticker-details fetch', null));
}

/** GET /api/polygon/price/{ticker}: the previous day's bar, or null. */
export function fetchPolygonPrice(ticker: string, signal?: AbortSignal): Promise<Bar | null> {
  return request<{ results: Bar[] }>(`/api/polygon/price/${segment(ticker)}`, { signal })
    .then((body) => body.results?.[0] ?? null)
    .catch(logged('The price fetch', null));
}

/** GET /api/polygon/aggs/{ticker}?from&to (yyyy-MM-dd; default the last 14 days): daily bars, empty on failure. */
export function fetchBars(ticker: string, range: { from?: string; to?: string } = {}, signal?: AbortSignal): Promise<Bar[]> {
  const query = new URLSearchParams();
  if (range.from) query.set('from', range.from);
  if (range.to) query.set('to', range.to);
  const suffix = query.size > 0 ? `?${query}` : '';
  return request<{ results: Bar[] }>(`/api/polygon/aggs/${segment(ticker)}${suffix}`, { signal })
    .then((body) => body.results ?? [])
    .catch(logged('The bars fetch', [] as Bar[]));
}

/** Articles the detail page fetches (spec section 9: fetch 5, show 3). */
export const NEWS_FETCH_LIMIT = 5;

/** GET /api/polygon/news/{ticker}?limit: its results, empty on failure. */
export function fetchNews(ticker: string, limit: number = NEWS_FETCH_LIMIT, signal?: AbortSignal): Promise<NewsArticle[]> {
  return request<{ results: NewsArticle[] }>(`/api/polygon/news/${segment(ticker)}?limit=${limit}`, { signal })
    .then((body) => body.results ?? [])
    .catch(logged('The news fetch', [] as NewsArticle[]));
}

/** GET /api/polygon/sync-company-info?skipExisting; rethrows (section 8). */
export function syncCompanyInfo(skipExisting = true): Promise<SyncCompanyInfoReport> {
  return request<SyncCompanyInfoReport>(`/api/polygon/sync-company-info${skipExisting ? '?skipExisting' : ''}`);
}

/** GET /api/excel-files, falling back to /api/csv-files; 'Failed to fetch files' when both fail. */
export function fetchArchiveFiles(signal?: AbortSignal): Promise<ArchiveFileListing[]> {
  return withFailureMessage(FETCH_ERRORS.files, () =>
    request<ArchiveFileListing[]>('/api/excel-files', { signal }).catch((error: unknown) => {
      logged('The excel-files fetch', null)(error);
      return request<ArchiveFileListing[]>('/api/csv-files', { signal });
    }),
  );
}

/** Address of an archived file as it was uploaded. */
export function excelDownloadUrl(id: string): string {
  return `/api/download-excel/${encodeURIComponent(id)}`;
}

/** Address of an archived file (or one of its sheets) as CSV. */
export function csvDownloadUrl(id: string, sheetId?: number): string {
  return `/api/download-csv/${encodeURIComponent(id)}${sheetId === undefined ? '' : `?sheetId=${sheetId}`}`;
}
