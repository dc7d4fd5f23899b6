import { Hono } from 'hono';
import type { ApiContext } from './context';

/** /health: readiness (ok, building, draining or no-build), build time, report date, tickers, the report's source (sample or exports), and the provider with its last call's success (null before any). */
export function healthRoutes(context: ApiContext): Hono {
  return new Hono().get('/health', async (c) => {
    const site = await context.site.current().catch(() => null);
    const readiness = context.readiness();
    const ready = site !== null && readiness === 'ready';
    const body = {
      // A load balancer takes a process out while it is `building` its first site or `draining` after SIGTERM.
      status: readiness !== 'ready' ? readiness : site === null ? 'no-build' : 'ok',
      builtAt: site?.builtAt ?? null,
      reportDate: site?.reportDate ?? null,
      tickers: site?.records.size ?? 0,
      // `sample`: the report is the generated sample exports, and every page says so.
      source: site?.source ?? null,
      provider: context.provider.status(),
    };
    return c.json(body, ready ? 200 : 503, { 'Cache-Control': 'no-store' });
  });
}
