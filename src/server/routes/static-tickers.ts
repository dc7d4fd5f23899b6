/**
 * The per-ticker daily-data routes are static JSON files (DESIGN.md "API routes"); these handlers stand in front
 * of the static files to check the ticker: 400 for a malformed one, a 301 to the upper-case address for a
 * lower-case one, and a 404 that names the report for a ticker it does not have.
 */
import type { Hono } from 'hono';
import { noSignalMessage } from '../../lib/domain/api-responses';
import { PER_TICKER_ROUTES } from '../../lib/domain/routes';
import { tickerProblem } from '../../lib/domain/ticker';
import { jsonError, type ApiContext } from './context';

/** Mounts the ticker checks of the static per-ticker routes; each falls through to the static file. */
export function staticTickerRoutes(api: Hono, context: ApiContext): void {
  for (const route of PER_TICKER_ROUTES) {
    api.get(`/${route}/:ticker`, async (c, next) => {
      const raw = c.req.param('ticker');
      // The file's own name (AAPL.json) is served as it is.
      if (raw.endsWith('.json')) return next();
      const problem = tickerProblem(raw);
      if (problem !== null) return jsonError(400, problem);
      const upper = raw.toUpperCase();
      if (upper !== raw) {
        const query = c.req.url.indexOf('?');
        return c.redirect(`/api/${route}/${encodeURIComponent(upper)}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
      }
      // The report in memory answers an unknown ticker before the static handler looks for a file.
      const site = context.site.peek() ?? (await context.site.current().catch(() => null));
      if (site !== null && !site.records.has(upper)) return jsonError(404, noSignalMessage(upper, site.reportDate));
      return next();
    });
  }
}
