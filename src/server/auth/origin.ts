/**
 * Our own state-changing routes (account, watchlist, operator writes) get the same rule as Better Auth's: a request
 * that carries cookies must come from a trusted origin (SITE_URL's, or the server's own), told by `Origin` or,
 * failing that, `Referer`. A cross-site form post or fetch is refused with 403 before anything is read or written.
 */
import type { MiddlewareHandler } from 'hono';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function trustedOrigin(trusted: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (!SAFE.has(c.req.method) && c.req.header('cookie')) {
      const own = new URL(c.req.url).origin;
      let origin = c.req.header('origin') ?? null;
      if (origin === null || origin === 'null') {
        const referer = c.req.header('referer');
        try {
          origin = referer ? new URL(referer).origin : null;
        } catch {
          origin = null;
        }
      }
      if (origin === null || (origin !== own && !trusted.includes(origin))) {
        return c.json({ error: 'This request did not come from this site: send it from the site itself.' }, 403, { 'Cache-Control': 'no-store' });
      }
    }
    await next();
  };
}
