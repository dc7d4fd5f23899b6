/**
 * The OpenAPI 3.1 document of the public routes, served at /api/openapi.json. Every parameter and answer schema is
 * generated with zod's own z.toJSONSchema from the schemas the routes validate with and the writers' answer schemas,
 * so the document cannot drift from the code: tests/integration/openapi-contract.test.ts calls every documented path
 * on a real server and checks each answer against its schema.
 */
import { z } from 'zod';
import { DAILY_KEY_ALLOWANCE, RATE_LIMIT_HEADERS } from '../lib/domain/accounts/api-keys';
import { keyedRoute, OPEN_API_ROUTES, type OpenApiRoute, type Served } from '../lib/domain/site/open-api';
import { LockedTickerSchema } from '../lib/domain/accounts/locked-ticker';
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

/** One documented GET route with its schemas. */
interface Operation extends OpenApiRoute {
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The 200 answer: a zod schema (JSON), or a media type whose body is not JSON. */
  answer: z.ZodType | { mediaType: string };
}

const DateParams = z.object({ date: IsoDateSchema });
const FeedTicker = TickerParams;

/** Each documented route's schemas, by its path in OPEN_API_ROUTES. */
const SCHEMAS: Record<string, Omit<Operation, keyof OpenApiRoute>> = {
  '/api/all-signals': { answer: AllSignalsFileSchema },
  '/api/stock/{ticker}': { params: TickerParams, answer: StockFileSchema },
  '/api/ticker-metrics/{ticker}': { params: TickerParams, answer: TickerMetricsFileSchema },
  '/api/c-score-trend/{ticker}': { params: TickerParams, answer: TrendFileSchema },
  '/api/similar-tickers/{ticker}': { params: TickerParams, answer: SimilarTickersSchema },
  '/api/company-name/{ticker}': { params: TickerParams, answer: CompanyNameRecordSchema },
  '/api/company-names': { answer: z.array(CompanyNameRecordSchema) },
  '/api/company-description/{ticker}': { params: TickerParams, answer: CompanyDescriptionSchema },
  '/api/company-descriptions': { answer: z.array(CompanyDescriptionSchema) },
  '/api/excel-files': { answer: z.array(ArchiveFileListingSchema) },
  '/api/csv-files': { answer: z.array(ArchiveFileListingSchema) },
  '/api/track-record': { answer: TrackRecordFileSchema },
  '/api/track-record/{ticker}': { params: TickerParams, answer: TickerTrackFileSchema },
  '/api/reports/index.json': { answer: DatedReportIndexSchema },
  '/api/reports/{date}.json': { params: DateParams, answer: DatedReportFileSchema },
  '/feeds/signals.json': { answer: JsonFeedSchema },
  '/feeds/signals.xml': { answer: { mediaType: 'application/xml' } },
  '/feeds/signal/{ticker}.json': { params: FeedTicker, answer: JsonFeedSchema },
  '/feeds/signal/{ticker}.xml': { params: FeedTicker, answer: { mediaType: 'application/xml' } },
  '/api/health': { answer: HealthSchema },
  '/api/auth/user': { answer: AuthUserSchema },
  '/api/stock-price/{ticker}': { params: TickerParams, answer: QuoteSchema },
  '/api/earnings-date/{ticker}': { params: TickerParams, answer: EarningsSchema },
  '/api/market-sentiment/{ticker}': { params: TickerParams, answer: z.union([MarketSentimentSchema, LockedSentimentSchema]) },
  '/api/stock-complete-data/{ticker}': { params: TickerParams, answer: StockCompleteDataSchema },
  '/api/company-info/{ticker}': { params: TickerParams, answer: CompanyInfoSchema },
  '/api/polygon/company-info/{ticker}': { params: TickerParams, answer: PolygonCompanyInfoSchema },
  '/api/polygon/ticker-details/{ticker}': { params: TickerParams, answer: TickerDetailsAnswerSchema },
  '/api/polygon/price/{ticker}': { params: TickerParams, answer: PreviousCloseAnswerSchema },
  '/api/polygon/aggs/{ticker}': { params: TickerParams, query: AggsWindowQuery, answer: BarsAnswerSchema },
  '/api/polygon/news/{ticker}': { params: TickerParams, query: NewsQuery, answer: NewsAnswerSchema },
  '/api/polygon/logo/{ticker}': { params: TickerParams, answer: { mediaType: 'image/*' } },
  '/api/download-excel/{id}': { params: FileParams, answer: { mediaType: 'application/octet-stream' } },
  '/api/download-csv/{id}': { params: FileParams, query: SheetQuery, answer: { mediaType: 'text/csv' } },
};

/** Every documented route with its schemas; a route without schemas stops the server at start, naming it. */
const OPERATIONS: readonly Operation[] = OPEN_API_ROUTES.map((route) => {
  const schemas = SCHEMAS[route.path];
  if (schemas === undefined) throw new Error(`The OpenAPI document has no schemas for ${route.path}: add them to SCHEMAS in src/server/openapi.ts.`);
  return { ...route, ...schemas };
});

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

const keyed = keyedRoute;

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
