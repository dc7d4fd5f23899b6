/** Live company and signal routes: company info, names, the company-information sync, sentiment, complete data. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { companyInfo, tickerMetrics, type MarketSentiment } from '../../lib/domain/api-responses';
import { uniqueTickers } from '../../lib/domain/company-name';
import type { StoredCompanyInfo } from '../../lib/domain/schemas';
import { similarTickers } from '../../lib/domain/similar';
import { signalDirection } from '../../lib/domain/signal';
import { ProviderError } from '../providers/provider';
import { jsonError, jsonHeaders, knownRecord, routeRecord, sendJson, type ApiContext } from './context';

const HOURLY = jsonHeaders('public, max-age=3600');
const NO_STORE = jsonHeaders('no-store');
/** Most tickers one POST /api/polygon/company-names may ask for. */
export const MAX_NAME_LOOKUP = 500;

const SaveCompanyNameSchema = z.object({
  ticker: z.string().trim().toUpperCase().regex(/^[A-Z0-9.-]{1,10}$/, 'ticker: expected 1 to 10 characters of A-Z, 0-9, "." or "-"'),
  companyName: z
    .string()
    .trim()
    .min(1, 'companyName: must not be empty')
    .max(200, 'companyName: at most 200 characters')
    .regex(/^[^\u0000-\u001f\u007f<>]*$/, 'companyName: no control characters or angle brackets'),
});
const CompanyNamesBodySchema = z.object({ tickers: z.array(z.unknown()).max(MAX_NAME_LOOKUP, `tickers: at most ${MAX_NAME_LOOKUP} per call`) });

/** The outcome of one call of the company-information sync. */
export interface SyncReport {
  provider: 'polygon' | 'demo';
  synced: number;
  skipped: number;
  remaining: number;
  done: boolean;
  message: string;
}

/** Mounts the company routes on the API router. */
export function companyRoutes(api: Hono, context: ApiContext): void {
  api.get('/company-info/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const info = companyInfo(ticker, found.record.companyName, found.site.universe.get(ticker), await context.companies.get(ticker), context.siteName);
    return sendJson(JSON.stringify(info), HOURLY);
  });

  api.get('/polygon/company-info/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    let stored = await context.companies.get(ticker);
    if (stored?.description === undefined && context.provider.name === 'polygon') {
      try {
        const details = await context.provider.tickerDetails(ticker);
        if (details !== null) stored = { ...storedFromDetails(ticker, details, context.now()), ...stored };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
      }
    }
    const info = companyInfo(ticker, found.record.companyName, found.site.universe.get(ticker), stored, context.siteName);
    return sendJson(JSON.stringify({ ticker, logoUrl: info.logoUrl, companyName: info.longName, description: info.longBusinessSummary }), HOURLY);
  });

  api.post('/polygon/company-names', async (c) => {
    const body = CompanyNamesBodySchema.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) return jsonError(400, `Send a JSON body like {"tickers": ["AAPL", "MSFT"]} (${body.error.issues[0]?.message}).`);
    const site = await context.site.current();
    const store = await context.companies.read();
    const names: Record<string, string> = {};
    for (const ticker of uniqueTickers(body.data.tickers as string[])) {
      const record = site?.records.get(ticker);
      const name = store.companies[ticker]?.name || record?.companyName || site?.universe.get(ticker)?.name;
      if (name) names[ticker] = name;
    }
    return sendJson(JSON.stringify(names), NO_STORE);
  });

  api.post('/save-company-name', async (c) => {
    const body = SaveCompanyNameSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) return jsonError(400, `Send a JSON body like {"ticker": "AAPL", "companyName": "Apple Inc."} (${body.error.issues[0]?.message}).`);
    const { ticker, companyName } = body.data;
    const found = await knownRecord(context, ticker);
    if (found instanceof Response) return found;
    const stored = await context.companies.get(ticker);
    // A name from the provider is kept; a client may only fill a gap, never overwrite.
    if (stored?.name) return sendJson(JSON.stringify({ ticker, companyName: stored.name, saved: false }), NO_STORE);
    await context.companies.put({ ...stored, ticker, name: companyName, fetchedAt: stored?.fetchedAt ?? new Date(context.now()).toISOString() });
    await context.companies.save();
    return sendJson(JSON.stringify({ ticker, companyName, saved: true }), NO_STORE);
  });

  let syncing = false;
  let runStartedAt: string | null = null;
  api.get('/polygon/sync-company-info', async (c) => {
    const site = await context.site.current();
    if (site === null) return jsonError(503, 'No report is published yet: run "npm run daily" first; the sync fills the companies of the latest report.');
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
      return sendJson(JSON.stringify(report), NO_STORE);
    }
    if (syncing) return jsonError(409, 'A company-information sync is already running: call again when it has finished.');
    syncing = true;
    try {
      const skipExisting = c.req.query('skipExisting') !== undefined && c.req.query('skipExisting') !== 'false';
      runStartedAt ??= new Date(context.now()).toISOString();
      const report = await syncCompanies(context, tickers, skipExisting, runStartedAt);
      if (report.done) runStartedAt = null;
      return sendJson(JSON.stringify(report), NO_STORE);
    } finally {
      syncing = false;
    }
  });

  api.get('/market-sentiment/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const { record } = found;
    const sentiment: MarketSentiment = {
      ticker,
      reportDate: record.reportDate,
      cScore: record.cScore,
      yesterdayCScore: record.yesterdayCScore,
      sentiment: signalDirection(record.cScore),
      trend: record.cScore > record.yesterdayCScore ? 'up' : record.cScore < record.yesterdayCScore ? 'down' : 'flat',
    };
    return sendJson(JSON.stringify(sentiment), HOURLY);
  });

  api.get('/stock-complete-data/:ticker', async (c) => {
    const found = await routeRecord(c, context);
    if (found instanceof Response) return found;
    const { ticker } = found;
    const { record, site } = found;
    const body = {
      ticker,
      reportDate: site.reportDate,
      stock: record,
      metrics: tickerMetrics(record),
      companyInfo: companyInfo(ticker, record.companyName, site.universe.get(ticker), await context.companies.get(ticker), context.siteName),
      similarTickers: similarTickers(ticker, [...site.records.values()]),
    };
    return sendJson(JSON.stringify(body), jsonHeaders('public, max-age=60'));
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
