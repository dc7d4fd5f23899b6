/**
 * A small shared cache for the detail islands' GET requests (spec section 9 "Detail page" windows): one entry
 * per path shared by every island on the page, merged in-flight requests, a stale window, retries with a
 * 1-second delay as `shouldRetry` allows, an optional refetch interval, and a refetch of stale entries when the
 * tab becomes visible again.
 */
import { useEffect, useState } from 'react';
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
  listeners: Set<() => void>;
}

const cache = new Map<string, Entry>();

function entryOf(path: string): Entry {
  let entry = cache.get(path);
  if (!entry) {
    entry = { at: 0, listeners: new Set() };
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
  entry.inflight = run().finally(() => {
    entry.inflight = undefined;
    entry.listeners.forEach((listener) => listener());
  });
  entry.listeners.forEach((listener) => listener());
  return entry.inflight;
}

/** Reads a path through the shared cache; `path` null waits. */
export function useApi<T>(path: string | null, options: ApiOptions): ApiState<T> {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    const entry = entryOf(path);
    const listener = () => setTick((n) => n + 1);
    entry.listeners.add(listener);
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
      entry.listeners.delete(listener);
      document.removeEventListener('visibilitychange', onVisible);
      if (timer) clearInterval(timer);
    };
  }, [path, options.staleMs, options.retries, options.refetchMs]);
  const entry = path ? cache.get(path) : undefined;
  return {
    data: entry?.data as T | undefined,
    error: entry?.error,
    loading: Boolean(path) && (!entry || Boolean(entry.inflight) || (entry.at === 0 && !entry.error)),
    refetch: () => {
      if (path) void load(path, options.retries);
    },
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
