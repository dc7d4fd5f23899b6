import { Hono } from 'hono';
import type { Env, Schema } from 'hono';
import { securityHeaders } from './headers';
import { notFoundPageFor } from '../lib/domain/routes';
import { signalPageRedirect } from './routes/pages';
import { type StaticSiteOptions, createStaticSite } from './static';

/** What createApp serves: the static build and, when given, the live API router. */
export interface AppOptions<E extends Env> extends StaticSiteOptions {
  /**
   * The live API router, mounted at /api before the static files. A path it does not match falls through
   * to the static build (the pre-rendered JSON of DESIGN.md "API routes"), so it must not end in a catch-all.
   */
  api?: Hono<E, Schema, string>;
}

/** The Hono app for one Node process: security headers, the live API under /api, then `${distDir}/client`. */
export function createApp<E extends Env = Env>(options: AppOptions<E>): Hono<E> {
  const app = new Hono<E>();
  app.use(securityHeaders());
  app.use('/signal/*', signalPageRedirect());
  if (options.api !== undefined) app.route('/api', options.api);
  // A path with no file gets 404.html, or under /signal the Stock Not Found screen, with status 404.
  app.all('*', createStaticSite({ ...options, notFoundPage: options.notFoundPage ?? notFoundPageFor }).handler);
  app.onError((error, c) => {
    console.error(`Request ${c.req.method} ${c.req.path} failed:`, error);
    const message = 'Internal server error; the server log has the details.';
    return c.req.path.startsWith('/api/') ? c.json({ error: message }, 500) : c.text(message, 500);
  });
  return app;
}
