import { Hono } from 'hono';
import type { Env, MiddlewareHandler, Schema } from 'hono';
import { OPERATOR_PAGES } from '../lib/domain/site/routes';
import { requestBodyLimits } from './body-limits';
import { answerError } from './errors';
import { archiveFirstPageRedirect, filteredListPages, screenerPages, signalPageRedirect } from './routes/pages';
import type { ScreenerViewers } from './routes/screener-rows';
import { SiteIndexLoader } from '../storage/site-index';
import { FILTERABLE_LIST_PATHS } from '../lib/domain/signals/list-filter';
import { DEFAULT_SECURITY_POLICY, framableAnswers, type SecurityPolicy } from './security';
import { EMBED_PATH_PREFIX } from '../lib/domain/site/embed';
import { type StaticSiteOptions, staticSite } from './static';

/**
 * The quote's answers are built with SECURITY_HEADERS in (routes/market.ts says why) and its refusals get them from
 * answerError: with the middleware, the cached quote fell below its throughput budget (bench/RESULTS.md, "API throughput").
 */
const PREPARED_PREFIX = '/api/stock-price/';

/** What createApp serves: the static build and, when given, the live API. */
export interface AppOptions<E extends Env> extends StaticSiteOptions {
  /**
   * The live API, mounted at /api before the static files. A path it does not match falls through to the static
   * build (the pre-rendered JSON of DESIGN.md "API routes"), so it must not end in a catch-all.
   */
  api?: Hono<E, Schema, string>;
  /** The security policy; default DEFAULT_SECURITY_POLICY (securityPolicy() makes one with more form targets). */
  security?: SecurityPolicy;
  /** The check in front of the operators' pages (routes/pages.ts `operatorPages`); without it they are plain static pages. */
  operatorPages?: MiddlewareHandler;
  /** Who asks for /screener: a Pro session's and a watchlist's screens (routes/pages.ts); without it the answer is the same for all. */
  screenerViewers?: ScreenerViewers;
  /** The published build's index, shared with the API (createApi's `site`) so the process holds one copy. */
  site?: SiteIndexLoader;
  /**
   * Runs first on every request but the prepared quote's, which has no room for it in its budget: request ids, logs,
   * readiness (operations.ts requestOperations, from scripts/start.ts).
   */
  operations?: MiddlewareHandler;
}

/** The Hono app for one Node process: security headers, the live API under /api, then `${distDir}/client`. */
export function createApp<E extends Env = Env>(options: AppOptions<E>): Hono<E> {
  const app = new Hono<E>();
  const { middleware: secure, headers } = options.security ?? DEFAULT_SECURITY_POLICY;
  const operations = options.operations;
  // Before the security headers, so it sees the answer with them and opens the embeddable cards to framing.
  app.use(`${EMBED_PATH_PREFIX}*`, framableAnswers());
  // One middleware for both, so the prepared quote pays for one path check and nothing else.
  if (operations === undefined) app.use((c, next) => (c.req.path.startsWith(PREPARED_PREFIX) ? next() : secure(c, next)));
  else {
    app.use((c, next) => {
      if (c.req.path.startsWith(PREPARED_PREFIX)) return next();
      return operations(c, async () => {
        await secure(c, next);
      });
    });
  }
  app.use(requestBodyLimits());
  app.use('/signal/*', signalPageRedirect());
  app.use('/archives/*', archiveFirstPageRedirect());
  const site = options.site ?? new SiteIndexLoader(options.distDir);
  const lists = filteredListPages(options.distDir, site, headers['content-security-policy']);
  const screener = screenerPages(options.distDir, site, headers['content-security-policy'], options.screenerViewers);
  app.use('/screener', screener).use('/screener/', screener);
  for (const path of ['/', ...FILTERABLE_LIST_PATHS]) app.use(path, lists).use(`${path}/`.replace('//', '/'), lists);
  if (options.operatorPages !== undefined) for (const page of OPERATOR_PAGES) app.use(page, options.operatorPages).use(`${page}/*`, options.operatorPages);
  if (options.api !== undefined) app.route('/api', options.api);
  app.route('/', staticSite({ ...options, securityHeaders: headers }));
  app.onError(answerError);
  return app;
}
