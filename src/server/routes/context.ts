import type { Context } from 'hono';
import { noSignalMessage } from '../../lib/domain/api-responses';
import { tickerProblem } from '../../lib/domain/ticker';
import type { SignalRecord } from '../../lib/domain/schemas';
import { TtlCache } from '../cache';
import { markSecured, SECURITY_HEADERS } from '../headers';
import type { MarketDataProvider } from '../providers/provider';
import { ProviderError } from '../providers/provider';
import type { CompanyStore } from '../../storage/company-info';
import type { SiteIndex, SiteIndexLoader } from '../../storage/site-index';

/** What every live route shares. */
export interface ApiContext {
  site: SiteIndexLoader;
  provider: MarketDataProvider;
  companies: CompanyStore;
  /** Serialized answers by route and ticker, so a cached answer is sent without building it again. */
  answers: TtlCache<string>;
  archiveDir: string;
  /** The product name (SITE_NAME), for texts the routes write. */
  siteName: string;
  /** Origins a logout may return to: SITE_URL's, besides the request's own. */
  siteOrigins: readonly string[];
  now: () => number;
}

/** How long a serialized answer is kept: the route's window for the demo, at most a minute over a real provider, whose own cache keeps the windows and knows when an answer went stale. */
export function answerTtl(context: ApiContext, windowMs: number): number {
  return context.provider.name === 'demo' ? windowMs : Math.min(windowMs, 60_000);
}

/** After a failed provider call with nothing to fall back on, the empty answer is kept this long before asking again. */
export const FAILED_ANSWER_TTL_MS = 15_000;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Response headers of a JSON answer with a Cache-Control, built once per value. */
export function jsonHeaders(cacheControl: string): Readonly<Record<string, string>> {
  return Object.freeze({ ...SECURITY_HEADERS, 'Content-Type': JSON_TYPE, 'Cache-Control': cacheControl });
}

/** A JSON answer from an already serialized body. */
export function sendJson(body: string, headers: Readonly<Record<string, string>>, status = 200): Response {
  return markSecured(new Response(body, { status, headers }));
}

const NO_STORE = jsonHeaders('no-store');

/** A JSON error answer `{"error": message}` (never cached). */
export function jsonError(status: number, message: string, extra: Record<string, string> = {}): Response {
  return sendJson(JSON.stringify({ error: message }), { ...NO_STORE, ...extra }, status);
}

/** The route's ticker upper-cased, or a 400 answer saying what is wrong with it. */
export function routeTicker(c: Context): string | Response {
  const raw = c.req.param('ticker') ?? '';
  const problem = tickerProblem(raw);
  return problem === null ? raw.toUpperCase() : jsonError(400, problem);
}

/** The route's checked ticker with its latest record, or the 400 (malformed), 404 (unknown) or 503 (no build) answer. */
export async function routeRecord(c: Context, context: ApiContext): Promise<{ ticker: string; record: SignalRecord; site: SiteIndex } | Response> {
  const ticker = routeTicker(c);
  if (typeof ticker !== 'string') return ticker;
  const found = await knownRecord(context, ticker);
  return found instanceof Response ? found : { ticker, ...found };
}

/** The latest report's record of a ticker, or a 404 (unknown ticker) or 503 (no build yet) answer. */
export async function knownRecord(context: ApiContext, ticker: string): Promise<{ record: SignalRecord; site: SiteIndex } | Response> {
  const site = await context.site.current();
  if (site === null) return jsonError(503, 'No report is published yet: run "npm run daily" to build the site.', { 'Retry-After': '60' });
  const record = site.records.get(ticker);
  return record === undefined ? jsonError(404, noSignalMessage(ticker, site.reportDate)) : { record, site };
}

/**
 * A provider-backed answer, serialized and cached under `key`. When the provider cannot answer and has no last
 * good answer, `empty` (the spec's empty result) is sent and kept briefly so a failing upstream is not hammered.
 */
export async function providerAnswer(context: ApiContext, key: string, windowMs: number, build: () => Promise<unknown>, empty: unknown): Promise<string> {
  const cached = context.answers.peek(key);
  if (cached !== undefined) return cached;
  try {
    return (await context.answers.get(key, answerTtl(context, windowMs), async () => JSON.stringify(await build()))).value;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const body = JSON.stringify(empty);
    context.answers.set(key, body, FAILED_ANSWER_TTL_MS);
    return body;
  }
}
