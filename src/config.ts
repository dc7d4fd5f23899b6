/**
 * The one place the environment is read (docs/environment.md). `loadConfig` parses it with one zod
 * schema and, when anything is wrong, throws a ConfigError listing every problem; every other module receives
 * its settings from the Config it returns.
 */
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { explainIssues } from './lib/domain/text/explain';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from './lib/domain/report/export';
import { DEFAULT_TICKER_DROP_PERCENT } from './lib/domain/operator/gates';
import { DEFAULT_BENCHMARK_TICKER, DEFAULT_COST_BPS } from './lib/domain/track-record/benchmark';
import { safeHttpUrl } from './lib/domain/text/url';

/** The project's root folder (where package.json is); relative paths in the environment start here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The canonical origin unless SITE_URL says otherwise (the daily job warns about it). */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

/** The origin a server on `port` answers at on this machine: SITE_URL's default, so mailed links reach it. */
export function localSiteUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** The product name unless SITE_NAME says otherwise. */
export const DEFAULT_SITE_NAME = 'C-Score Signals';

/** Unset and blank read the same: the default applies. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);

const text = (fallback: string) => optional(z.string().trim().default(fallback));
const path = (fallback: string) => text(fallback).transform((value) => (isAbsolute(value) ? value : resolve(PROJECT_ROOT, value)));
const wholeNumber = (fallback: number, min: number, max: number) =>
  optional(
    z.coerce
      .number({ error: 'expected a whole number' })
      .int('expected a whole number')
      .min(min, `expected ${min} or more`)
      .max(max, `expected ${max} or less`)
      .default(fallback),
  );
const httpUrl = (what: string) => z.string().trim().refine((value) => safeHttpUrl(value) !== null, `expected an http(s) address of ${what}`);
/** A link that may be unset: only http(s) addresses (DESIGN.md "Security rules"). */
const optionalLink = (what: string) => optional(httpUrl(what).transform((value) => safeHttpUrl(value)!).optional()).transform((value) => value ?? null);

export const EnvSchema = z.object({
  SIGNALS_SOURCE: text('data/sample-exports/'),
  ARCHIVE_DIR: path('data/archive'),
  DIST_DIR: path('dist'),
  UNIVERSE_FILE: path('data/universe/sp500-constituents.csv'),
  COMPANY_INFO_FILE: path('data/company-info/companies.json'),
  FUNDAMENTALS_FILE: path('data/company-info/fundamentals.json'),
  SHARE_IMAGE_CACHE: path('data/build/share-images'),
  HISTORY_STORE: path('data/build/history'),
  SITE_DATA_FILE: optional(z.string().trim().optional()),
  // Set by the daily job for `astro build`, which it starts before the site data is written: how long a page waits for it.
  SITE_DATA_WAIT_SECONDS: wholeNumber(0, 0, 3_600),
  // Threads that render static pages beside Astro's own (src/build/parallel-prerender.mjs); unset: one per core but one, at most 3.
  PRERENDER_THREADS: optional(z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(0, 'expected 0 or more').max(16, 'expected 16 or less').optional()),
  SITE_URL: optional(httpUrl('the site, such as https://signals.example.com').optional()),
  SITE_NAME: text(DEFAULT_SITE_NAME),
  PORT: wholeNumber(4321, 0, 65_535),
  HOST: text('localhost'),
  DEV_API_PORT: optional(z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1, 'expected 1 or more').max(65_535, 'expected 65535 or less').optional()),
  POLYGON_API_KEY: optional(z.string().trim().optional()),
  POLYGON_BASE_URL: optional(httpUrl('the market-data API').default('https://api.polygon.io')).transform((value) => value.replace(/\/+$/, '')),
  POLYGON_RATE_PER_MIN: wholeNumber(5, 1, 100_000),
  POLYGON_TIMEOUT_MS: wholeNumber(5000, 1, 600_000),
  POLYGON_RESERVED_PERCENT: wholeNumber(40, 0, 90),
  POLYGON_CLIENT_PERCENT: wholeNumber(60, 1, 100),
  LEARN_VIDEO_URL: optionalLink('an embeddable player'),
  NEWSLETTER_URL: optionalLink('the newsletter'),
  COMMUNITY_URL: optionalLink('the community'),
  NODE_ENV: text('development'),
  DATABASE_URL: optional(
    z
      .string()
      .trim()
      .refine((value) => /^postgres(ql)?:\/\//i.test(value), 'expected a postgres:// address of the database')
      .optional(),
  ),
  DATABASE_FILE: path('data/app.db'),
  SMTP_URL: optional(
    z
      .string()
      .trim()
      .refine((value) => /^smtps?:\/\//i.test(value), 'expected an smtp:// or smtps:// address of the mail server')
      .optional(),
  ),
  MAIL_FROM: optional(z.string().trim().optional()),
  BETTER_AUTH_SECRET: optional(z.string().trim().min(32, 'expected 32 characters or more (openssl rand -base64 32)').optional()),
  ADMIN_EMAILS: text(''),
  PAYWALL: optional(z.enum(['on', 'off'], { error: 'expected on or off' }).default('off')),
  STRIPE_SECRET_KEY: optional(z.string().trim().optional()),
  STRIPE_WEBHOOK_SECRET: optional(z.string().trim().optional()),
  STRIPE_PRICE_MONTHLY: optional(z.string().trim().optional()),
  STRIPE_PRICE_ANNUAL: optional(z.string().trim().optional()),
  STRIPE_API_URL: optional(httpUrl('the Stripe API (tests point it at a fake)').optional()),
  ISLAND_FAULTS: optional(z.enum(['on', 'off'], { error: 'expected on or off' }).default('off')),
  EXPORT_MAX_BYTES: wholeNumber(DEFAULT_EXPORT_LIMITS.maxBytes, 1, 2 ** 31 - 1),
  EXPORT_MAX_UNPACKED_BYTES: wholeNumber(DEFAULT_EXPORT_LIMITS.maxUnpackedBytes, 1, 2 ** 31 - 1),
  EXPORT_MAX_ROWS: wholeNumber(DEFAULT_EXPORT_LIMITS.maxRows, 1, 10_000_000),
  EXPORT_MAX_COLUMNS: wholeNumber(DEFAULT_EXPORT_LIMITS.maxColumns, 14, 16_384),
  EXPORT_MAX_TICKERS: wholeNumber(DEFAULT_EXPORT_LIMITS.maxTickers, 1, 1_000_000),
  EXPORT_MAX_CELL_CHARS: wholeNumber(DEFAULT_EXPORT_LIMITS.maxCellChars, 200, 1_000_000),
  GATE_TICKER_DROP_PERCENT: wholeNumber(DEFAULT_TICKER_DROP_PERCENT, 0, 100),
  BENCHMARK_TICKER: text(DEFAULT_BENCHMARK_TICKER).pipe(z.string().regex(/^[A-Z][A-Z0-9.\-]{0,9}$/, 'expected a ticker in capitals, such as SPY')),
  TRACK_COST_BPS: wholeNumber(DEFAULT_COST_BPS, 0, 1000),
  REDIS_URL: optional(
    z
      .string()
      .trim()
      .refine((value) => /^rediss?:\/\//i.test(value), 'expected a redis:// or rediss:// address, e.g. redis://127.0.0.1:6379')
      .optional(),
  ),
  API_ORIGIN: optional(httpUrl('the live API behind the CDN, such as https://api.signals.example.com').optional()),
  PUBLISH_COMMAND: optional(z.string().trim().optional()),
  TRUSTED_PROXIES: text(''),
  VAPID_PUBLIC_KEY: optional(z.string().trim().regex(/^[A-Za-z0-9_-]{87}$/, 'expected the 65-byte public key in base64url (npx web-push generate-vapid-keys)').optional()),
  VAPID_PRIVATE_KEY: optional(z.string().trim().regex(/^[A-Za-z0-9_-]{43}$/, 'expected the 32-byte private key in base64url').optional()),
  VAPID_SUBJECT: optional(z.string().trim().regex(/^(mailto:|https:\/\/)\S+$/, 'expected a mailto: or https: address the push services may contact').optional()),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'expected fatal, error, warn, info, debug, trace or silent' }).default('info')),
  LOG_FORMAT: optional(z.enum(['json', 'pretty'], { error: 'expected json or pretty' }).optional()),
  SHUTDOWN_TIMEOUT_MS: wholeNumber(10_000, 0, 600_000),
  LLM_BASE_URL: optional(httpUrl('an OpenAI-compatible API, such as https://api.openai.com/v1 or http://127.0.0.1:11434/v1').optional()),
  LLM_API_KEY: optional(z.string().trim().optional()),
  LLM_MODEL: optional(z.string().trim().max(200, 'expected 200 characters or fewer').optional()),
  LLM_TIMEOUT_MS: wholeNumber(30_000, 1, 600_000),
  LLM_REQUEST_TOKEN_LIMIT: wholeNumber(1000, 16, 1_000_000),
  LLM_DAILY_TOKEN_LIMIT: wholeNumber(2_000_000, 1, 2 ** 31 - 1),
  LLM_RATE_PER_MIN: wholeNumber(10, 1, 10_000),
});

/** Every setting, parsed, defaulted and with paths made absolute. */
export interface Config {
  /** Where the daily job pulls exports from: a folder (absolute path) or an http(s) URL. */
  source: string;
  archiveDir: string;
  distDir: string;
  universeFile: string;
  companyInfoFile: string;
  /** The daily job's store of ratios and earnings dates (FUNDAMENTALS_FILE), with their as-of dates. */
  fundamentalsFile: string;
  shareImageCache: string;
  /** Where the daily job keeps what parsing each archived file produced (HISTORY_STORE), so a run parses only new files. */
  historyStore: string;
  /** The site data the static build reads: the daily job's staging file, else the published one. */
  siteDataFile: string;
  /** How long the static build waits for `siteDataFile` to appear (the daily job writes it while Astro bundles); 0: not at all. */
  siteDataWaitSeconds: number;
  /** Threads the static build renders pages on beside Astro's own. */
  prerenderThreads: number;
  /** The canonical origin for links and meta tags. */
  siteUrl: string;
  siteName: string;
  port: number;
  host: string;
  /** The port `npm run dev` runs the live API on; set, astro dev proxies the live routes to it. */
  devApiPort: number | null;
  /** The market-data provider; `reservedPercent` of the budget is kept for quotes and the daily job, `clientPercent` is one client's most. */
  polygon: { apiKey: string | null; baseUrl: string; ratePerMinute: number; timeoutMs: number; reservedPercent: number; clientPercent: number };
  links: { learnVideo: string | null; newsletter: string | null; community: string | null };
  /** NODE_ENV is "production": mail, the auth secret and an https SITE_URL are required. */
  production: boolean;
  /** The accounts database: PostgreSQL when DATABASE_URL is set, else the SQLite file DATABASE_FILE (data/app.db). */
  database: { url: string | null; file: string };
  /** SMTP_URL (null: links are logged instead, development only) and the sender address. */
  mail: { smtpUrl: string | null; from: string };
  /** BETTER_AUTH_SECRET; null only outside production (a fixed development secret is used). */
  authSecret: string | null;
  /** ADMIN_EMAILS, lower-cased: the operators. */
  adminEmails: string[];
  /** PAYWALL=on: the server keeps Pro data for Pro users. */
  paywall: boolean;
  /** ISLAND_FAULTS=on (e2e builds only): `?island-fault=NAME` makes that island throw, to test the error boundary. */
  islandFaults: boolean;
  /** The export's size limits (EXPORT_MAX_*): a file past one is refused with its figure. */
  exportLimits: ExportLimits;
  /** GATE_TICKER_DROP_PERCENT: the share the latest report's ticker count may fall before the ticker-drop gate holds it. */
  tickerDropPercent: number;
  /** The track record's benchmark (BENCHMARK_TICKER, its closes from the provider) and the model portfolio's cost per trade (TRACK_COST_BPS). */
  trackRecord: { benchmarkTicker: string; costBps: number };
  /**
   * The model provider, when LLM_BASE_URL, LLM_API_KEY and LLM_MODEL are all set: an OpenAI-compatible API.
   * `requestTokenLimit` caps the tokens one model call may write, `dailyTokenLimit` the site's tokens a UTC day,
   * `ratePerMinute` one user's AI requests a minute.
   */
  llm: { baseUrl: string; apiKey: string; model: string; timeoutMs: number; requestTokenLimit: number; dailyTokenLimit: number; ratePerMinute: number } | null;
  /** Stripe, when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are both set. */
  stripe: { secretKey: string; webhookSecret: string; priceMonthly: string | null; priceAnnual: string | null; apiUrl: string | null } | null;
  /** REDIS_URL: N API processes share the market-data cache, budget and client limits, and the daily job's lock, there. */
  redisUrl: string | null;
  /** API_ORIGIN: where the CDN's Pages Function forwards the live routes (docs/deploy.md); null: the CDN rules forward nothing. */
  apiOrigin: string | null;
  /** PUBLISH_COMMAND: run by the daily job after a successful swap, with the published folder, to push it to a host. */
  publishCommand: string | null;
  /** Web Push's VAPID keys (both null: a development key pair is kept in the data folder; production has no push) and subject. */
  vapid: { publicKey: string | null; privateKey: string | null; subject: string | null };
  /** TRUSTED_PROXIES: socket addresses (nginx's) whose X-Forwarded-For names the client. */
  trustedProxies: string[];
  /** The server's structured log: pino's level, and JSON lines or pretty text (default: pretty on a terminal). */
  logging: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format: 'json' | 'pretty' | null };
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for in-flight requests before closing anyway. */
  shutdownTimeoutMs: number;
}

/**
 * Every setting that changes what the static build writes besides its data: the daily job hands exactly these to
 * `astro build` (buildEnv) and puts them in the inputs hash, so changing one rebuilds the site.
 */
export interface BuildShape {
  siteUrl: string;
  siteName: string;
  links: Config['links'];
  paywall: boolean;
  islandFaults: boolean;
}

/** The environment a static build of `shape` runs with (the variables loadConfig reads back into the same shape). */
export function buildEnv(shape: BuildShape): Record<string, string> {
  return {
    SITE_URL: shape.siteUrl,
    SITE_NAME: shape.siteName,
    LEARN_VIDEO_URL: shape.links.learnVideo ?? '',
    NEWSLETTER_URL: shape.links.newsletter ?? '',
    COMMUNITY_URL: shape.links.community ?? '',
    PAYWALL: shape.paywall ? 'on' : 'off',
    ISLAND_FAULTS: shape.islandFaults ? 'on' : 'off',
  };
}

/** The environment could not be read; the message lists every problem and what to do. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(['The environment has problems; fix or unset these variables (docs/environment.md):', ...problems.map((p) => `  ${p}`)].join('\n'));
    this.name = 'ConfigError';
  }
}

/** Parses the environment into a Config, or throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(explainIssues(parsed.error.issues).map((line) => line.replace(/^(\w+):/, (_, name) => `${name}="${env[name] ?? ''}":`)));
  }
  const e = parsed.data;
  const llmSet = [e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL].filter((value) => value !== undefined).length;
  if (llmSet > 0 && llmSet < 3) {
    const missing = (['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL'] as const).filter((name) => e[name] === undefined);
    throw new ConfigError(missing.map((name) => `${name}="": set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL together (a local server that needs no key takes any key, such as "local"), or none of them`));
  }
  const production = e.NODE_ENV === 'production';
  const source = /^https?:/i.test(e.SIGNALS_SOURCE) || isAbsolute(e.SIGNALS_SOURCE) ? e.SIGNALS_SOURCE : resolve(PROJECT_ROOT, e.SIGNALS_SOURCE);
  return {
    source,
    archiveDir: e.ARCHIVE_DIR,
    distDir: e.DIST_DIR,
    universeFile: e.UNIVERSE_FILE,
    companyInfoFile: e.COMPANY_INFO_FILE,
    fundamentalsFile: e.FUNDAMENTALS_FILE,
    shareImageCache: e.SHARE_IMAGE_CACHE,
    historyStore: e.HISTORY_STORE,
    siteDataFile: e.SITE_DATA_FILE ? resolve(PROJECT_ROOT, e.SITE_DATA_FILE) : resolve(e.DIST_DIR, 'data', 'site.json'),
    siteDataWaitSeconds: e.SITE_DATA_WAIT_SECONDS,
    prerenderThreads: e.PRERENDER_THREADS ?? Math.min(3, Math.max(0, availableParallelism() - 1)),
    siteUrl: e.SITE_URL ?? localSiteUrl(e.PORT),
    siteName: e.SITE_NAME,
    port: e.PORT,
    host: e.HOST,
    devApiPort: e.DEV_API_PORT ?? null,
    polygon: {
      apiKey: e.POLYGON_API_KEY || null,
      baseUrl: e.POLYGON_BASE_URL,
      ratePerMinute: e.POLYGON_RATE_PER_MIN,
      timeoutMs: e.POLYGON_TIMEOUT_MS,
      reservedPercent: e.POLYGON_RESERVED_PERCENT,
      clientPercent: e.POLYGON_CLIENT_PERCENT,
    },
    links: { learnVideo: e.LEARN_VIDEO_URL, newsletter: e.NEWSLETTER_URL, community: e.COMMUNITY_URL },
    production,
    database: { url: e.DATABASE_URL ?? null, file: e.DATABASE_FILE },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM || `${e.SITE_NAME} <no-reply@${new URL(e.SITE_URL ?? localSiteUrl(e.PORT)).hostname}>` },
    authSecret: e.BETTER_AUTH_SECRET ?? null,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email !== ''),
    paywall: e.PAYWALL === 'on',
    islandFaults: e.ISLAND_FAULTS === 'on',
    exportLimits: {
      maxBytes: e.EXPORT_MAX_BYTES,
      maxUnpackedBytes: e.EXPORT_MAX_UNPACKED_BYTES,
      maxRows: e.EXPORT_MAX_ROWS,
      maxColumns: e.EXPORT_MAX_COLUMNS,
      maxTickers: e.EXPORT_MAX_TICKERS,
      maxCellChars: e.EXPORT_MAX_CELL_CHARS,
    },
    tickerDropPercent: e.GATE_TICKER_DROP_PERCENT,
    trackRecord: { benchmarkTicker: e.BENCHMARK_TICKER, costBps: e.TRACK_COST_BPS },
    llm:
      e.LLM_BASE_URL && e.LLM_API_KEY && e.LLM_MODEL
        ? {
            baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
            apiKey: e.LLM_API_KEY,
            model: e.LLM_MODEL,
            timeoutMs: e.LLM_TIMEOUT_MS,
            requestTokenLimit: e.LLM_REQUEST_TOKEN_LIMIT,
            dailyTokenLimit: e.LLM_DAILY_TOKEN_LIMIT,
            ratePerMinute: e.LLM_RATE_PER_MIN,
          }
        : null,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            priceMonthly: e.STRIPE_PRICE_MONTHLY ?? null,
            priceAnnual: e.STRIPE_PRICE_ANNUAL ?? null,
            apiUrl: e.STRIPE_API_URL ?? null,
          }
        : null,
    redisUrl: e.REDIS_URL ?? null,
    apiOrigin: e.API_ORIGIN === undefined ? null : new URL(e.API_ORIGIN).origin,
    publishCommand: e.PUBLISH_COMMAND || null,
    trustedProxies: e.TRUSTED_PROXIES.split(',')
      .map((address) => address.trim())
      .filter((address) => address !== ''),
    vapid: { publicKey: e.VAPID_PUBLIC_KEY ?? null, privateKey: e.VAPID_PRIVATE_KEY ?? null, subject: e.VAPID_SUBJECT ?? null },
    logging: { level: e.LOG_LEVEL, format: e.LOG_FORMAT ?? null },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

/**
 * The server's own rule (not the build's, which Astro runs with NODE_ENV=production): in production it refuses to
 * start without SMTP_URL, BETTER_AUTH_SECRET and an https SITE_URL, naming each that is missing.
 */
export function requireProductionSettings(config: Config): void {
  if (!config.production) return;
  const missing: string[] = [];
  if (config.mail.smtpUrl === null) missing.push('SMTP_URL="": required when NODE_ENV=production (the mail server for sign-in links)');
  if (config.authSecret === null) missing.push('BETTER_AUTH_SECRET="": required when NODE_ENV=production (openssl rand -base64 32)');
  if (!config.siteUrl.startsWith('https://')) missing.push(`SITE_URL="${config.siteUrl}": an https address is required when NODE_ENV=production`);
  if (config.islandFaults) missing.push(ISLAND_FAULTS_IN_PRODUCTION);
  if (missing.length > 0) throw new ConfigError(missing);
}

/**
 * What is wrong with SITE_URL for a published site (unset, it is http://localhost:PORT), or null: canonical links,
 * share images and the sitemap all name it. The daily job warns on every run and refuses in production.
 */
export function siteUrlProblem(config: Config): string | null {
  if (config.siteUrl.startsWith('https://')) return null;
  return `SITE_URL is "${config.siteUrl}" (unset or not https): canonical links, share images and the sitemap point there. Set SITE_URL to the site's https address, e.g. SITE_URL=https://signals.example.com.`;
}

/** The refusal of a test build setting in production (the static build itself always runs with NODE_ENV=production). */
export const ISLAND_FAULTS_IN_PRODUCTION = 'ISLAND_FAULTS="on": a test setting (islands throw on request); unset it when NODE_ENV=production';

let current: Config | undefined;

/** This process's Config, read from process.env on first use (the entry points and the static build's pages). */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
