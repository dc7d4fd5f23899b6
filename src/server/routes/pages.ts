import type { MiddlewareHandler } from 'hono';
import { ROUTE_TICKER } from '../../lib/domain/api-responses';

/**
 * The pre-rendered Stock Not Found screen (src/pages/signal/index.astro: spec section 2, the detail route with no
 * ticker), which also answers every /signal/{unknown or malformed ticker}.
 */
export const STOCK_NOT_FOUND_PAGE = 'signal/index.html';

/** The generic not-found page (src/pages/404.astro). */
export const NOT_FOUND_PAGE = '404.html';

/** The page that answers a path with no file, with status 404: the Stock Not Found screen under /signal, else 404.html. */
export function notFoundPageFor(path: string): string {
  return path === '/signal' || path.startsWith('/signal/') ? STOCK_NOT_FOUND_PAGE : NOT_FOUND_PAGE;
}

/** 301 from /signal/aapl to /signal/AAPL (spec section 5: the route's ticker is upper-cased); other paths pass. */
export function signalPageRedirect(): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const match = /^\/signal\/([^/]+)(\/?)$/.exec(path);
    const raw = match?.[1];
    if (raw === undefined) return next();
    let ticker: string;
    try {
      ticker = decodeURIComponent(raw);
    } catch {
      return next();
    }
    const upper = ticker.toUpperCase();
    if (upper === ticker || !ROUTE_TICKER.test(upper)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/signal/${upper}${match?.[2] ?? ''}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}
