/**
 * The OpenAPI 3.1 document of the public routes, served at /api/openapi.json. Every parameter and answer schema is
 * generated with zod's own z.toJSONSchema from the schemas the routes validate with and the writers' answer schemas,
 * so the document cannot drift from the code: tests/integration/openapi-contract.test.ts calls every documented path
 * on a real server and checks each answer against its schema.
 */
import { z } from 'zod';
import { DAILY_KEY_ALLOWANCE, RATE_LIMIT_HEADERS } from '../lib/domain/accounts/api-keys';
import { KEYED_PREFIXES } from '../lib/domain/site/live-routes';
import { LockedTickerSchema } from '../lib/domain/accounts/entitlements';
import { DatedReportFileSchema, DatedReportIndexSchema } from '../lib/domain/report/dated-report';
import { IsoDateSchema } from '../lib/domain/report/record';
import { EarningsSchema, QuoteSchema } from '../lib/domain/market-data/market';
import {
  AuthUserSchema,
  BarsAnswerSchema,
  ErrorAnswerSchema,
  HealthSchema,
  JsonFeedSchema,
  LockedSentimentSchema,
  NewsAnswerSchema,
  PolygonCompanyInfoSchema,
  PreviousCloseAnswerSchema,
  SimilarTickersSchema,
  StockCompleteDataSchema,
  TickerDetailsAnswerSchema,
  TickerMetricsFileSchema,
  TickerTrackFileSchema,
  TrackRecordFileSchema,
} from '../lib/domain/site/api-answers';
import {
  AllSignalsFileSchema,
  ArchiveFileListingSchema,
  CompanyDescriptionSchema,
  CompanyInfoSchema,
  CompanyNameRecordSchema,
  MarketSentimentSchema,
  StockFileSchema,
  TrendFileSchema,
} from '../lib/domain/site/api-responses';
import { AggsWindowQuery, NewsQuery } from './routes/market';
import { FileParams, SheetQuery } from './routes/downloads';
import { TickerParams } from './validate';

/** Real values of the published report, so every documented example answers 200. */
export interface OpenApiExamples {
  ticker: string;
  reportDate: string;
  archiveId: string;
}

type Served = 'static' | 'live' | 'feed';

/** One documented GET route. */
interface Operation {
  path: string;
  summary: string;
  served: Served;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The 200 answer: a zod schema (JSON), or a media type whose body is not JSON. */
  answer: z.ZodType | { mediaType: string };
}

const DateParams = z.object({ date: IsoDateSchema });
const FeedTicker = TickerParams;

/** Every documented route: spec section 7's public GET routes, the track record, the feeds and the dated files. */
const OPERATIONS: readonly Operation[] = [
  { path: '/api/all-signals', summary: "The latest report's signal records", served: 'static', answer: AllSignalsFileSchema },
  { path: '/api/stock/{ticker}', summary: "A ticker's full signal record", served: 'static', params: TickerParams, answer: StockFileSchema },
  { path: '/api/ticker-metrics/{ticker}', summary: "A ticker's supporting scores and averages", served: 'static', params: TickerParams, answer: TickerMetricsFileSchema },
  { path: '/api/c-score-trend/{ticker}', summary: "A ticker's C-Score over the archived reports", served: 'static', params: TickerParams, answer: TrendFileSchema },
  { path: '/api/similar-tickers/{ticker}', summary: 'Up to 12 similar tickers (same sub-industry, then sector)', served: 'static', params: TickerParams, answer: SimilarTickersSchema },
  { path: '/api/company-name/{ticker}', summary: "A ticker's company name", served: 'static', params: TickerParams, answer: CompanyNameRecordSchema },
  { path: '/api/company-names', summary: 'Every ticker of the report with its company name', served: 'static', answer: z.array(CompanyNameRecordSchema) },
  { path: '/api/company-description/{ticker}', summary: "A company's description and who wrote it", served: 'static', params: TickerParams, answer: CompanyDescriptionSchema },
  { path: '/api/company-descriptions', summary: 'Every company description of the report', served: 'static', answer: z.array(CompanyDescriptionSchema) },
  { path: '/api/excel-files', summary: 'The archived export files, newest report first', served: 'static', answer: z.array(ArchiveFileListingSchema) },
  { path: '/api/csv-files', summary: 'The archived export files (the same list)', served: 'static', answer: z.array(ArchiveFileListingSchema) },
  { path: '/api/track-record', summary: 'The track record: outcomes by direction, score band and sector; the model portfolio', served: 'static', answer: TrackRecordFileSchema },
  { path: '/api/track-record/{ticker}', summary: "A ticker's ledger of signals with their outcomes", served: 'static', params: TickerParams, answer: TickerTrackFileSchema },
  { path: '/api/reports/index.json', summary: 'Every dated daily file, oldest first', served: 'static', answer: DatedReportIndexSchema },
  { path: '/api/reports/{date}.json', summary: 'The whole report of one archived date, as compact rows', served: 'static', params: DateParams, answer: DatedReportFileSchema },
  { path: '/feeds/signals.json', summary: "The day's new, exited and reversed signals (JSON Feed)", served: 'feed', answer: JsonFeedSchema },
  { path: '/feeds/signals.xml', summary: "The day's new, exited and reversed signals (Atom)", served: 'feed', answer: { mediaType: 'application/xml' } },
  { path: '/feeds/signal/{ticker}.json', summary: "One stock's signal changes (JSON Feed 1.1)", served: 'feed', params: FeedTicker, answer: JsonFeedSchema },
  { path: '/feeds/signal/{ticker}.xml', summary: "One stock's signal changes (Atom)", served: 'feed', params: FeedTicker, answer: { mediaType: 'application/xml' } },
  { path: '/api/health', summary: 'Build and report dates, readiness, provider status', served: 'live', answer: HealthSchema },
  { path: '/api/auth/user', summary: 'Who is signed in (signed out: isAuthenticated false)', served: 'live', answer: AuthUserSchema },
  { path: '/api/stock-price/{ticker}', summary: 'A live quote', served: 'live', params: TickerParams, answer: QuoteSchema },
  { path: '/api/earnings-date/{ticker}', summary: 'The next earnings date, when known', served: 'live', params: TickerParams, answer: EarningsSchema },
  { path: '/api/market-sentiment/{ticker}', summary: "The day's direction and trend of the C-Score", served: 'live', params: TickerParams, answer: z.union([MarketSentimentSchema, LockedSentimentSchema]) },
  { path: '/api/stock-complete-data/{ticker}', summary: 'Record, metrics, company info and similar tickers in one answer', served: 'live', params: TickerParams, answer: StockCompleteDataSchema },
  { path: '/api/company-info/{ticker}', summary: 'Company facts', served: 'live', params: TickerParams, answer: CompanyInfoSchema },
  { path: '/api/polygon/company-info/{ticker}', summary: 'Logo address, company name and description', served: 'live', params: TickerParams, answer: PolygonCompanyInfoSchema },
  { path: '/api/polygon/ticker-details/{ticker}', summary: "The market-data provider's company details", served: 'live', params: TickerParams, answer: TickerDetailsAnswerSchema },
  { path: '/api/polygon/price/{ticker}', summary: "The previous trading day's bar", served: 'live', params: TickerParams, answer: PreviousCloseAnswerSchema },
  { path: '/api/polygon/aggs/{ticker}', summary: 'Daily bars of a window of at most a month', served: 'live', params: TickerParams, query: AggsWindowQuery, answer: BarsAnswerSchema },
  { path: '/api/polygon/news/{ticker}', summary: 'Recent news articles', served: 'live', params: TickerParams, query: NewsQuery, answer: NewsAnswerSchema },
  { path: '/api/polygon/logo/{ticker}', summary: "The company's logo image (404 when there is none)", served: 'live', params: TickerParams, answer: { mediaType: 'image/*' } },
  { path: '/api/download-excel/{id}', summary: 'An archived export file as it was received (Pro with PAYWALL=on)', served: 'live', params: FileParams, answer: { mediaType: 'application/octet-stream' } },
  { path: '/api/download-csv/{id}', summary: 'An archived file, or one sheet of it, as CSV (Pro with PAYWALL=on)', served: 'live', params: FileParams, query: SheetQuery, answer: { mediaType: 'text/csv' } },
];

/** A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12, without the `$schema` keyword). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/**
 * A parameter's schema: what a caller sends (the input side). A query value read through a preprocess (blank means
 * unset) has no input schema of its own; its checked value (the output side) says what to send.
 */
function parameterSchema(schema: z.ZodType): Record<string, unknown> {
  const input = jsonSchemaOf(schema, 'input');
  return Object.keys(input).length > 0 ? input : jsonSchemaOf(schema, 'output');
}

function parameters(operation: Operation, examples: OpenApiExamples) {
  const example: Record<string, string> = { ticker: examples.ticker, date: examples.reportDate, id: examples.archiveId };
  const of = (where: 'path' | 'query', object: z.ZodObject | undefined) =>
    Object.entries(object?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: where,
      required: where === 'path',
      schema: parameterSchema(schema as z.ZodType),
      ...(where === 'path' ? { example: example[name] } : {}),
    }));
  return [...of('path', operation.params), ...of('query', operation.query)];
}

const ERROR_CONTENT = { 'application/json': { schema: jsonSchemaOf(ErrorAnswerSchema) } };
const header = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_HEADERS = {
  [RATE_LIMIT_HEADERS.limit]: header('Requests the key may make in the current window (a UTC day).'),
  [RATE_LIMIT_HEADERS.remaining]: header('Requests left in the window.'),
  [RATE_LIMIT_HEADERS.reset]: header('Seconds until the window resets (the next UTC midnight).'),
};

/** Whether a key may call the route on its own allowance (the live-route table's `keyed` rows). */
function keyed(operation: Operation): boolean {
  return operation.served === 'live' && KEYED_PREFIXES.includes(operation.path.split('/')[2]!);
}

function responses(operation: Operation) {
  const ok =
    'mediaType' in operation.answer
      ? { description: 'OK', content: { [operation.answer.mediaType]: { schema: { type: 'string', format: 'binary' } } } }
      : { description: 'OK', content: { 'application/json': { schema: jsonSchemaOf(operation.answer) } } };
  const base: Record<string, unknown> = { 200: keyed(operation) ? { ...ok, headers: RATE_HEADERS } : ok };
  if (operation.params !== undefined) base[404] = { description: 'Not in the latest report (or no such file)', content: ERROR_CONTENT };
  if (operation.served === 'live') base[400] = { description: 'A malformed parameter; the message says what to fix', content: ERROR_CONTENT };
  if (keyed(operation)) {
    base[401] = { description: 'An unknown or revoked API key', content: ERROR_CONTENT };
    base[429] = { description: "The key's allowance for the day is spent; Retry-After says when it resets", content: ERROR_CONTENT, headers: { 'Retry-After': header('Seconds until the allowance resets.'), ...RATE_HEADERS } };
  }
  return base;
}

const SERVED_TEXT: Record<Served | 'session', string> = {
  session: 'Answered by the live server for the browser session; a key changes nothing here.',
  static: 'A static file written by the daily job: open, no key, served by a CDN.',
  feed: 'A static feed written by the daily job: open, no key.',
  live: 'Answered by the live server: open without a key (shared per-client limits), or with `Authorization: Bearer KEY` on the key\'s own daily allowance.',
};

/** The OpenAPI 3.1 document for a site at `origin` (null: relative to the document's own server). */
export function openApiDocument(examples: OpenApiExamples, siteName: string, origin: string | null) {
  const paths: Record<string, unknown> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = {
      get: {
        summary: operation.summary,
        description: keyed(operation) ? SERVED_TEXT.live : operation.served === 'live' ? SERVED_TEXT.session : SERVED_TEXT[operation.served],
        tags: [operation.served],
        parameters: parameters(operation, examples),
        responses: responses(operation),
        security: keyed(operation) ? [{}, { apiKey: [] }] : [],
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${siteName} API`,
      version: '1',
      description:
        `The daily report as static JSON (no key) and the live routes. A key is optional: sent as \`Authorization: Bearer KEY\`, it gives the live routes ` +
        `their own allowance of ${DAILY_KEY_ALLOWANCE.free.toLocaleString('en-US')} requests a day (${DAILY_KEY_ALLOWANCE.pro.toLocaleString('en-US')} with Pro when the site takes payments), with RateLimit headers on every answer. See /developers.`,
    },
    servers: [{ url: origin ?? '/' }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [
      { name: 'static', description: SERVED_TEXT.static },
      { name: 'feed', description: SERVED_TEXT.feed },
      { name: 'live', description: SERVED_TEXT.live },
    ],
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made on /account (shown once).' } } },
    paths,
  };
}

/** The documented paths (for the tests and the developers page). */
export const DOCUMENTED_PATHS: readonly string[] = OPERATIONS.map((operation) => operation.path);
