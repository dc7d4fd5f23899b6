import type { MiddlewareHandler, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { Redis } from 'ioredis';
import { noSignalMessage } from '../../lib/domain/site/api-responses';
import { freeSlice, lockedTickersFor, type FreeSlice } from '../../lib/domain/accounts/entitlements';
import type { SessionUser } from '../auth/session';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import type { CompanyStore } from '../../storage/company-info';
import type { Accounts } from '../accounts';
import type { SiteIndex, SiteIndexLoader } from '../../storage/site-index';
import { refusal } from '../errors';
import { ProviderError, type MarketDataProvider } from '../providers/provider';

/** What every live route group receives. */
export interface ApiContext {
  site: SiteIndexLoader;
  provider: MarketDataProvider;
  companies: CompanyStore;
  archiveDir: string;
  /** The product name (SITE_NAME), for texts the routes write. */
  siteName: string;
  /** Origins a logout may return to: SITE_URL's, besides the request's own. */
  siteOrigins: readonly string[];
  /** The account layer: database, Better Auth, mailer, session reader. */
  accounts: Accounts;
  now: () => number;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For names the client (upstream.ts clientAddress). */
  trustedProxies: readonly string[];
  /** Whether the process is serving, building its first site, or draining after SIGTERM (the health answer says so). */
  readiness: () => Readiness;
  /** REDIS_URL's connection: per-user limits count across the API processes; null without REDIS_URL. */
  redis: Redis | null;
}

/** What /api/health tells a load balancer beside the build: `draining` and `building` answer 503. */
export type Readiness = 'ready' | 'building' | 'draining';

/** The latest report's record of a ticker; refused with 404 (unknown ticker) or 503 (no build yet). */
export async function knownRecord(context: ApiContext, ticker: string): Promise<{ record: SignalRecord; site: SiteIndex }> {
  const site = await context.site.current();
  if (site === null) throw refusal(503, 'No report is published yet: run "npm run daily" to build the site.', { 'Retry-After': '60' });
  const record = site.records.get(ticker);
  if (record === undefined) throw refusal(404, noSignalMessage(ticker, site.reportDate));
  return { record, site };
}

/** The provider's answer, or `empty` (the spec's empty result) when the provider cannot answer and has nothing cached. */
export async function orEmpty<T>(answer: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof ProviderError) return empty;
    throw error;
  }
}

const slices = new WeakMap<SiteIndex, FreeSlice>();

/** The free slice of a loaded report, computed once per report. */
export function siteSlice(site: SiteIndex): FreeSlice {
  let slice = slices.get(site);
  if (slice === undefined) slices.set(site, (slice = freeSlice(site.history.latest)));
  return slice;
}

/** The tickers whose scores and direction this caller may not see (entitlements.ts's rule, for the session's user). */
export function lockedForCaller(site: SiteIndex, paywall: boolean, user: Pick<SessionUser, 'isPremium'> | null | undefined): ReadonlySet<string> {
  return lockedTickersFor(siteSlice(site), { paywall, isPro: user?.isPremium ?? false });
}

/**
 * The cache headers of an answer that depends on who asks (PAYWALL=on): the public answer keeps its window with
 * `Vary: Cookie`; a Pro caller's answer is `private, no-store`, so no shared cache ever keeps it. Without the
 * paywall every caller gets the same answer and the public window stands.
 */
export function callerCache(publicHeaders: Record<string, string>, paywall: boolean, user: SessionUser | null | undefined): Record<string, string> {
  if (!paywall) return publicHeaders;
  if (user?.isPremium) return { ...publicHeaders, 'Cache-Control': PRIVATE_NO_STORE, Vary: 'Cookie' };
  return { ...publicHeaders, Vary: 'Cookie' };
}

/**
 * A 200 answer whose body is the JSON of a T, written without c.json (prepared headers, or text an answer cache
 * keeps), typed as c.json types its answer: AppType keeps its fields for the browser's typed client.
 */
export function typedJson<T>(response: Response): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  return response as Response & TypedResponse<JSONParsed<T>, 200, 'json'>;
}

/** The Cache-Control of every answer only its session may read. */
export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * Answers that depend on the session never reach a shared cache: a route that read the session (c.var.user set,
 * signed in or not), an answer that sets a cookie, and an answer with no Cache-Control or a bare no-store to a
 * request with a cookie (Better Auth's own, such as get-session) are sent `private, no-store`, unless the route
 * declared a public variant itself (`Vary: Cookie`, callerCache above). The safety net under the live routes
 * (the live-route table says which).
 */
export const privateSessionAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  const readSession = (c.var as { user?: unknown }).user !== undefined;
  // Better Auth's answers say nothing, or a bare no-store: with a cookie they are the session's.
  const cache = res.headers.get('cache-control');
  const unsaidWithCookie = (cache === null || cache === 'no-store') && c.req.header('cookie') !== undefined;
  if (!readSession && !unsaidWithCookie && !res.headers.has('set-cookie')) return;
  if (/\bcookie\b/i.test(res.headers.get('vary') ?? '') && !res.headers.has('set-cookie')) return;
  try {
    res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  } catch {
    // A response with immutable headers (a fetch Response passed through): copied with the header set.
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
    c.res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  }
};
