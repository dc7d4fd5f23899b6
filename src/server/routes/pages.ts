import type { MiddlewareHandler } from 'hono';
import { isTicker } from '../../lib/domain/ticker';
import { asciiUpper } from '../../lib/domain/text';

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
    const upper = asciiUpper(ticker);
    // /signal/index.html is the Stock Not Found page's file, not a ticker to upper-case.
    if (upper === ticker || !isTicker(upper) || /\.(html?|json)$/i.test(ticker)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/signal/${upper}${match?.[2] ?? ''}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}
