/**
 * The caching windows of spec section 9, in one table that the market-data provider, the live routes'
 * Cache-Control and the browser's data layer all read.
 *
 * - `upstreamMs`: how long the server keeps a market-data answer before asking the provider again (spec: price
 *   2 min, news 5 min, bars 1 h, details and logos 24 h, earnings 24 h).
 * - `staleMs`: how long the browser treats an answer as fresh; the live route's `Cache-Control: max-age` says the same.
 * - `keepMs`: how long the browser keeps an unused answer (default CLIENT_DEFAULTS.discardMs).
 * - `refetchMs`: refetched this often while shown.
 * - `retries`: how many retries after a failure the spec allows (default 2).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One kind of answer's windows. */
export interface CacheWindow {
  readonly upstreamMs?: number;
  readonly staleMs: number;
  readonly keepMs?: number;
  readonly refetchMs?: number;
  readonly retries?: number;
}

/** Spec section 9 "Data client defaults": fresh 5 min, unused data discarded after 10, retries 1 s apart. */
export const CLIENT_DEFAULTS = {
  staleMs: 5 * MINUTE,
  discardMs: 10 * MINUTE,
  retries: 2,
  retryDelayMs: SECOND,
} as const;

/** Every answer's windows (spec section 9: the detail page, the modal and the provider). */
export const CACHE_WINDOWS = {
  /** Detail page: stock query stale 0, 2 retries, 1 s delay. */
  stock: { staleMs: 0 },
  /** All signals stale 60 s. */
  allSignals: { staleMs: MINUTE },
  /** Detail page trend: stale 60 s, cache 5 min. */
  trend: { staleMs: MINUTE, keepMs: 5 * MINUTE },
  /** Modal trend: 1 h with one retry. */
  modalTrend: { staleMs: HOUR, keepMs: HOUR, retries: 1 },
  /** Price: the server keeps 2 min; the page's quote is stale after 60 s and refetched every 5 min. */
  quote: { upstreamMs: 2 * MINUTE, staleMs: MINUTE, refetchMs: 5 * MINUTE },
  /** News: 5 min. */
  news: { upstreamMs: 5 * MINUTE, staleMs: 5 * MINUTE },
  /** Daily bars: 1 h. */
  bars: { upstreamMs: HOUR, staleMs: HOUR },
  /** Ticker details and logos: 24 h. */
  details: { upstreamMs: DAY, staleMs: HOUR },
  /** Logos: the server keeps 24 h, and so may the browser (an image changes far less often than its details). */
  logo: { upstreamMs: DAY, staleMs: DAY },
  /** Company info: stale 1 h, kept 24 h. */
  companyInfo: { upstreamMs: DAY, staleMs: HOUR, keepMs: DAY },
  /** Similar tickers: stale 1 h. */
  similar: { staleMs: HOUR },
  /** Modal: complete data 60 s. */
  completeData: { staleMs: MINUTE },
  /** Modal: sentiment 1 h. */
  sentiment: { staleMs: HOUR, keepMs: HOUR },
  /** Modal: metrics 60 s. */
  metrics: { staleMs: MINUTE },
  /** Modal: description 24 h. */
  description: { staleMs: DAY, keepMs: DAY },
  /** Earnings: 24 h. */
  earnings: { upstreamMs: DAY, staleMs: DAY, keepMs: DAY },
} as const satisfies Record<string, CacheWindow>;

export type CacheWindowName = keyof typeof CACHE_WINDOWS;

/** The Cache-Control of a live answer: public, fresh as long as the browser treats it as fresh. */
export function cacheControl(name: CacheWindowName): string {
  const seconds = Math.floor(CACHE_WINDOWS[name].staleMs / SECOND);
  return seconds > 0 ? `public, max-age=${seconds}` : 'no-cache';
}
