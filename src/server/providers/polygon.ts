/**
 * The Polygon market-data provider (shapes in ../shared/reference/polygon-rest-shapes.txt). The key goes in the
 * Authorization header only, never in a URL, a log line or an answer. Every call spends the per-minute budget
 * shared by all routes; answers are cached with the windows of spec section 9 (CACHE_WINDOWS' upstreamMs), identical
 * calls in flight are merged, and a failed refresh serves the last good answer. This cache is the server's only one.
 */
import { z } from 'zod';
import { CACHE_WINDOWS } from '../../lib/domain/site/cache-windows';
import { explainIssues } from '../../lib/domain/text/explain';
import { safeHttpUrl } from '../../lib/domain/text/url';
import { EarningsRowSchema, RatiosRowSchema, type EarningsRow, type FundamentalsSource, type RatiosRow } from '../../lib/domain/market-data/fundamentals';
import { closesOfGroupedBars, GroupedDailySchema, type ClosingPricesSource, type DailyClose } from '../../lib/domain/track-record/track-data';
import { newYorkDate } from '../../lib/domain/market-data/calendar';
import { BarSchema, NewsArticleSchema, TickerDetailsSchema, type Earnings, type NewsArticle, type Quote } from '../../lib/domain/market-data/market';
import type { Redis } from 'ioredis';
import { RateBudget, TtlCache } from '../cache';
import { SharedBudget, SharedCache } from '../../storage/redis';
import { type CallerOf, ClientAllowance, currentCaller } from '../upstream';
import {
  NO_EARNINGS,
  ProviderError,
  type Bar,
  type LogoImage,
  type MarketDataProvider,
  type ProviderStatus,
  type TickerDetails,
} from './provider';

/** How the Polygon provider is set up (from the Config's `polygon` settings). */
export interface PolygonOptions {
  apiKey: string;
  /** API origin, e.g. https://api.polygon.io (POLYGON_BASE_URL). */
  baseUrl: string;
  /** Calls allowed per minute across all routes (POLYGON_RATE_PER_MIN, default 5: the free tier). */
  ratePerMinute?: number;
  /** Longest wait for one answer (POLYGON_TIMEOUT_MS, default 5000). */
  timeoutMs?: number;
  /** Calls a minute kept for quotes and for calls outside a route (the daily job, an operator's sync); default 0. */
  reservedPerMinute?: number;
  /** Calls a minute one client may cause (rate-limiter-flexible, by socket address); default unlimited. */
  clientPerMinute?: number;
  now?: () => number;
  /** How the daily job's bulk fetch waits for the budget (tests move their clock instead). */
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
  /** REDIS_URL's connection: the budget, the answers and the client allowance are shared with every process using it. */
  redis?: Redis | null;
}

/** Rows a page of the bulk calls asks for: the API's maximum is 50,000; this keeps one answer small. */
const BULK_PAGE_LIMIT = 1000;
const pageOf = <S extends z.ZodType>(row: S) => z.object({ results: z.array(row).optional(), next_url: z.string().nullish() });
const RatiosPageSchema = pageOf(RatiosRowSchema);
const EarningsPageSchema = pageOf(EarningsRowSchema);

const MAX_LOGO_BYTES = 1024 * 1024;

const AggsResponseSchema = z.object({ results: z.array(BarSchema).optional() });
const DetailsResponseSchema = z.object({ results: TickerDetailsSchema.optional() });
const NewsResponseSchema = z.object({ results: z.array(NewsArticleSchema).optional() });
const DayBarSchema = z.object({ o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() }).partial();
const SnapshotResponseSchema = z.object({
  ticker: z
    .object({
      day: DayBarSchema.optional(),
      prevDay: DayBarSchema.optional(),
      lastTrade: z.object({ p: z.number() }).partial().optional(),
      min: z.object({ c: z.number() }).partial().optional(),
      todaysChange: z.number().optional(),
      todaysChangePerc: z.number().optional(),
      updated: z.number().optional(),
    })
    .optional(),
});

/** A positive, finite number, else undefined: Polygon sends 0 for figures it does not have yet. */
function figure(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A finite number (zero and negatives allowed), else undefined. */
function signed(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Drops absent fields so the serialized quote has no `undefined` holes. */
function compact(quote: Quote): Quote {
  return Object.fromEntries(Object.entries(quote).filter(([, value]) => value !== undefined)) as Quote;
}

/** The readable part of an error body: `{status, error}`, `{status, message}`, or HTML/text with tags stripped. */
export function errorBodyText(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    const body: unknown = JSON.parse(trimmed);
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>;
      const detail = [record.error, record.message, record.status].find((v) => typeof v === 'string' && v.trim() !== '');
      if (typeof detail === 'string') return detail.trim().slice(0, 200);
    }
  } catch {
    // Not JSON: an HTML error page from a proxy, or plain text.
  }
  return trimmed
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

/** The Polygon provider; also the daily job's source of fundamentals and closes (bulk calls that wait for the budget). */
export class PolygonProvider implements MarketDataProvider, FundamentalsSource, ClosingPricesSource {
  readonly name = 'polygon' as const;
  private readonly baseUrl: string;
  private readonly budget: RateBudget | SharedBudget;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly log: (line: string) => void;
  private readonly cache: TtlCache<unknown>;
  private readonly shared: SharedCache | null;
  private readonly logos: TtlCache<LogoImage | null>;
  private lastCallOk: boolean | null = null;
  private lastError: string | null = null;
  private readonly reserved: number;
  private readonly clients: ClientAllowance | null;
  // The free tier answers the snapshot with 403; once seen, quotes come from the previous close alone.
  private snapshotAllowed = true;

  constructor(private readonly options: PolygonOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.log = options.log ?? ((line) => console.warn(line));
    const redis = options.redis ?? null;
    this.budget = redis === null ? new RateBudget(options.ratePerMinute ?? 5, this.now) : new SharedBudget(redis, options.ratePerMinute ?? 5, 'polygon', this.log);
    this.shared = redis === null ? null : new SharedCache(redis, 'polygon');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.reserved = options.reservedPerMinute ?? 0;
    this.clients = options.clientPerMinute === undefined ? null : new ClientAllowance(options.clientPerMinute, redis);
    this.cache = new TtlCache({ now: this.now });
    this.logos = new TtlCache({ now: this.now });
  }

  status(): ProviderStatus {
    return {
      name: this.name,
      lastCallOk: this.lastCallOk,
      lastError: this.lastError,
      budgetPerMinute: this.budget.perMinute,
      budgetRemaining: this.budget.remaining(),
    };
  }

  async quote(ticker: string, caller: CallerOf = currentCaller): Promise<Quote | null> {
    const path = `/v2/snapshot/locale/us/markets/stocks/tickers/${encodeURIComponent(ticker)}`;
    if (this.snapshotAllowed) {
      try {
        const body = await this.cachedJson(path, CACHE_WINDOWS.quote.upstreamMs, SnapshotResponseSchema, caller);
        if (body?.ticker) return compact(await this.withMarketCap(ticker, this.snapshotQuote(ticker, body.ticker), caller));
        if (body !== null) return null;
      } catch (error) {
        if (!(error instanceof ProviderError && error.kind === 'auth' && error.status === 403)) throw error;
        this.snapshotAllowed = false;
        this.log('Polygon refused the snapshot (403: not in this plan); quotes now come from the previous close.');
      }
    }
    const bar = await this.previousClose(ticker, caller);
    if (bar === null) return null;
    return compact(
      await this.withMarketCap(ticker, {
        symbol: ticker,
        regularMarketPrice: figure(bar.c),
        regularMarketOpen: figure(bar.o),
        regularMarketDayHigh: figure(bar.h),
        regularMarketDayLow: figure(bar.l),
        regularMarketVolume: figure(bar.v),
        fetchedAt: new Date(this.now()).toISOString(),
        sessionDate: newYorkDate(bar.t),
      }, caller),
    );
  }

  private snapshotQuote(ticker: string, snap: z.infer<typeof SnapshotResponseSchema>['ticker'] & object): Quote {
    const price = figure(snap.lastTrade?.p) ?? figure(snap.min?.c) ?? figure(snap.day?.c) ?? figure(snap.prevDay?.c);
    // Nanoseconds since the epoch.
    const updated = figure(snap.updated);
    return {
      symbol: ticker,
      regularMarketPrice: price,
      regularMarketChange: price === undefined ? undefined : signed(snap.todaysChange),
      regularMarketChangePercent: price === undefined ? undefined : signed(snap.todaysChangePerc),
      regularMarketPreviousClose: figure(snap.prevDay?.c),
      regularMarketOpen: figure(snap.day?.o),
      regularMarketDayHigh: figure(snap.day?.h),
      regularMarketDayLow: figure(snap.day?.l),
      regularMarketVolume: figure(snap.day?.v),
      fetchedAt: new Date(this.now()).toISOString(),
      sessionDate: updated === undefined ? undefined : newYorkDate(Math.floor(updated / 1e6)),
    };
  }

  /** Adds the market cap from ticker details when they can be had; a spent budget leaves it absent. */
  private async withMarketCap(ticker: string, quote: Quote, caller: CallerOf): Promise<Quote> {
    try {
      const details = await this.tickerDetails(ticker, caller);
      return { ...quote, marketCap: figure(details?.market_cap) };
    } catch {
      return quote;
    }
  }

  async tickerDetails(ticker: string, caller: CallerOf = currentCaller): Promise<TickerDetails | null> {
    const body = await this.cachedJson(`/v3/reference/tickers/${encodeURIComponent(ticker)}`, CACHE_WINDOWS.details.upstreamMs, DetailsResponseSchema, caller);
    return body?.results ?? null;
  }

  async news(ticker: string, limit: number): Promise<NewsArticle[]> {
    const query = new URLSearchParams({ ticker, limit: String(limit), order: 'desc', sort: 'published_utc' });
    const body = await this.cachedJson(`/v2/reference/news?${query}`, CACHE_WINDOWS.news.upstreamMs, NewsResponseSchema, currentCaller);
    return (body?.results ?? []).flatMap((article) => {
      const articleUrl = safeHttpUrl(article.article_url);
      if (articleUrl === null) return [];
      const item: NewsArticle = {
        id: article.id,
        title: article.title,
        article_url: articleUrl,
        published_utc: article.published_utc,
        publisher: { name: article.publisher.name },
      };
      const imageUrl = safeHttpUrl(article.image_url);
      if (imageUrl !== null) item.image_url = imageUrl;
      if (article.description !== undefined) item.description = article.description;
      return [item];
    });
  }

  async dailyBars(ticker: string, from: string, to: string): Promise<Bar[]> {
    const path = `/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/day/${from}/${to}?adjusted=true&sort=asc&limit=5000`;
    const body = await this.cachedJson(path, CACHE_WINDOWS.bars.upstreamMs, AggsResponseSchema, currentCaller);
    return body?.results ?? [];
  }

  async previousClose(ticker: string, caller: CallerOf = currentCaller): Promise<Bar | null> {
    const body = await this.cachedJson(`/v2/aggs/ticker/${encodeURIComponent(ticker)}/prev?adjusted=true`, CACHE_WINDOWS.quote.upstreamMs, AggsResponseSchema, caller);
    return body?.results?.[0] ?? null;
  }

  earnings(): Promise<Earnings> {
    // Earnings dates come from the daily job's bulk fetch of the calendar (earningsCalendar), which the route reads
    // from the build; one call per page view would spend the budget the quotes need.
    return Promise.resolve(NO_EARNINGS);
  }

  /** Ratios of a batch of tickers (`/stocks/financials/v1/ratios`, `ticker.any_of`), page by page. */
  ratios(tickers: readonly string[]): AsyncIterable<RatiosRow[]> {
    const query = new URLSearchParams({ 'ticker.any_of': tickers.join(','), limit: String(BULK_PAGE_LIMIT) });
    return this.pages(`/stocks/financials/v1/ratios?${query}`, RatiosPageSchema);
  }

  /** Earnings events of a batch of tickers dated `from` or later (`/benzinga/v1/earnings`), page by page. */
  earningsCalendar(tickers: readonly string[], from: string): AsyncIterable<EarningsRow[]> {
    const query = new URLSearchParams({ 'ticker.any_of': tickers.join(','), 'date.gte': from, sort: 'date.asc', limit: String(BULK_PAGE_LIMIT) });
    return this.pages(`/benzinga/v1/earnings?${query}`, EarningsPageSchema);
  }

  /** Every stock's close on `date` (`/v2/aggs/grouped/locale/us/market/stocks/{date}`): one call, waiting for the budget. */
  async groupedDaily(date: string): Promise<DailyClose[]> {
    const closes: DailyClose[] = [];
    for await (const bars of this.pages(`/v2/aggs/grouped/locale/us/market/stocks/${encodeURIComponent(date)}?adjusted=true`, GroupedDailySchema)) closes.push(...closesOfGroupedBars(bars));
    return closes;
  }

  /** Every page of a bulk call, following next_url; waits for the budget instead of failing (the daily job may wait). */
  private async *pages<R>(path: string, schema: z.ZodType<{ results?: R[] | undefined; next_url?: string | null | undefined }>): AsyncIterable<R[]> {
    const label = path.split('?')[0]!;
    let url: string | null = `${this.baseUrl}${path}`;
    while (url !== null) {
      for (let wait = await this.budget.msUntilFree(); wait > 0; wait = await this.budget.msUntilFree()) {
        this.log(`The Polygon budget of ${this.budget.perMinute} calls a minute is spent: waiting ${Math.ceil(wait / 1000)} s before the next ${label} page.`);
        await this.sleep(wait);
      }
      const response = await this.call(url, label, () => undefined);
      if (response.status === 404) return;
      const body = this.parseBody(await response.text(), label, schema);
      yield body.results ?? [];
      url = body.next_url ?? null;
      if (url !== null && !this.mayCarryKey(url)) {
        throw this.failure(new ProviderError('malformed', `Polygon answered ${label} with a next_url on another host; the key is not sent there.`));
      }
    }
  }

  async logo(ticker: string, knownLogoUrl?: string): Promise<LogoImage | null> {
    if (this.logos.wouldLoad(ticker)) await this.admit(currentCaller);
    const result = await this.logos.get(ticker, CACHE_WINDOWS.logo.upstreamMs, async () => {
      const address = knownLogoUrl ?? (await this.tickerDetails(ticker))?.branding?.logo_url;
      if (!address || !this.mayCarryKey(address)) return null;
      return this.fetchLogo(address);
    });
    return result.value;
  }

  /** True when an address is on the API's own origin, or is https on a Polygon (Massive) host: only there may the key go. */
  private mayCarryKey(address: string): boolean {
    try {
      const url = new URL(address);
      if (url.origin === new URL(this.baseUrl).origin) return true;
      return url.protocol === 'https:' && /(^|\.)(polygon\.io|massive\.com)$/.test(url.hostname);
    } catch {
      return false;
    }
  }

  private async fetchLogo(address: string): Promise<LogoImage | null> {
    const response = await this.call(address, 'logo', currentCaller);
    if (response.status === 404) return null;
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!contentType.startsWith('image/') || bytes.byteLength > MAX_LOGO_BYTES) {
      this.log(`Polygon logo answer was not an image under 1 MiB (${contentType || 'no type'}, ${bytes.byteLength} bytes); no logo is shown.`);
      return null;
    }
    return { bytes, contentType };
  }

  /** A JSON call through the cache: null for a 404 (nothing known), the parsed body, or a ProviderError. */
  private async cachedJson<S extends z.ZodType>(path: string, ttlMs: number, schema: S, caller: CallerOf): Promise<z.infer<S> | null> {
    if (this.cache.wouldLoad(path)) {
      // Another process's answer (REDIS_URL) is as good as our own, and costs the client nothing.
      const shared = await this.shared?.get(path);
      if (shared !== undefined) this.cache.set(path, shared.value, shared.ttlMs);
      else await this.admit(caller);
    }
    const result = await this.cache.get(path, ttlMs, async () => {
      const label = path.split('?')[0]!;
      const response = await this.call(`${this.baseUrl}${path}`, label, caller);
      if (response.status === 404) return null;
      const body = this.parseBody(await response.text(), label, schema);
      // Stored before the answer returns, so a process asking next finds it rather than racing the write upstream.
      await this.shared?.set(path, body, ttlMs);
      return body;
    });
    return result.value as z.infer<S> | null;
  }

  /** A JSON body checked against its schema, else a ProviderError saying what was wrong. */
  private parseBody<T>(text: string, label: string, schema: z.ZodType<T>): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.failure(new ProviderError('malformed', `Polygon answered ${label} with a body that is not JSON.`));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw this.failure(new ProviderError('malformed', `Polygon answered ${label} with an unexpected shape: ${explainIssues(parsed.error.issues).join('; ')}.`));
    }
    return parsed.data;
  }

  /**
   * Spends one of the client's calls before a load that will reach upstream (a cached answer costs nothing). Checked
   * outside the cache, so one client's refusal is never remembered as the answer for everyone.
   */
  private async admit(callerOf: CallerOf): Promise<void> {
    if (this.clients === null) return;
    const caller = callerOf();
    if (caller !== undefined) await this.clients.spend(caller.client);
  }

  /** One HTTP call under the budget and the timeout; any answer but 2xx or 404 is a ProviderError. */
  private async call(url: string, label: string, caller: CallerOf): Promise<Response> {
    // A page's calls leave the reserved share to quotes and to the daily job.
    if (!(await this.budget.tryTake(caller()?.priority === 'page' ? this.reserved : 0))) {
      const kept = this.reserved > 0 ? ` (${this.reserved} of them kept for quotes and the daily job)` : '';
      throw new ProviderError('budget', `The Polygon budget of ${this.budget.perMinute} calls a minute${kept} is spent; raise POLYGON_RATE_PER_MIN if your plan allows more.`);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: `Bearer ${this.options.apiKey}`, Accept: 'application/json' },
        signal: controller.signal,
        redirect: 'error',
      });
    } catch (error) {
      clearTimeout(timer);
      if (controller.signal.aborted) {
        throw this.failure(new ProviderError('timeout', `Polygon did not answer ${label} within ${this.timeoutMs} ms.`));
      }
      throw this.failure(new ProviderError('network', `Polygon could not be reached for ${label}: ${(error as Error).message}.`));
    }
    if (response.ok || response.status === 404) {
      try {
        // The body is read by the caller; the timeout covers it too, so a body that stalls is cut off.
        const buffered = new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
        clearTimeout(timer);
        this.lastCallOk = true;
        this.lastError = null;
        return buffered;
      } catch {
        clearTimeout(timer);
        throw this.failure(new ProviderError('timeout', `Polygon did not finish its answer to ${label} within ${this.timeoutMs} ms.`));
      }
    }
    const detail = errorBodyText(await response.text().catch(() => ''));
    clearTimeout(timer);
    const status = response.status;
    if (status === 401 || status === 403) {
      throw this.failure(
        new ProviderError('auth', `Polygon refused ${label} (${status}${detail ? `: ${detail}` : ''}); check POLYGON_API_KEY and the plan.`, status),
      );
    }
    throw this.failure(new ProviderError('http', `Polygon answered ${label} with ${status}${detail ? `: ${detail}` : ''}; serving the last good answer or an empty one.`, status));
  }

  /** Records and logs a failed call (the key masked, should an upstream body echo it). */
  private failure(error: ProviderError): ProviderError {
    const message = error.message.split(this.options.apiKey).join('[key]');
    this.lastCallOk = false;
    this.lastError = message;
    this.log(message);
    return new ProviderError(error.kind, message, error.status);
  }
}
