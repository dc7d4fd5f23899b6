import type { MiddlewareHandler } from 'hono';
import { isTicker } from '../../lib/domain/ticker';

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
    if (upper === ticker || !isTicker(upper)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/signal/${upper}${match?.[2] ?? ''}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}

/** 301 from /archives/1 to /archives: the first page of the archives has one address (its canonical link's). */
export function archiveFirstPageRedirect(): MiddlewareHandler {
  return async (c, next) => {
    if (!/^\/archives\/1\/?$/.test(c.req.path)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/archives${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}
