/**
 * `npm start`: one Node process that serves the static build and the live API on PORT and HOST, running the daily job
 * first when no build exists yet (answering 503, and `building` on /api/health, meanwhile). Logs are pino's; SIGTERM
 * drains it (src/server/operations.ts).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { config as loadProcessConfig, ConfigError, PROJECT_ROOT, requireProductionSettings, type Config } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { DailyJobError } from '../src/ingest/error';
import { operatorTools } from '../src/ingest/operator-tools';
import { formatSummary } from '../src/ingest/summary';
import { closeInterruptedRuns } from '../src/ingest/run-record';
import { createApp } from '../src/server/app';
import { serveApp } from '../src/server/node-server';
import { writeDeployRules } from '../src/server/deploy-rules';
import { createLogger, drainOnSignal, requestOperations } from '../src/server/operations';
import type { Readiness } from '../src/server/routes/context';
import { securityPolicy } from '../src/server/security';
import { apiOptions, createApi } from '../src/server/api';
import { closingPricesSourceFor, fundamentalsSourceFor } from '../src/server/providers';
import { TrackStore } from '../src/storage/track';
import { readUniverse } from '../src/storage/universe';
import { operatorPages } from '../src/server/routes/pages';
import { screenerViewers } from '../src/server/routes/screener-rows';
import { RunLog } from '../src/storage/run-log';
import { AlertStore } from '../src/storage/alerts';
import { createDigestSender } from '../src/server/mail';
import { digestNotes, sendDigests } from '../src/ingest/alerts';
import { SiteIndexLoader } from '../src/storage/site-index';
import { DatabaseCheckError } from '../src/storage/db';
import { pushStep } from './push-step';

let config: Config;
try {
  config = loadProcessConfig();
  requireProductionSettings(config);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
const distDir = config.distDir;
const logger = await createLogger(config.logging);
let readiness: Readiness = 'ready';

async function hasBuild(): Promise<boolean> {
  try {
    return (await stat(join(distDir, 'client', 'index.html'))).isFile();
  } catch {
    return false;
  }
}

// The accounts database first: the first build's run is written to the run log like every other. A database that
// fails its check stops the start with its one line.
const options = await apiOptions(config).catch((error: unknown) => {
  if (!(error instanceof DatabaseCheckError)) throw error;
  console.error(error.message);
  process.exit(1);
});
const runLog = new RunLog(options.accounts.database.db);
// A job killed mid-run never wrote its end: its row is closed now, unless a job holds the lock right now.
await closeInterruptedRuns(runLog, resolve(PROJECT_ROOT, config.archiveDir), { redisUrl: config.redisUrl, log: (line) => logger.info(line) });
// The CDN's and nginx's rules, written into every build from this server's own tables.
const deployRules = (staging: string, build: { scriptHashes: readonly string[] }) => writeDeployRules(staging, { ...build, apiOrigin: config.apiOrigin });
// Alerts: every publish of this process stores the report's events and sends the digests.
// Own rules fire with the events; push goes out after the digests (off, and said so, without VAPID keys in production).
const push = pushStep(config, options.accounts.database.db);
logger.info(push.note);
const alerts = { store: new AlertStore(options.accounts.database.db), send: createDigestSender({ ...config.mail, siteUrl: config.siteUrl }).send, siteUrl: config.siteUrl, push: push.step };
// The track record: every publish stores the report dates' closes and records the ledger in the same database.
const track = { store: new TrackStore(options.accounts.database.db), source: closingPricesSourceFor(config.polygon, await readUniverse(resolve(PROJECT_ROOT, config.universeFile))), ...config.trackRecord };
const firstBuild = !(await hasBuild());
if (firstBuild) readiness = 'building';

const provider = options.provider;
// A Stripe API elsewhere than Stripe's (the tests' fake) serves Checkout too: the upgrade form may redirect there.
const stripeApi = config.stripe?.apiUrl;
const security = stripeApi ? await securityPolicy([new URL(stripeApi).origin]) : undefined;
// Uploads and the token route run the same daily job, in this process, one at a time (src/server/publish-queue.ts).
const tools = operatorTools({ ...dailyConfig(config), deployRules, fundamentals: fundamentalsSourceFor(config.polygon), log: (line: string) => logger.info(line), alerts, track }, runLog);
// One index of the published build for the API and the server-rendered list filters.
const site = new SiteIndexLoader(distDir);
const app = createApp({
  distDir,
  site,
  api: createApi({ ...options, operatorTools: tools, site, readiness: () => readiness }),
  operatorPages: operatorPages(options.accounts.session, distDir),
  screenerViewers: screenerViewers(options.accounts),
  security,
  operations: requestOperations(logger, { readiness: () => readiness }),
});
const server = serveApp({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info({ port: info.port, distDir, provider: provider.name, redis: options.redis !== null }, `${config.siteName} is serving ${distDir} on http://${shown}:${info.port} (market data: ${provider.name})`);
});
drainOnSignal(server, {
  logger,
  timeoutMs: config.shutdownTimeoutMs,
  onDraining: () => (readiness = 'draining'),
  close: async () => {
    await options.accounts.close();
    options.redis?.disconnect();
  },
});

// Digests a stopped run left in the queue are sent now (each at most once).
void sendDigests(alerts, (line) => logger.info(line))
  .then((run) => {
    if (run.sent + run.failed.length + run.unconfirmed.length > 0) logger.info(`Alert digests left by an earlier run: ${digestNotes(run).join('; ')}`);
  })
  .catch((error: Error) => logger.error(`The alert digests could not be sent: ${error.message}`));

if (firstBuild) {
  logger.info(`No build in ${distDir}: running the daily job on ${config.source} first; /api/health answers "building" meanwhile.`);
  const daily = {
    ...dailyConfig(config),
    deployRules,
    fundamentals: fundamentalsSourceFor(config.polygon),
    log: (line: string) => logger.info(line),
    runLog: { log: runLog, trigger: 'start' as const },
    alerts,
    track,
  };
  try {
    console.log(formatSummary(await runDaily(daily), daily));
    readiness = 'ready';
  } catch (error) {
    logger.error(error instanceof DailyJobError ? error.message : `The daily job failed: ${(error as Error).stack}`);
    logger.error('Nothing to serve: fix the exports (or SIGNALS_SOURCE) and run "npm start" again.');
    logger.flush();
    process.exit(1);
  }
}
