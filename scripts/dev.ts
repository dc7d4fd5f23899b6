/**
 * `npm run dev`: astro dev for page work, with the live API (the Hono router) on DEV_API_PORT, proxied under /api
 * by astro.config.mjs for every prefix of the live-route table (src/lib/domain/site/live-routes.ts). Pages read the
 * published build's data (dist/data/site.json): run "npm run daily" first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { config as loadProcessConfig, PROJECT_ROOT } from '../src/config';
import { dailyConfig } from '../src/ingest/daily';
import { operatorTools } from '../src/ingest/operator-tools';
import { apiOptions, createApi } from '../src/server/api';
import { RunLog } from '../src/storage/run-log';

const config = loadProcessConfig();
const apiPort = config.devApiPort ?? 4322;
const siteDataFile = join(config.distDir, 'data', 'site.json');
if (!existsSync(siteDataFile)) {
  console.error(`No signal data in ${config.distDir}: run "npm run daily" once, then "npm run dev".`);
  process.exit(1);
}
const options = await apiOptions(config);
// /upload works in development too: a publish rebuilds DIST_DIR, which the dev pages read.
const tools = operatorTools({ ...dailyConfig(config), log: (line: string) => console.log(line) }, new RunLog(options.accounts.database.db));
const app = new Hono().route('/api', createApi({ ...options, operatorTools: tools }));
const server = serve({ fetch: app.fetch, port: apiPort, hostname: '127.0.0.1' });
const astro = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DEV_API_PORT: String(apiPort), SITE_DATA_FILE: siteDataFile },
});
astro.on('exit', (code) => {
  server.close();
  process.exit(code ?? 0);
});
