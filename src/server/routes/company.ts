/** Live company and signal routes: company info, names, the company-information sync, sentiment, complete data. */
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { companyInfo, tickerMetrics, type MarketSentiment } from '../../lib/domain/site/api-responses';
import { cacheControl } from '../../lib/domain/site/cache-windows';
import { uniqueTickers } from '../../lib/domain/signals/company-name';
import { TickerSchema, type StoredCompanyInfo } from '../../lib/domain/report/schemas';
import { similarTickers } from '../../lib/domain/signals/similar';
import { signalDirection } from '../../lib/domain/signals/signal';
import { asciiUpper, MAX_NAME_CHARS, stripInvisible } from '../../lib/domain/text/text';
import { refusal } from '../errors';
import { ProviderError } from '../providers/provider';
import { TickerParams, validate } from '../validate';
import { spendsUpstream } from '../upstream';
import { callerCache, knownRecord, lockedForCaller, type ApiContext } from './context';
import { LOCKED_SIGNAL_LABEL, lockedTicker } from '../../lib/domain/accounts/entitlements';
import { trustedOrigin } from '../auth/origin';
import { requireOperator, type SessionEnv, sessionUser } from '../auth/session';

const NO_STORE = { 'Cache-Control': 'no-store' };
const COMPANY_INFO = { 'Cache-Control': cacheControl('companyInfo') };
const SENTIMENT = { 'Cache-Control': cacheControl('sentiment') };
const COMPLETE_DATA = { 'Cache-Control': cacheControl('completeData') };
/** Most tickers one POST /api/polygon/company-names may ask for. */
export const MAX_NAME_LOOKUP = 500;

const SaveCompanyNameSchema = z.object({
  ticker: z.string().trim().transform(asciiUpper).pipe(TickerSchema),
  // Control, bidi-override and zero-width characters are removed before the length is measured, as at ingest.
  companyName: z
    .string()
    .transform(stripInvisible)
    .pipe(z.string().min(1, 'must not be empty').max(MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`).regex(/^[^<>]*$/, 'no angle brackets')),
});
const CompanyNamesBodySchema = z.object({ tickers: z.array(z.unknown()).max(MAX_NAME_LOOKUP, `at most ${MAX_NAME_LOOKUP} per call`) });
const SyncQuery = z.object({ skipExisting: z.string().optional() });

/** The outcome of one call of the company-information sync. */
export interface SyncReport {
  provider: 'polygon' | 'demo';
  synced: number;
  skipped: number;
  remaining: number;
  done: boolean;
  message: string;
}

/** The company routes. */
export function companyRoutes(context: ApiContext) {
  let syncing = false;
  let runStartedAt: string | null = null;
  // Writes and upstream spending are the operators' (ADMIN_EMAILS): checked before the body is read.
  const readSession = sessionUser(context.accounts.session);
  const operator = [trustedOrigin(context.siteOrigins), readSession, requireOperator] as const;
  const paywall = context.accounts.paywall;
  // With PAYWALL=on what these routes show depends on the caller's plan; without it nobody's session is read.
  const caller: MiddlewareHandler<SessionEnv> = paywall ? readSession : (_c, next) => next();
  return new Hono<SessionEnv>()
    .get('/company-info/:ticker', validate('param', TickerParams), async (c) => {
      const { ticker } = c.req.valid('param');
      const { record, site } = await knownRecord(context, ticker);
      const info = companyInfo(ticker, record.companyName, site.universe.get(ticker), await context.companies.get(ticker), context.siteName);
      // The daily job's ratios are a day old at most; the company store's figure is from its last sync.
      const marketCap = site.fundamentals.get(ticker)?.marketCap ?? info.marketCap;
      return c.json({ ...info, marketCap }, 200, COMPANY_INFO);
    })
    .get('/polygon/company-info/:ticker', validate('param', TickerParams), spendsUpstream('page', context.trustedProxies), async (c) => {
      const { ticker } = c.req.valid('param');
      const { record, site } = await knownRecord(context, ticker);
      let stored = await context.companies.get(ticker);
      if (stored?.description === undefined && context.provider.name === 'polygon') {
        try {
          const details = await context.provider.tickerDetails(ticker);
          if (details !== null) stored = { ...storedFromDetails(ticker, details, context.now()), ...stored };
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
        }
      }
      const info = companyInfo(ticker, record.companyName, site.universe.get(ticker), stored, context.siteName);
      return c.json({ ticker, logoUrl: info.logoUrl, companyName: info.longName, description: info.longBusinessSummary }, 200, COMPANY_INFO);
    })
    .post('/polygon/company-names', validate('json', CompanyNamesBodySchema, '{"tickers": ["AAPL", "MSFT"]}'), async (c) => {
      const { tickers } = c.req.valid('json');
      const site = await context.site.current();
      const store = await context.companies.read();
      const names: Record<string, string> = {};
      for (const ticker of uniqueTickers(tickers as string[])) {
        const record = site?.records.get(ticker);
        const name = store.companies[ticker]?.name || record?.companyName || site?.universe.get(ticker)?.name;
        if (name) names[ticker] = name;
      }
      return c.json(names, 200, NO_STORE);
    })
    .post('/save-company-name', ...operator, validate('json', SaveCompanyNameSchema, '{"ticker": "AAPL", "companyName": "Apple Inc."}'), async (c) => {
      const { ticker, companyName } = c.req.valid('json');
      await knownRecord(context, ticker);
      const stored = await context.companies.get(ticker);
      // A name from the provider is kept; a client may only fill a gap, never overwrite.
      if (stored?.name) return c.json({ ticker, companyName: stored.name, saved: false }, 200, NO_STORE);
      await context.companies.put({ ...stored, ticker, name: companyName, fetchedAt: stored?.fetchedAt ?? new Date(context.now()).toISOString() });
      await context.companies.save();
      return c.json({ ticker, companyName, saved: true }, 200, NO_STORE);
    })
    // The sync writes the store and spends the upstream budget: POST, by an operator. GET says so, after the same check.
    .get('/polygon/sync-company-info', ...operator, () => {
      throw refusal(405, 'Use POST on /api/polygon/sync-company-info (as an operator).', { Allow: 'POST' });
    })
    .post('/polygon/sync-company-info', ...operator, validate('query', SyncQuery), async (c) => {
      const site = await context.site.current();
      if (site === null) throw refusal(503, 'No report is published yet: run "npm run daily" first; the sync fills the companies of the latest report.');
      const tickers = [...site.records.keys()].sort();
      if (context.provider.name === 'demo') {
        const report: SyncReport = {
          provider: 'demo',
          synced: 0,
          skipped: tickers.length,
          remaining: 0,
          done: true,
          message: 'The demo provider has no company information to sync: set POLYGON_API_KEY and call this route again.',
        };
        return c.json(report, 200, NO_STORE);
      }
      if (syncing) throw refusal(409, 'A company-information sync is already running: call again when it has finished.');
      syncing = true;
      try {
        const { skipExisting } = c.req.valid('query');
        runStartedAt ??= new Date(context.now()).toISOString();
        const report = await syncCompanies(context, tickers, skipExisting !== undefined && skipExisting !== 'false', runStartedAt);
        if (report.done) runStartedAt = null;
        return c.json(report, 200, NO_STORE);
      } finally {
        syncing = false;
      }
    })
    .get('/market-sentiment/:ticker', validate('param', TickerParams), caller, async (c) => {
      const { ticker } = c.req.valid('param');
      const { record, site } = await knownRecord(context, ticker);
      const headers = callerCache(SENTIMENT, paywall, c.var.user);
      if (lockedForCaller(site, paywall, c.var.user).has(ticker)) {
        return c.json({ ...lockedTicker(record), sentiment: LOCKED_SIGNAL_LABEL }, 200, headers);
      }
      const sentiment: MarketSentiment = {
        ticker,
        reportDate: record.reportDate,
        cScore: record.cScore,
        yesterdayCScore: record.yesterdayCScore,
        sentiment: signalDirection(record.cScore),
        trend: record.cScore > record.yesterdayCScore ? 'up' : record.cScore < record.yesterdayCScore ? 'down' : 'flat',
      };
      return c.json(sentiment, 200, headers);
    })
    .get('/stock-complete-data/:ticker', validate('param', TickerParams), caller, async (c) => {
      const { ticker } = c.req.valid('param');
      const { record, site } = await knownRecord(context, ticker);
      const locked = lockedForCaller(site, paywall, c.var.user);
      const hidden = locked.has(ticker);
      const body = {
        ticker,
        reportDate: site.reportDate,
        stock: hidden ? lockedTicker(record) : record,
        metrics: hidden ? lockedTicker(record) : tickerMetrics(record),
        companyInfo: companyInfo(ticker, record.companyName, site.universe.get(ticker), await context.companies.get(ticker), context.siteName),
        // As on the stock pages: a similar ticker whose score the caller may not see is left out.
        similarTickers: similarTickers(ticker, [...site.records.values()]).filter((s) => !locked.has(s.ticker)),
      };
      return c.json(body, 200, callerCache(COMPLETE_DATA, paywall, c.var.user));
    });
}

/** The store's record of a ticker from the provider's ticker details. */
function storedFromDetails(ticker: string, details: NonNullable<Awaited<ReturnType<ApiContext['provider']['tickerDetails']>>>, now: number): StoredCompanyInfo {
  const info: StoredCompanyInfo = { ticker, fetchedAt: new Date(now).toISOString() };
  if (details.name) info.name = details.name;
  if (details.description) info.description = details.description;
  if (details.sic_description) info.industry = details.sic_description;
  if (details.homepage_url) info.homepageUrl = details.homepage_url;
  if (details.total_employees !== undefined) info.employees = details.total_employees;
  if (details.market_cap !== undefined) info.marketCap = details.market_cap;
  if (details.branding?.logo_url) info.logoUrl = details.branding.logo_url;
  return info;
}

/**
 * Fills the store from ticker details until the request budget is spent, then reports how many remain; the
 * next call resumes with the tickers this run has not reached (every ticker fetched since `runStartedAt` counts
 * as done; with `skipExisting`, any ticker the store has).
 */
async function syncCompanies(context: ApiContext, tickers: readonly string[], skipExisting: boolean, runStartedAt: string): Promise<SyncReport> {
  const store = await context.companies.read();
  const isDone = (ticker: string): boolean => {
    const stored = store.companies[ticker];
    if (stored === undefined) return false;
    return skipExisting || stored.fetchedAt >= runStartedAt;
  };
  const todo = tickers.filter((ticker) => !isDone(ticker));
  let synced = 0;
  let stopped: string | null = null;
  for (const ticker of todo) {
    try {
      const details = await context.provider.tickerDetails(ticker);
      await context.companies.put(details === null ? { ticker, fetchedAt: new Date(context.now()).toISOString() } : storedFromDetails(ticker, details, context.now()));
      synced += 1;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      stopped = error.message;
      break;
    }
  }
  if (synced > 0) await context.companies.save();
  const remaining = todo.length - synced;
  return {
    provider: 'polygon',
    synced,
    skipped: tickers.length - todo.length,
    remaining,
    done: remaining === 0,
    message:
      remaining === 0
        ? `The store has all ${tickers.length} companies of the latest report; run the daily job to put them in the pages.`
        : `Stopped with ${remaining} companies to go (${stopped}); call this route again in a minute to resume.`,
  };
}
