/**
 * `npm run dev`: astro dev for page work, with the live API (the Hono router) on DEV_API_PORT, proxied under /api
 * by astro.config.mjs. Pages read the published build's data (dist/data/site.json): run "npm run daily" first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { configFromEnv, PROJECT_ROOT } from '../src/ingest/daily';
import { apiOptionsFromEnv, createApi } from '../src/server/api';
import { Hono } from 'hono';

const distDir = resolve(PROJECT_ROOT, configFromEnv().distDir);
if (!existsSync(join(distDir, 'data', 'site.json'))) {
  console.error(`No signal data in ${distDir}: run "npm run daily" once, then "npm run dev".`);
  process.exit(1);
}
const apiPort = Number(process.env.DEV_API_PORT || 4322);
const app = new Hono().route('/api', createApi(await apiOptionsFromEnv()));
const server = serve({ fetch: app.fetch, port: apiPort, hostname: '127.0.0.1' });
const astro = spawn(process.execPath, [join(PROJECT_ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DEV_API_PORT: String(apiPort), SITE_DATA_FILE: join(distDir, 'data', 'site.json') },
});
astro.on('exit', (code) => {
  server.close();
  process.exit(code ?? 0);
});
