import { Hono } from 'hono';
import type { ApiContext } from './context';

/** /health: build time, report date, tickers, the report's source (sample or exports), and the provider with its last call's success (null before any). */
export function healthRoutes(context: ApiContext): Hono {
  return new Hono().get('/health', async (c) => {
    const site = await context.site.current().catch(() => null);
    const body = {
      status: site === null ? 'no-build' : 'ok',
      builtAt: site?.builtAt ?? null,
      reportDate: site?.reportDate ?? null,
      tickers: site?.records.size ?? 0,
      // `sample`: the report is the generated sample exports, and every page says so.
      source: site?.source ?? null,
      provider: context.provider.status(),
    };
    return c.json(body, site === null ? 503 : 200, { 'Cache-Control': 'no-store' });
  });
}
