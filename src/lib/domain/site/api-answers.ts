/**
 * The answers of the public routes that had no schema of their own: the track record's files, the feeds, the health
 * check, the signed-in check, the complete stock data and the market-data pass-throughs. The OpenAPI document
 * (src/server/openapi.ts) is generated from these and api-responses.ts; the routes and writers name them in their types.
 */
import { z } from '../zod';
import { LockedTickerSchema } from '../accounts/locked-ticker';
import { BarSchema, NewsArticleSchema, TickerDetailsSchema } from '../market-data/market';
import { IsoDateSchema, SignalRecordSchema, TickerSchema } from '../report/record';
import { CompanyInfoSchema, TickerMetricsSchema } from './api-responses';
import { LedgerRowSchema } from '../track-record/ledger-schema';

/** One similar ticker (GET /api/similar-tickers/{ticker}): same sub-industry first, then sector, by |C-Score|. */
export const SimilarTickerSchema = z.object({ ticker: TickerSchema, cScore: z.number() });
export const SimilarTickersSchema = z.array(SimilarTickerSchema);

/** GET /api/ticker-metrics/{ticker}: the metrics, or a locked top ticker's public form (PAYWALL=on). */
export const TickerMetricsFileSchema = z.union([TickerMetricsSchema, LockedTickerSchema]);

const Interval = z.tuple([z.number(), z.number()]).nullable();

/** One horizon's figures of a group of signals (track-record.ts HorizonSummary). */
export const HorizonSummarySchema = z.object({
  horizon: z.number().int(),
  resolved: z.number().int(),
  open: z.number().int(),
  hits: z.number().int(),
  hitRate: z.number().nullable(),
  averageReturn: z.number().nullable(),
  hitRateInterval: Interval,
  averageReturnInterval: Interval,
  benchmarkResolved: z.number().int(),
  benchmarkReturn: z.number().nullable(),
  excessReturn: z.number().nullable(),
  excessReturnInterval: Interval,
  benchmarkHits: z.number().int(),
  hitRateVsBenchmark: z.number().nullable(),
  hitRateVsBenchmarkInterval: Interval,
});

const Direction = z.enum(['bullish', 'bearish']);
const TrackGroupSchema = z.object({ signals: z.number().int(), horizons: z.array(HorizonSummarySchema) });
const BenchmarkInfoSchema = z.object({ ticker: z.string(), demo: z.boolean(), label: z.string() }).nullable();
const PricesSchema = z.enum(['polygon', 'demo', 'none']);

const TrackHeader = {
  prices: PricesSchema,
  pricesLabel: z.string().nullable(),
  asOf: IsoDateSchema.nullable(),
  benchmark: BenchmarkInfoSchema,
  minResolved: z.number().int(),
};

/** GET /api/track-record: every signal's outcome aggregated by direction, score band and sector, and the model portfolio. */
export const TrackRecordFileSchema = z.object({
  ...TrackHeader,
  horizons: z.array(z.number().int()),
  signals: z.number().int(),
  firstDate: IsoDateSchema.nullable(),
  lastDate: IsoDateSchema.nullable(),
  directions: z.object({ bullish: TrackGroupSchema, bearish: TrackGroupSchema }),
  bands: z.array(TrackGroupSchema.extend({ direction: Direction, band: z.string() })),
  sectors: z.array(TrackGroupSchema.extend({ direction: Direction, sector: z.string() })),
  portfolio: z
    .object({
      start: IsoDateSchema,
      end: IsoDateSchema,
      costBps: z.number(),
      points: z.array(z.object({ date: IsoDateSchema, equity: z.number(), benchmark: z.number().nullable() })),
      totalReturn: z.number(),
      annualisedReturn: z.number().nullable(),
      volatility: z.number().nullable(),
      sharpe: z.number().nullable(),
      maxDrawdown: z.number(),
      turnover: z.number(),
      benchmarkReturn: z.number().nullable(),
    })
    .nullable(),
  csv: z.string(),
});

/** GET /api/track-record/{ticker}: a ticker's ledger, newest first, with its figures by direction. */
export const TickerTrackFileSchema = z.object({
  ticker: TickerSchema,
  ...TrackHeader,
  signals: z.number().int(),
  bullish: TrackGroupSchema,
  bearish: TrackGroupSchema,
  // The rows as the track record's one ledger schema says (the writer and the browser's readers use it too).
  ledger: z.array(LedgerRowSchema),
});

/**
 * A JSON Feed (https://www.jsonfeed.org/version/1.1/): version 1 for the public feed, 1.1 for each stock's. The feed
 * library writes fields beyond these (authors, language, tags), so both levels stay open.
 */
export const JsonFeedSchema = z.looseObject({
  version: z.enum(['https://jsonfeed.org/version/1', 'https://jsonfeed.org/version/1.1']),
  title: z.string(),
  home_page_url: z.string().optional(),
  feed_url: z.string().optional(),
  items: z.array(z.looseObject({ id: z.string(), url: z.string().optional(), title: z.string().optional(), content_text: z.string().optional(), date_modified: z.string().optional() })),
});

/** GET /api/health. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'building', 'draining', 'no-build']),
  builtAt: z.string().nullable(),
  reportDate: IsoDateSchema.nullable(),
  report: z.enum(['current', 'behind', 'stale']).nullable(),
  tradingDaysBehind: z.number().int().nullable(),
  tickers: z.number().int(),
  source: z.enum(['sample', 'exports']).nullable(),
  provider: z.object({
    name: z.enum(['polygon', 'demo']),
    lastCallOk: z.boolean().nullable(),
    lastError: z.string().nullable(),
    budgetPerMinute: z.number().nullable(),
    budgetRemaining: z.number().nullable(),
  }),
  database: z.enum(['ok', 'degraded']),
  redis: z.enum(['ok', 'degraded', 'off']),
});

/** GET /api/auth/user: who is signed in; signed out is `{isAuthenticated: false, user: null}` with 200. */
export const AuthUserSchema = z.union([
  z.object({ isAuthenticated: z.literal(false), user: z.null() }),
  z.object({ isAuthenticated: z.literal(true), user: z.object({ username: z.string(), email: z.string(), isPremium: z.boolean() }) }),
]);

/** GET /api/market-sentiment/{ticker} for a locked top ticker (PAYWALL=on, anonymous or Free). */
export const LockedSentimentSchema = LockedTickerSchema.extend({ sentiment: z.string() });

/** GET /api/stock-complete-data/{ticker}: record, metrics, company info and similar tickers in one answer. */
export const StockCompleteDataSchema = z.object({
  ticker: TickerSchema,
  reportDate: IsoDateSchema,
  stock: z.union([SignalRecordSchema, LockedTickerSchema]),
  metrics: z.union([TickerMetricsSchema, LockedTickerSchema]),
  companyInfo: CompanyInfoSchema,
  similarTickers: SimilarTickersSchema,
});

/** GET /api/polygon/news/{ticker}. */
export const NewsAnswerSchema = z.object({ results: z.array(NewsArticleSchema) });

/** GET /api/polygon/aggs/{ticker}: daily bars of the window. */
export const BarsAnswerSchema = z.object({ ticker: TickerSchema, from: IsoDateSchema, to: IsoDateSchema, results: z.array(BarSchema), isDemo: z.boolean() });

/** GET /api/polygon/price/{ticker}: the previous day's bar (none when the provider has none). */
export const PreviousCloseAnswerSchema = z.object({ ticker: TickerSchema, results: z.array(BarSchema), isDemo: z.boolean() });

/** GET /api/polygon/ticker-details/{ticker}: the provider's details, the logo as our own route. */
export const TickerDetailsAnswerSchema = z.object({ results: TickerDetailsSchema.nullable() });

/** GET /api/polygon/company-info/{ticker}. */
export const PolygonCompanyInfoSchema = z.object({ ticker: TickerSchema, logoUrl: z.string().nullable(), companyName: z.string(), description: z.string() });

/** Every refusal: 400, 401, 404, 429, 503 and the rest. */
export const ErrorAnswerSchema = z.object({ error: z.string() });
