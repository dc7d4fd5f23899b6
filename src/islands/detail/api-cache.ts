/**
 * A small shared cache for the detail page's GET requests (spec section 9 "Detail page" windows): one entry
 * per path shared by every island on the page, merged in-flight requests, a stale window, retries with a
 * 1-second delay as `shouldRetry` allows, an optional refetch interval, and a refetch of stale entries when the
 * tab becomes visible again. Plain TypeScript, so the stock page's live header uses it without React; React
 * islands read it through `useApi` (./use-api).
 */
import { request, shouldRetry } from '../../lib/client/http';

/** How long an answer is fresh, how often to retry, and whether to poll. */
export interface ApiOptions {
  staleMs: number;
  retries?: number;
  refetchMs?: number;
}

/** What a hook returns: the data, the error, whether a request is running, and a refetch. */
export interface ApiState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  refetch: () => void;
}

interface Entry {
  data?: unknown;
  error?: Error;
  at: number;
  inflight?: Promise<void>;
  /** Counts the entry's changes: what `useSyncExternalStore` compares. */
  version: number;
  listeners: Set<() => void>;
}

const cache = new Map<string, Entry>();

function entryOf(path: string): Entry {
  let entry = cache.get(path);
  if (!entry) {
    entry = { at: 0, version: 0, listeners: new Set() };
    cache.set(path, entry);
  }
  return entry;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fetches a path into the shared cache (merging a request already running); resolves when it settled. */
export function load(path: string, retries = 2): Promise<void> {
  const entry = entryOf(path);
  if (entry.inflight) return entry.inflight;
  const run = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        entry.data = await request<unknown>(path);
        entry.error = undefined;
        break;
      } catch (error) {
        if (attempt < retries && shouldRetry(error, attempt)) {
          await wait(1000);
          continue;
        }
        entry.error = error instanceof Error ? error : new Error(String(error));
        break;
      }
    }
    entry.at = Date.now();
  };
  const changed = () => {
    entry.version++;
    entry.listeners.forEach((listener) => listener());
  };
  entry.inflight = run().finally(() => {
    entry.inflight = undefined;
    changed();
  });
  changed();
  return entry.inflight;
}

/** How many times a path's entry has changed (0 before its first request). */
export function apiVersion(path: string | null): number {
  return (path ? cache.get(path)?.version : undefined) ?? 0;
}

/** What a path's entry holds now: the data, the error, and whether a request is running or yet to start. */
export function readApi<T>(path: string | null): Omit<ApiState<T>, 'refetch'> {
  const entry = path ? cache.get(path) : undefined;
  return {
    data: entry?.data as T | undefined,
    error: entry?.error,
    loading: Boolean(path) && (!entry || Boolean(entry.inflight) || (entry.at === 0 && !entry.error)),
  };
}

/**
 * Keeps a path fresh while watched: loads it now when stale, again when the tab shows and it is stale, and every
 * `refetchMs`; calls `onChange` whenever its entry changes. Returns the function that stops watching.
 */
export function watchApi(path: string, options: ApiOptions, onChange: () => void): () => void {
  const entry = entryOf(path);
  entry.listeners.add(onChange);
  const refresh = () => {
    if (!entry.inflight && Date.now() - entry.at >= options.staleMs) void load(path, options.retries);
  };
  refresh();
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  document.addEventListener('visibilitychange', onVisible);
  const timer = options.refetchMs ? setInterval(() => void load(path, options.retries), options.refetchMs) : undefined;
  return () => {
    entry.listeners.delete(onChange);
    document.removeEventListener('visibilitychange', onVisible);
    if (timer) clearInterval(timer);
  };
}

/** Spec section 9, detail page: quote stale 60 s and refetched every 5 min. */
export const QUOTE_OPTIONS: ApiOptions = { staleMs: 60_000, retries: 2, refetchMs: 5 * 60_000 };
/** Spec section 9: earnings cached 24 h. */
export const EARNINGS_OPTIONS: ApiOptions = { staleMs: 24 * 3_600_000, retries: 2 };
/** Spec section 9: news stale 5 min. */
export const NEWS_OPTIONS: ApiOptions = { staleMs: 5 * 60_000, retries: 2 };
/** Spec section 9: trend stale 60 s, 2 retries. */
export const TREND_OPTIONS: ApiOptions = { staleMs: 60_000, retries: 2 };
/** Spec section 9: the stock query is stale at once, 2 retries. */
export const STOCK_OPTIONS: ApiOptions = { staleMs: 0, retries: 2 };
/** Spec section 9: the all-signals list is stale after 60 s, 2 retries. */
export const ALL_SIGNALS_OPTIONS: ApiOptions = { staleMs: 60_000, retries: 2 };
