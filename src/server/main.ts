/**
 * `npm start`: one Node process that serves the static build and the live API on PORT and HOST,
 * running the daily job first when no build exists yet.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { configFromEnv, DailyJobError, formatSummary, PROJECT_ROOT, runDaily } from '../ingest/daily';
import { createApp } from './app';
import { apiOptionsFromEnv, createApi } from './api';

const config = { ...configFromEnv(), log: (line: string) => console.log(line) };
const distDir = resolve(PROJECT_ROOT, config.distDir);
const port = Number(process.env.PORT || 4321);
const host = process.env.HOST || 'localhost';

async function hasBuild(): Promise<boolean> {
  try {
    return (await stat(join(distDir, 'client', 'index.html'))).isFile();
  } catch {
    return false;
  }
}

if (!(await hasBuild())) {
  console.log(`No build in ${distDir}: running the daily job on ${config.source} first.`);
  try {
    console.log(formatSummary(await runDaily(config), config));
  } catch (error) {
    console.error(error instanceof DailyJobError ? error.message : `The daily job failed: ${(error as Error).stack}`);
    console.error('Nothing to serve: fix the exports (or SIGNALS_SOURCE) and run "npm start" again.');
    process.exit(1);
  }
}

const apiOptions = await apiOptionsFromEnv();
const provider = apiOptions.provider;
const app = createApp({ distDir, api: createApi(apiOptions) });
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  console.log(`C-Score Signals is serving ${distDir} on http://${shown}:${info.port} (market data: ${provider.name})`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
