/**
 * The per-ticker daily-data routes are static JSON files (DESIGN.md "API routes"); these handlers stand in front
 * of the static files to check the ticker: 400 for a malformed one, a 301 to the upper-case address for a
 * lower-case one, and a 404 that names the report for a ticker it does not have. Their answers are the files', which the
 * browser parses with the domain's schemas (lib/client/static-files.ts), so these routes add no types to AppType.
 */
import { Hono } from 'hono';
import { noSignalMessage } from '../../lib/domain/site/api-responses';
import { PER_TICKER_ROUTES } from '../../lib/domain/site/routes';
import { refusal } from '../errors';
import { z } from 'zod';
import { routeTicker, validate } from '../validate';
import type { ApiContext } from './context';

/** The last segment of a static per-ticker route: the file's own name (AAPL.json), which is served as it is (null), or a ticker. */
const StaticTickerParams = z.object({ ticker: z.string().transform((raw, ctx) => (raw.endsWith('.json') ? null : routeTicker(raw, ctx))) });

/** The ticker checks of the static per-ticker routes; each falls through to the static file. */
export function staticTickerRoutes(context: ApiContext) {
  const routes = new Hono();
  for (const route of PER_TICKER_ROUTES) {
    routes.get(`/${route}/:ticker`, validate('param', StaticTickerParams), async (c, next) => {
      const { ticker } = c.req.valid('param');
      if (ticker === null) return next();
      if (ticker !== c.req.param('ticker')) {
        const query = c.req.url.indexOf('?');
        return c.redirect(`/api/${route}/${encodeURIComponent(ticker)}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
      }
      // The report in memory answers an unknown ticker before the static handler looks for a file.
      const site = context.site.peek() ?? (await context.site.current().catch(() => null));
      if (site !== null && !site.records.has(ticker)) throw refusal(404, noSignalMessage(ticker, site.reportDate));
      return next();
    });
  }
  return routes;
}
