/**
 * The Pro data (DESIGN.md "Accounts and entitlements"), mounted under /api/pro: what the static
 * build leaves out with PAYWALL=on (the full lists, a locked top ticker's record, metrics and trend), answered only
 * to a signed-in Pro user: 401 signed out, 403 for a Free account. Never cached by a shared cache. The session check
 * is injected (`sessionUser`, the accounts' middleware that sets `c.var.user`), so these routes do no session work
 * of their own.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { allSignals, currentlyQualified, recentlyQualified, reversalsAndExits } from '../../lib/domain/signals/lists';
import { tickerMetrics } from '../../lib/domain/site/api-responses';
import { buildTrend } from '../../lib/domain/trend/trend';
import { refusal } from '../errors';
import { routeTicker, validate } from '../validate';
import { knownRecord, type ApiContext } from './context';
import { requirePro, type SessionEnv } from '../auth/session';
import { packScreenRows } from '../../lib/domain/signals/screener-page';
import { proScreenRows } from './screener-rows';

/** The Pro lists, by the page address they complete. */
export const PRO_LISTS = ['all-signals', 'currently-qualified', 'recently-qualified', 'reversals-exits', 'heatmap'] as const;
const ListParams = z.object({ list: z.enum(PRO_LISTS, { error: `expected one of ${PRO_LISTS.join(', ')}` }) });
const TickerParams = z.object({ ticker: z.string().transform((raw, ctx) => routeTicker(raw, ctx)) });

/** /pro/all-signals, /pro/lists/{list}, /pro/screener, /pro/stock/{T}, /pro/ticker-metrics/{T}, /pro/c-score-trend/{T}. */
export function proRoutes(context: ApiContext, sessionUser: MiddlewareHandler<SessionEnv>) {
  async function history() {
    const site = await context.site.current();
    if (site === null) throw refusal(503, 'No report is published yet: run "npm run daily" to build the site.', { 'Retry-After': '60' });
    return site.history;
  }

  // The list rows' price cells, as the build renders them into the free rows.
  async function prices() {
    const site = (await context.site.current())!;
    const rows = Object.fromEntries(site.history.latest.flatMap((r) => (site.prices.has(r.ticker) ? [[r.ticker, site.prices.get(r.ticker)!]] : [])));
    return { prices: rows, pricesSource: site.pricesSource };
  }

  return new Hono<SessionEnv>()
    .use('*', sessionUser, requirePro, async (c, next) => {
      await next();
      c.header('Cache-Control', 'private, no-store');
      c.header('Vary', 'Cookie');
    })
    .get('/all-signals', async (c) => c.json(allSignals(await history())))
    .get('/lists/:list', validate('param', ListParams), async (c) => {
      const h = await history();
      switch (c.req.valid('param').list) {
        case 'all-signals':
          return c.json({ rows: allSignals(h), ...(await prices()) });
        case 'currently-qualified':
          return c.json({ rows: currentlyQualified(h), ...(await prices()) });
        case 'recently-qualified':
          return c.json({ ...recentlyQualified(h), ...(await prices()) });
        case 'reversals-exits':
          return c.json({ ...reversalsAndExits(h), records: h.latest, ...(await prices()) });
        case 'heatmap': {
          // The tiles are sized by market cap, as the build sizes them.
          const { companies } = await context.companies.read();
          const caps = Object.fromEntries(h.latest.flatMap((r) => (companies[r.ticker]?.marketCap === undefined ? [] : [[r.ticker, companies[r.ticker]!.marketCap]])));
          return c.json({ rows: h.latest, caps });
        }
      }
    })
    // The screener's every row: its data as the page carries it (packScreenRows) and its HTML, in the table's order.
    .get('/screener', async (c) => {
      const site = await context.site.current();
      if (site === null) throw refusal(503, 'No report is published yet: run "npm run daily" to build the site.', { 'Retry-After': '60' });
      const { rows, html } = proScreenRows(site);
      return c.json({ rows: packScreenRows(rows), html: rows.map((r) => html.get(r.ticker)!).join('') });
    })
    .get('/stock/:ticker', validate('param', TickerParams), async (c) => c.json((await knownRecord(context, c.req.valid('param').ticker)).record))
    .get('/ticker-metrics/:ticker', validate('param', TickerParams), async (c) =>
      c.json(tickerMetrics((await knownRecord(context, c.req.valid('param').ticker)).record)),
    )
    .get('/c-score-trend/:ticker', validate('param', TickerParams), async (c) => {
      const { record } = await knownRecord(context, c.req.valid('param').ticker);
      return c.json(buildTrend(await history(), record.ticker));
    });
}
