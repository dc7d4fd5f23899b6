/** Live market-data routes: the quote, earnings, and the /api/polygon/* pass-throughs (spec section 7). */
import type { Hono } from 'hono';
import { logoRoute } from '../../lib/domain/api-responses';
import { IsoDateSchema } from '../../lib/domain/schemas';
import { markSecured } from '../headers';
import { NO_EARNINGS, ProviderError } from '../providers/provider';
import {
  FAILED_ANSWER_TTL_MS,
  answerTtl,
  jsonError,
  jsonHeaders,
  knownRecord,
  providerAnswer,
  routeRecord,
  routeTicker,
  sendJson,
  type ApiContext,
} from './context';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Windows of spec section 9 for each live answer. */
export const ANSWER_WINDOWS_MS = {
  quote: 2 * MINUTE,
  earnings: 24 * HOUR,
  news: 5 * MINUTE,
  aggs: HOUR,
  details: 24 * HOUR,
} as const;

const QUOTE_HEADERS = jsonHeaders('public, max-age=60');
const MARKET_HEADERS = jsonHeaders('public, max-age=300');
const DAILY_HEADERS = jsonHeaders('public, max-age=3600');

/** Default window of /api/polygon/aggs when no `from` is given (spec section 7). */
export const DEFAULT_AGGS_DAYS = 14;
const MAX_AGGS_DAYS = 400;
const DAY_MS = 86_400_000;

/** Mounts the market-data routes on the API router. */
export function marketRoutes(api: Hono, context: ApiContext): void {
  const known = (ticker: string): boolean => context.site.peek()?.records.has(ticker) ?? false;

  async function loadQuote(ticker: string, key: string): Promise<Response> {
    const found = await knownRecord(context, ticker);
    if (found instanceof Response) return found;
    try {
      const result = await context.answers.get(key, answerTtl(context, ANSWER_WINDOWS_MS.quote), async () => {
        const quote = await context.provider.quote(ticker);
        return quote === null ? '' : JSON.stringify(quote);
      });
      if (result.value === '') return jsonError(404, `The market-data provider has no quote for ${ticker}; the signal page shows the scores without a price.`);
      return sendJson(result.value, QUOTE_HEADERS);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return jsonError(503, `No quote for ${ticker} right now: the market-data provider is unavailable or its request budget is spent; try again in a minute.`, {
        'Retry-After': '60',
      });
    }
  }

  api.get('/stock-price/:ticker', (c) => {
    const ticker = routeTicker(c);
    if (typeof ticker !== 'string') return ticker;
    // The hot path, synchronous: a cached quote is sent as its stored bytes, with no parsing and no new objects.
    const key = `quote:${ticker}`;
    const cached = context.answers.peek(key);
    if (cached !== undefined && known(ticker)) return sendJson(cached, QUOTE_HEADERS);
    return loadQuote(ticker, key);
  });

  api.get('/earnings-date/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const body = await providerAnswer(context, `earnings:${ticker}`, ANSWER_WINDOWS_MS.earnings, () => context.provider.earnings(ticker), NO_EARNINGS);
    return sendJson(body, DAILY_HEADERS);
  });

  api.get('/polygon/news/:ticker', async (c) => {
    const ticker = routeTicker(c);
    if (typeof ticker !== 'string') return ticker;
    const limit = intParam(c.req.query('limit'), 5, 1, 50);
    if (limit === null) return jsonError(400, 'The limit must be a whole number from 1 to 50, e.g. ?limit=5.');
    const found = await knownRecord(context, ticker);
    if (found instanceof Response) return found;
    const body = await providerAnswer(
      context,
      `news:${ticker}:${limit}`,
      ANSWER_WINDOWS_MS.news,
      async () => ({ results: await context.provider.news(ticker, limit) }),
      { results: [] },
    );
    return sendJson(body, MARKET_HEADERS);
  });

  api.get('/polygon/aggs/:ticker', async (c) => {
    const ticker = routeTicker(c);
    if (typeof ticker !== 'string') return ticker;
    const range = aggsRange(c.req.query('from'), c.req.query('to'), context.now());
    if (typeof range === 'string') return jsonError(400, range);
    const found = await knownRecord(context, ticker);
    if (found instanceof Response) return found;
    const body = await providerAnswer(
      context,
      `aggs:${ticker}:${range.from}:${range.to}`,
      ANSWER_WINDOWS_MS.aggs,
      async () => ({ ticker, from: range.from, to: range.to, results: await context.provider.dailyBars(ticker, range.from, range.to) }),
      { ticker, from: range.from, to: range.to, results: [] },
    );
    return sendJson(body, MARKET_HEADERS);
  });

  api.get('/polygon/price/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const body = await providerAnswer(
      context,
      `price:${ticker}`,
      ANSWER_WINDOWS_MS.quote,
      async () => {
        const bar = await context.provider.previousClose(ticker);
        return { ticker, results: bar === null ? [] : [bar], isDemo: context.provider.name === 'demo' };
      },
      { ticker, results: [], isDemo: context.provider.name === 'demo' },
    );
    return sendJson(body, QUOTE_HEADERS);
  });

  api.get('/polygon/ticker-details/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const body = await providerAnswer(
      context,
      `details:${ticker}`,
      ANSWER_WINDOWS_MS.details,
      async () => {
        const details = await context.provider.tickerDetails(ticker);
        if (details === null) return { results: null };
        // The provider's logo address needs the key: the browser gets our own route instead.
        const branding = details.branding ? { logo_url: logoRoute(ticker) } : undefined;
        return { results: { ...details, branding } };
      },
      { results: null },
    );
    return sendJson(body, DAILY_HEADERS);
  });

  api.get('/polygon/logo/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const missing = `No logo for ${ticker}: the page shows the ticker's initials instead.`;
    if (context.answers.peek(`logo-missing:${ticker}`) !== undefined) return jsonError(404, missing);
    try {
      const stored = await context.companies.get(ticker);
      const logo = await context.provider.logo(ticker, stored?.logoUrl);
      if (logo === null) return jsonError(404, missing);
      return markSecured(
        new Response(logo.bytes, {
          headers: {
            ...jsonHeaders('public, max-age=86400'),
            'Content-Type': logo.contentType,
            // An SVG opened directly must not run script on our origin.
            'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      context.answers.set(`logo-missing:${ticker}`, '1', FAILED_ANSWER_TTL_MS);
      return jsonError(404, missing);
    }
  });
}

/** A whole-number query parameter within bounds, the default when absent, or null when invalid. */
function intParam(raw: string | undefined, fallback: number, min: number, max: number): number | null {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,4}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= min && value <= max ? value : null;
}

/** The bar window of /api/polygon/aggs: `from` defaults to 14 days before `to`, `to` to today; or what is wrong. */
export function aggsRange(from: string | undefined, to: string | undefined, now: number): { from: string; to: string } | string {
  const end = to || new Date(now).toISOString().slice(0, 10);
  if (!IsoDateSchema.safeParse(end).success || Number.isNaN(Date.parse(end))) return `The "to" date "${end}" is not a date as yyyy-MM-dd, e.g. 2026-11-20.`;
  const start = from || new Date(Date.parse(end) - DEFAULT_AGGS_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (!IsoDateSchema.safeParse(start).success || Number.isNaN(Date.parse(start))) return `The "from" date "${start}" is not a date as yyyy-MM-dd, e.g. 2026-11-06.`;
  if (start > end) return `The "from" date ${start} is after the "to" date ${end}: swap them.`;
  if (Date.parse(end) - Date.parse(start) > MAX_AGGS_DAYS * DAY_MS) return `The window ${start} to ${end} is longer than ${MAX_AGGS_DAYS} days: ask for a shorter one.`;
  return { from: start, to: end };
}
