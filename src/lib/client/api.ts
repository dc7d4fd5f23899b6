/**
 * Typed calls of our own API routes for the browser's stores (spec section 7), with the failure messages of section 8.
 * Calls the spec says "rethrow" throw a FetchFailure carrying the catalogue message; calls it says "return empty"
 * log the failure and answer an empty value.
 */
import type { LockedTicker } from '../domain/accounts/locked-ticker';
import type { Bar, Earnings, NewsArticle, Quote } from '../domain/market-data/market';
import type { SignalRecord } from '../domain/report/schemas';
import { asciiUpper } from '../domain/text/text';
import type { TrendResponse } from '../domain/trend/trend';
import { answer, api } from './api-client';
import { withFailureMessage } from './http';
import { staticBody, staticJson } from './static-files';

/** The failure messages of spec section 8 for the calls the stores make (stores/user.ts has the user's). */
export const FETCH_ERRORS = {
  price: 'Failed to fetch stock price data',
  earnings: 'Failed to fetch earnings date data',
  trend: 'Failed to fetch C-Score trend data',
  signals: 'Failed to fetch signals',
} as const;

/** Articles the detail page fetches (spec section 9: fetch 5, show 3). */
const NEWS_FETCH_LIMIT = 5;

/** The static files' schemas, loaded with the first file: zod stays out of every page's load (the header runs this module). */
const schemas = () => import('../domain/site/api-responses');

/** A ticker as a path segment: trimmed, upper-cased, encoded. */
function segment(ticker: string): string {
  return encodeURIComponent(asciiUpper(ticker.trim()));
}

/** A top ticker whose scores are Pro only (PAYWALL=on): its static JSON says `locked`, /api/pro has the scores. */
function isLocked(value: object): value is LockedTicker {
  return 'locked' in value && value.locked === true;
}

/** GET /api/all-signals: the latest report's records (an array, or an object with a data array). */
function fetchAllSignals(): Promise<SignalRecord[]> {
  return withFailureMessage(FETCH_ERRORS.signals, async () => {
    const body = await staticJson('/api/all-signals', () => schemas().then((m) => m.AllSignalsFileSchema));
    return Array.isArray(body) ? body : (body.data ?? []);
  });
}

/**
 * A ticker's signal record (spec section 4, detail data sourcing): GET /api/stock/{ticker}; when that fails
 * ('Error fetching stock data for {ticker}: ...', section 8) or yields no record, the record of the all-signals
 * list with that ticker, case-insensitively. Null when neither has it; throws when the list cannot be fetched.
 */
export async function fetchStockRecord(ticker: string): Promise<SignalRecord | null> {
  const wanted = asciiUpper(ticker.trim());
  try {
    const direct = await staticJson(`/api/stock/${segment(wanted)}`, () => schemas().then((m) => m.StockFileSchema));
    if (!isLocked(direct)) return direct;
    // A locked top ticker: a Pro user's session gets its record (a 401/403 for anyone else ends in the list below).
    return await answer(api.pro.stock[':ticker'].$get({ param: { ticker: segment(wanted) } }));
  } catch (error) {
    console.warn(`Error fetching stock data for ${wanted}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const all = await fetchAllSignals();
  return all.find((record) => asciiUpper(record.ticker) === wanted) ?? null;
}

/** GET /api/stock-price/{ticker}: quote shape B, `fetchedAt` added when missing; rethrows (section 8). */
export function fetchQuote(ticker: string): Promise<Quote> {
  return withFailureMessage(FETCH_ERRORS.price, async () => {
    const quote = await answer(api['stock-price'][':ticker'].$get({ param: { ticker: segment(ticker) } }));
    return quote.fetchedAt ? quote : { ...quote, fetchedAt: new Date().toISOString() };
  });
}

/** GET /api/earnings-date/{ticker}. */
export function fetchEarnings(ticker: string): Promise<Earnings> {
  return withFailureMessage(FETCH_ERRORS.earnings, () => answer(api['earnings-date'][':ticker'].$get({ param: { ticker: segment(ticker) } })));
}

/** GET /api/c-score-trend/{ticker} (a locked top ticker's from /api/pro); validate it with validateTrend from lib/domain/trend/trend. */
export function fetchTrend(ticker: string): Promise<TrendResponse> {
  return withFailureMessage(FETCH_ERRORS.trend, async () => {
    const trend = await staticJson(`/api/c-score-trend/${segment(ticker)}`, () => schemas().then((m) => m.TrendFileSchema));
    return isLocked(trend) ? proTrend(ticker) : trend;
  });
}

/**
 * GET the C-Score trend for the live chart: the static file as it is, since the chart reads every trend with
 * validateTrend (which names what is wrong) and a schema library would double its start; /api/pro's when locked.
 */
export function fetchChartTrend(ticker: string): Promise<unknown> {
  return withFailureMessage(FETCH_ERRORS.trend, async () => {
    const trend = await staticBody(`/api/c-score-trend/${segment(ticker)}`);
    return typeof trend === 'object' && trend !== null && isLocked(trend) ? proTrend(ticker) : trend;
  });
}

/** The trend of a locked ticker (its static file says `locked`), from /api/pro. */
async function proTrend(ticker: string): Promise<TrendResponse> {
  const pro = await answer(api.pro['c-score-trend'][':ticker'].$get({ param: { ticker: segment(ticker) } }));
  // The route answers a ticker of the report only, and every such ticker has a trend.
  if (pro === null) throw new Error(`/api/pro has no C-Score trend for ${ticker}`);
  return pro;
}

/** GET /api/polygon/news/{ticker}?limit: its results; a failure is logged and answers an empty list (section 8). */
export async function fetchNews(ticker: string): Promise<NewsArticle[]> {
  try {
    const body = await answer(api.polygon.news[':ticker'].$get({ param: { ticker: segment(ticker) }, query: { limit: String(NEWS_FETCH_LIMIT) } }));
    return body.results;
  } catch (error) {
    console.warn(`The news fetch failed: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/**
 * GET /api/polygon/aggs/{ticker}?from&to: the daily bars of the window and whether they are the demo provider's;
 * a failure is logged and answers no bars (section 8).
 */
export async function fetchDailyBars(ticker: string, from: string, to: string): Promise<{ bars: Bar[]; isDemo: boolean }> {
  try {
    const body = await answer(api.polygon.aggs[':ticker'].$get({ param: { ticker: segment(ticker) }, query: { from, to } }));
    return { bars: body.results, isDemo: body.isDemo };
  } catch (error) {
    console.warn(`The daily bars fetch failed: ${error instanceof Error ? error.message : String(error)}`);
    return { bars: [], isDemo: false };
  }
}
