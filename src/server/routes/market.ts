/** Live market-data routes: the quote, earnings, and the /api/polygon/* pass-throughs (spec section 7). */
import { Hono } from 'hono';
import { z } from 'zod';
import { logoRoute } from '../../lib/domain/site/api-responses';
import { cacheControl } from '../../lib/domain/site/cache-windows';
import { earningsFromStore, quoteWithFundamentals } from '../../lib/domain/market-data/fundamentals';
import { IsoDateSchema } from '../../lib/domain/report/schemas';
import { refusal } from '../errors';
import { SECURITY_HEADERS } from '../security';
import { NO_EARNINGS, ProviderError } from '../providers/provider';
import { optionalQuery, TickerParams, validate } from '../validate';
import { BARS_ROUTE_DAYS } from '../../lib/domain/trend/chart-series';
import { knownRecord, orEmpty, typedJson, type ApiContext } from './context';
import { clientAddress, spendsUpstream } from '../upstream';

/** Default window of /api/polygon/aggs when no `from` is given (spec section 7). */
export const DEFAULT_AGGS_DAYS = 14;
/** Longest bar window: a month, twice what the spec's default asks for, so a stranger cannot spend the budget on history. */
export const MAX_AGGS_DAYS = BARS_ROUTE_DAYS;
const DAY_MS = 86_400_000;

const QUOTE = { 'Cache-Control': cacheControl('quote') };
/**
 * The quote's answer headers, prepared once with the security headers in (app.ts skips the middleware for this route),
 * and sent as a plain record, which @hono/node-server writes without building a Headers object. With c.json and the
 * middleware, the cached quote missed its throughput budget; prepared, it meets it (bench/RESULTS.md, "API throughput").
 */
const QUOTE_ANSWER = Object.freeze({ ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...QUOTE });
const NEWS = { 'Cache-Control': cacheControl('news') };
const BARS = { 'Cache-Control': cacheControl('bars') };
const DETAILS = { 'Cache-Control': cacheControl('details') };
const EARNINGS = { 'Cache-Control': cacheControl('earnings') };
const LOGO = {
  'Cache-Control': cacheControl('logo'),
  // An SVG opened directly must not run script on our origin.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
};

export const NewsQuery = z.object({
  limit: optionalQuery(z.coerce.number().int('expected a whole number from 1 to 50, e.g. ?limit=5').min(1, 'expected 1 or more').max(50, 'expected 50 or less')),
});

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const QueryDate = IsoDateSchema.pipe(z.string().refine((date) => !Number.isNaN(Date.parse(date)), 'expected a calendar date, e.g. 2026-11-20'));

/** The fields of /api/polygon/aggs's query, before their defaults and window rules. */
export const AggsWindowQuery = z.object({ from: optionalQuery(QueryDate), to: optionalQuery(QueryDate) });

/** The bar window of /api/polygon/aggs: `from` defaults to 14 days before `to`, `to` to today and never after it; at most MAX_AGGS_DAYS. */
export function aggsQuery(now: () => number) {
  return AggsWindowQuery
    .transform(({ from, to }) => {
      const end = to ?? isoDay(now());
      return { from: from ?? isoDay(Date.parse(end) - DEFAULT_AGGS_DAYS * DAY_MS), to: end };
    })
    .superRefine(({ from, to }, ctx) => {
      const today = isoDay(now());
      if (to > today) ctx.addIssue({ code: 'custom', path: ['to'], message: `${to} is after today (${today}): there are no bars yet` });
      else if (from > to) ctx.addIssue({ code: 'custom', path: ['from'], message: `${from} is after the "to" date ${to}: swap them` });
      else if (Date.parse(to) - Date.parse(from) > MAX_AGGS_DAYS * DAY_MS) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: `${from} to ${to} is longer than ${MAX_AGGS_DAYS} days: ask for a shorter window` });
      }
    });
}

/** The market-data routes. */
export function marketRoutes(context: ApiContext) {
  const { provider, trustedProxies } = context;
  const isDemo = provider.name === 'demo';
  const spends = (priority: 'page') => spendsUpstream(priority, trustedProxies);
  return new Hono()
    // No spendsUpstream here: a cached quote needs no caller, and the provider asks for one only when it calls upstream.
    .get('/stock-price/:ticker', validate('param', TickerParams), async (c) => {
      const { ticker } = c.req.valid('param');
      const { site } = await knownRecord(context, ticker);
      let quote;
      try {
        quote = await provider.quote(ticker, () => ({ client: clientAddress(c, trustedProxies), priority: 'quote' }));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        throw refusal(503, `No quote for ${ticker} right now: the market-data provider is unavailable or its request budget is spent; try again in a minute.`, {
          'Retry-After': '60',
        });
      }
      if (quote === null) throw refusal(404, `The market-data provider has no quote for ${ticker}; the signal page shows the scores without a price.`);
      const answer = quoteWithFundamentals(quote, site.fundamentals.get(ticker));
      return typedJson<typeof answer>(new Response(JSON.stringify(answer), { headers: QUOTE_ANSWER }));
    })
    .get('/earnings-date/:ticker', validate('param', TickerParams), async (c) => {
      const { ticker } = c.req.valid('param');
      const { site } = await knownRecord(context, ticker);
      const stored = earningsFromStore(site.fundamentals.get(ticker));
      return c.json(stored ?? (await orEmpty(() => provider.earnings(ticker), NO_EARNINGS)), 200, EARNINGS);
    })
    .get('/polygon/news/:ticker', validate('param', TickerParams), validate('query', NewsQuery, '?limit=5'), spends('page'), async (c) => {
      const { ticker } = c.req.valid('param');
      const { limit = 5 } = c.req.valid('query');
      await knownRecord(context, ticker);
      return c.json({ results: await orEmpty(() => provider.news(ticker, limit), []) }, 200, NEWS);
    })
    .get('/polygon/aggs/:ticker', validate('param', TickerParams), validate('query', aggsQuery(context.now), '?from=2026-11-06&to=2026-11-20'), spends('page'), async (c) => {
      const { ticker } = c.req.valid('param');
      const { from, to } = c.req.valid('query');
      await knownRecord(context, ticker);
      return c.json({ ticker, from, to, results: await orEmpty(() => provider.dailyBars(ticker, from, to), []), isDemo }, 200, BARS);
    })
    .get('/polygon/price/:ticker', validate('param', TickerParams), spends('page'), async (c) => {
      const { ticker } = c.req.valid('param');
      await knownRecord(context, ticker);
      const bar = await orEmpty(() => provider.previousClose(ticker), null);
      return c.json({ ticker, results: bar === null ? [] : [bar], isDemo }, 200, QUOTE);
    })
    .get('/polygon/ticker-details/:ticker', validate('param', TickerParams), spends('page'), async (c) => {
      const { ticker } = c.req.valid('param');
      await knownRecord(context, ticker);
      const details = await orEmpty(() => provider.tickerDetails(ticker), null);
      // The provider's logo address needs the key: the browser gets our own route instead.
      const results = details === null ? null : { ...details, branding: details.branding ? { logo_url: logoRoute(ticker) } : undefined };
      return c.json({ results }, 200, DETAILS);
    })
    .get('/polygon/logo/:ticker', validate('param', TickerParams), spends('page'), async (c) => {
      const { ticker } = c.req.valid('param');
      await knownRecord(context, ticker);
      const stored = await context.companies.get(ticker);
      const logo = await orEmpty(() => provider.logo(ticker, stored?.logoUrl), null);
      if (logo === null) throw refusal(404, `No logo for ${ticker}: the page shows the ticker's initials instead.`);
      return c.body(logo.bytes, 200, { ...LOGO, 'Content-Type': logo.contentType });
    });
}
