import { Hono } from 'hono';
import type { Env, Schema } from 'hono';
import { requestBodyLimits } from './body-limits';
import { answerError } from './errors';
import { signalPageRedirect } from './routes/pages';
import { securityHeaders } from './security';
import { type StaticSiteOptions, staticSite } from './static';

/**
 * The quote's answers are built with SECURITY_HEADERS in (routes/market.ts, with the figures) and its refusals get them
 * from answerError: with the middleware, the cached quote measured below its 20,000 req/s budget.
 */
const PREPARED_PREFIX = '/api/stock-price/';

/** What createApp serves: the static build and, when given, the live API. */
export interface AppOptions<E extends Env> extends StaticSiteOptions {
  /**
   * The live API, mounted at /api before the static files. A path it does not match falls through to the static
   * build (the pre-rendered JSON of DESIGN.md "API routes"), so it must not end in a catch-all.
   */
  api?: Hono<E, Schema, string>;
}

/** The Hono app for one Node process: security headers, the live API under /api, then `${distDir}/client`. */
export function createApp<E extends Env = Env>(options: AppOptions<E>): Hono<E> {
  const app = new Hono<E>();
  const secure = securityHeaders();
  app.use((c, next) => (c.req.path.startsWith(PREPARED_PREFIX) ? next() : secure(c, next)));
  app.use(requestBodyLimits());
  app.use('/signal/*', signalPageRedirect());
  if (options.api !== undefined) app.route('/api', options.api);
  app.route('/', staticSite(options));
  app.onError(answerError);
  return app;
}
