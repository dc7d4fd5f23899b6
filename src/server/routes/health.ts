import type { Hono } from 'hono';
import { jsonHeaders, sendJson, type ApiContext } from './context';

const NO_STORE = jsonHeaders('no-store');

/** Mounts /health: build time, report date, tickers, and the provider with its last call's success (null before any). */
export function healthRoutes(api: Hono, context: ApiContext): void {
  api.get('/health', async () => {
    const site = await context.site.current().catch(() => null);
    const body = {
      status: site === null ? 'no-build' : 'ok',
      builtAt: site?.builtAt ?? null,
      reportDate: site?.reportDate ?? null,
      tickers: site?.records.size ?? 0,
      provider: context.provider.status(),
    };
    return sendJson(JSON.stringify(body), NO_STORE, site === null ? 503 : 200);
  });
}
