/** The React face of the detail page's request cache (./api-cache): `useApi` re-renders on every change of a path. */
import { useCallback, useSyncExternalStore } from 'react';
import { apiVersion, load, readApi, watchApi, type ApiOptions, type ApiState } from './api-cache';

export { ALL_SIGNALS_OPTIONS, EARNINGS_OPTIONS, NEWS_OPTIONS, QUOTE_OPTIONS, STOCK_OPTIONS, TREND_OPTIONS, load } from './api-cache';
export type { ApiOptions, ApiState } from './api-cache';

/** While React hydrates, the state the server rendered: nothing loaded yet. */
const HYDRATING = -1;

/**
 * Reads a path through the shared cache; `path` null waits. While an island hydrates it reads as the server rendered
 * it (loading), even when another part of the page has already loaded the path; the answer shows on the next render.
 */
export function useApi<T>(path: string | null, options: ApiOptions): ApiState<T> {
  const subscribe = useCallback((onChange: () => void) => (path ? watchApi(path, options, onChange) : () => undefined), [path, options]);
  const version = useSyncExternalStore(subscribe, () => apiVersion(path), () => HYDRATING);
  const state = version === HYDRATING ? { data: undefined, error: undefined, loading: Boolean(path) } : readApi<T>(path);
  return {
    ...state,
    refetch: () => {
      if (path) void load(path, options.retries);
    },
  };
}
