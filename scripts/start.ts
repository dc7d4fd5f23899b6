/**
 * `npm start`: one Node process that serves the static build and the live API on PORT and HOST,
 * running the daily job first when no build exists yet.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { config as loadProcessConfig, ConfigError, requireProductionSettings, type Config } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { DailyJobError } from '../src/ingest/error';
import { operatorTools } from '../src/ingest/operator-tools';
import { formatSummary } from '../src/ingest/summary';
import { createApp } from '../src/server/app';
import { securityPolicy } from '../src/server/security';
import { apiOptions, createApi } from '../src/server/api';
import { fundamentalsSourceFor } from '../src/server/providers';
import { operatorPages } from '../src/server/routes/pages';
import { RunLog } from '../src/storage/run-log';
import { AlertStore } from '../src/storage/alerts';
import { createDigestSender } from '../src/server/mail';
import { digestNotes, sendDigests } from '../src/ingest/alerts';
import { SiteIndexLoader } from '../src/storage/site-index';

let config: Config;
try {
  config = loadProcessConfig();
  requireProductionSettings(config);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
const distDir = config.distDir;

async function hasBuild(): Promise<boolean> {
  try {
    return (await stat(join(distDir, 'client', 'index.html'))).isFile();
  } catch {
    return false;
  }
}

// The accounts database first: the first build's run is written to the run log like every other.
const options = await apiOptions(config);
const runLog = new RunLog(options.accounts.database.db);
// Alerts (issue 14): every publish of this process stores the report's events and sends the digests.
const alerts = { store: new AlertStore(options.accounts.database.db), send: createDigestSender({ ...config.mail, siteUrl: config.siteUrl }).send, siteUrl: config.siteUrl };

if (!(await hasBuild())) {
  console.log(`No build in ${distDir}: running the daily job on ${config.source} first.`);
  const daily = {
    ...dailyConfig(config),
    fundamentals: fundamentalsSourceFor(config.polygon),
    log: (line: string) => console.log(line),
    runLog: { log: runLog, trigger: 'start' as const },
    alerts,
  };
  try {
    console.log(formatSummary(await runDaily(daily), daily));
  } catch (error) {
    console.error(error instanceof DailyJobError ? error.message : `The daily job failed: ${(error as Error).stack}`);
    console.error('Nothing to serve: fix the exports (or SIGNALS_SOURCE) and run "npm start" again.');
    process.exit(1);
  }
}

const provider = options.provider;
// A Stripe API elsewhere than Stripe's (the tests' fake) serves Checkout too: the upgrade form may redirect there.
const stripeApi = config.stripe?.apiUrl;
const security = stripeApi ? await securityPolicy([new URL(stripeApi).origin]) : undefined;
// Uploads and the token route run the same daily job, in this process, one at a time (src/server/publish-queue.ts).
const tools = operatorTools({ ...dailyConfig(config), fundamentals: fundamentalsSourceFor(config.polygon), log: (line: string) => console.log(line), alerts }, runLog);
// One index of the published build for the API and the server-rendered list filters.
const site = new SiteIndexLoader(distDir);
const app = createApp({
  distDir,
  site,
  api: createApi({ ...options, operatorTools: tools, site }),
  operatorPages: operatorPages(options.accounts.session, distDir),
  security,
});
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`${config.siteName} is serving ${distDir} on http://${shown}:${info.port} (market data: ${provider.name})`);
});

// Digests a stopped run left in the queue are sent now (each at most once).
void sendDigests(alerts, (line) => console.log(line))
  .then((run) => {
    if (run.sent + run.failed.length + run.unconfirmed.length > 0) console.log(`Alert digests left by an earlier run: ${digestNotes(run).join('; ')}`);
  })
  .catch((error: Error) => console.error(`The alert digests could not be sent: ${error.message}`));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
