import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { OPERATOR_PAGES, OPERATORS_ONLY_PAGE } from '../../lib/domain/routes';
import { isTicker } from '../../lib/domain/ticker';
import type { SessionReader } from '../auth/session';

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

/**
 * /upload and /admin (issue 13) only for operators: signed out, a 302 to /login that returns here; signed in
 * without the role, the pre-rendered "Operators only" page with status 403. Never the form to anyone else.
 */
export function operatorPages(session: SessionReader, distDir: string): MiddlewareHandler {
  const refusalPage = join(distDir, 'client', OPERATORS_ONLY_PAGE);
  return async (c, next) => {
    const user = await session.lookup(c.req.header('cookie'));
    const noStore = { 'Cache-Control': 'private, no-store' };
    if (user === null) {
      const page = OPERATOR_PAGES.find((p) => c.req.path === p || c.req.path.startsWith(`${p}/`)) ?? '/';
      return c.redirect(`/login?returnTo=${encodeURIComponent(page)}`, 302);
    }
    if (!user.isOperator) {
      const html = await readFile(refusalPage, 'utf8').catch(() => 'Only operators (ADMIN_EMAILS) may open this page.');
      return c.html(html, 403, noStore);
    }
    await next();
    c.res.headers.set('Cache-Control', 'private, no-store');
  };
}
