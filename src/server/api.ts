import { Hono } from 'hono';
import type { Redis } from 'ioredis';
import { DEFAULT_SITE_NAME, type Config } from '../config';
import { KEYED_PREFIXES, METHOD_GUARDS, PAYWALLED_PREFIXES, SESSION_CHECKED_PREFIXES } from '../lib/domain/site/live-routes';
import { CompanyStore } from '../storage/company-info';
import { SiteIndexLoader } from '../storage/site-index';
import { readUniverse } from '../storage/universe';
import { accountSettings, type Accounts, openAccounts } from './accounts';
import { answerError, refusal } from './errors';
import { providerFor } from './providers';
import type { MarketDataProvider } from './providers/provider';
import { RunLog } from '../storage/run-log';
import { openRedis } from '../storage/redis';
import { redisAuthLimits } from './auth/rate-limit';
import { type OperatorTools, PublishQueue } from './publish-queue';
import { accountRoutes } from './routes/account';
import { alertRoutes } from './routes/alerts';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { companyRoutes } from './routes/company';
import { privateSessionAnswers, type ApiContext, type Readiness } from './routes/context';
import { downloadRoutes } from './routes/downloads';
import { formRoutes } from './routes/forms';
import { healthRoutes } from './routes/health';
import { marketRoutes } from './routes/market';
import { proRoutes } from './routes/pro';
import { requirePro, sessionUser as readSession } from './auth/session';
import { staticTickerRoutes } from './routes/static-tickers';
import { watchlistRoutes } from './routes/watchlist';
import { screenRoutes } from './routes/screens';
import { aiRoutes, type AiRouteOptions } from './routes/ai';
import { alertRuleRoutes } from './routes/alert-rules';
import { pushRoutes, type PushRouteOptions } from './routes/push';
import { pushSettings, pushSetup } from './push';
import { keyedRequests } from './api-keys';
import { apiKeyRoutes } from './routes/api-keys';
import { openApiRoutes } from './routes/open-api';

/** What the live API needs to know. */
export interface ApiOptions {
  /** The published build: `data/site.json` and `build.json` say what the report holds. */
  distDir: string;
  /** The archive of export files, for the downloads (ARCHIVE_DIR). */
  archiveDir: string;
  /** The company-information store (COMPANY_INFO_FILE). */
  companyInfoFile: string;
  provider: MarketDataProvider;
  /** SITE_URL: a logout may return to its origin besides the request's own. */
  siteUrl?: string;
  /** SITE_NAME, default "C-Score Signals". */
  siteName?: string;
  /** The account layer (openAccounts): database, Better Auth, mailer, session reader. */
  accounts: Accounts;
  /** The daily job's check, preview and publish (scripts/start.ts passes the pipeline's); without them /api/admin cannot publish. */
  operatorTools?: OperatorTools;
  /** The published build's index; pass the app's (createApp) so the process holds one copy. Default: a new loader. */
  site?: SiteIndexLoader;
  now?: () => number;
  /** TRUSTED_PROXIES: peers (nginx) whose X-Forwarded-For names the client for the per-client limits. */
  trustedProxies?: readonly string[];
  /** REDIS_URL's connection, shared by the provider (scripts/start.ts closes it on shutdown); null without REDIS_URL. */
  redis?: Redis | null;
  /** Whether the process serves, builds its first site or drains (default: always ready). */
  readiness?: () => Readiness;
  /** The AI model settings (Config's `llm`, null: not configured) and, for tests, a model of their own. */
  ai?: Omit<AiRouteOptions, 'runLog'>;
  /** Web Push's public key (null: push is off) and whether endpoints get production's rule; default off. */
  push?: PushRouteOptions;
}

/**
 * The live API, mounted at /api (DESIGN.md "API routes": the live half, plus the ticker checks in front of the
 * static per-ticker JSON): one sub-app per route group. It has no catch-all: any other path falls through to the
 * static build. Its routes' types are the browser's contract (AppType in ./app-type.ts): keep the chain typed.
 */
export function createApi(options: ApiOptions) {
  const context: ApiContext = {
    site: options.site ?? new SiteIndexLoader(options.distDir),
    provider: options.provider,
    companies: new CompanyStore(options.companyInfoFile),
    archiveDir: options.archiveDir,
    siteName: options.siteName ?? DEFAULT_SITE_NAME,
    siteOrigins: siteOrigins(options.siteUrl),
    accounts: options.accounts,
    now: options.now ?? Date.now,
    trustedProxies: options.trustedProxies ?? [],
    readiness: options.readiness ?? (() => 'ready'),
    redis: options.redis ?? null,
  };
  const sessionUser = readSession(options.accounts.session);
  const app = new Hono();
  // First: a keyed request past its allowance, or with a revoked key, is refused before any other work.
  const keyed = keyedRequests(options.accounts, context.redis, context.now);
  // Once per prefix: Hono's `/prefix/*` matches `/prefix` too, and a second mount would count a request twice.
  for (const prefix of KEYED_PREFIXES) app.use(`/${prefix}/*`, keyed.middleware);
  // Hono's `/prefix/*` matches `/prefix` itself too: one mount covers both.
  for (const prefix of SESSION_CHECKED_PREFIXES) app.use(`/${prefix}/*`, privateSessionAnswers);
  if (options.accounts.paywall) for (const prefix of PAYWALLED_PREFIXES) app.use(`/${prefix}/*`, sessionUser, requirePro);
  return app
    .route('/pro', proRoutes(context, sessionUser))
    .route('/', healthRoutes(context))
    .route('/', openApiRoutes(context))
    .route('/auth', authRoutes(context))
    .route('/forms', formRoutes((request) => options.accounts.auth.handler(request), context.trustedProxies, options.siteUrl))
    .route('/account/keys', apiKeyRoutes(context, keyed))
    .route('/account', accountRoutes(context, keyed))
    .route('/watchlist', watchlistRoutes(context))
    .route('/alerts', alertRoutes(context))
    .route('/screens', screenRoutes(context))
    .route('/alert-rules', alertRuleRoutes(context))
    .route('/push', pushRoutes(context, options.push ?? { publicKey: null, production: false }))
    .route('/ai', aiRoutes(context, { settings: null, ...options.ai, runLog: new RunLog(options.accounts.database.db, context.now) }, sessionUser))
    .route('/admin', adminRoutes(context, { queue: options.operatorTools ? new PublishQueue(options.operatorTools) : null, runLog: new RunLog(options.accounts.database.db, context.now), distDir: options.distDir }))
    .route('/', marketRoutes(context))
    .route('/', companyRoutes(context))
    .route('/', downloadRoutes(context))
    .route('/', staticTickerRoutes(context))
    .route('/', methodGuards())
    .onError(answerError);
}

/** A 405 naming the allowed method for a live route asked with another one (mounted last, so real routes win). */
function methodGuards(): Hono {
  const guards = new Hono();
  for (const { refuse, path, allow } of METHOD_GUARDS) {
    guards.on([...refuse], path, (c) => {
      throw refusal(405, allow === 'POST' ? `Use POST on /api${path} with a JSON body.` : `Use GET on ${c.req.path}.`, { Allow: allow });
    });
  }
  return guards;
}

function siteOrigins(siteUrl: string | undefined): string[] {
  if (!siteUrl) return [];
  try {
    return [new URL(siteUrl).origin];
  } catch {
    return [];
  }
}

/** The API's settings from the process's Config. */
export async function apiOptions(config: Config): Promise<ApiOptions> {
  const redis = config.redisUrl === null ? null : openRedis(config.redisUrl);
  return {
    distDir: config.distDir,
    archiveDir: config.archiveDir,
    companyInfoFile: config.companyInfoFile,
    provider: providerFor(config.polygon, await readUniverse(config.universeFile), redis),
    trustedProxies: config.trustedProxies,
    redis,
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    // With REDIS_URL the sign-in, sign-up and mail limits count across every process too.
    accounts: await openAccounts({ ...accountSettings(config), ...(redis ? { rateLimitStore: redisAuthLimits(redis) } : {}) }),
    ai: { settings: config.llm },
    push: { publicKey: pushSetup(pushSettings(config)).keys?.publicKey ?? null, production: config.production },
  };
}
