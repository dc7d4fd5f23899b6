import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { BuildInfo } from '../ingest/daily';

/** What the live API needs to know. */
export interface ApiOptions {
  distDir: string;
}

/** The live API router, mounted at /api (DESIGN.md "API routes": the live half). */
export function createApi(options: ApiOptions): Hono {
  const api = new Hono();

  api.get('/health', async (c) => {
    let build: BuildInfo | null = null;
    try {
      build = JSON.parse(await readFile(join(options.distDir, 'build.json'), 'utf8')) as BuildInfo;
    } catch {
      build = null;
    }
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        status: build ? 'ok' : 'no-build',
        builtAt: build?.builtAt ?? null,
        reportDate: build?.reportDate ?? null,
        tickers: build?.tickers ?? 0,
        provider: { name: process.env.POLYGON_API_KEY ? 'polygon' : 'demo' },
      },
      build ? 200 : 503,
    );
  });

  return api;
}
