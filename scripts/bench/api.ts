/** Section 4, API throughput: autocannon against the running server on loopback, one route at a time. */
import autocannon from 'autocannon';
import { type BenchContext, type Budget, type Figure, type FigureInput, figure, round } from './figures';

/** One route under load and its budgets. */
interface ApiRoute {
  label: string;
  path: string;
  rps: Budget;
  p99: Budget | null;
}

const CONNECTIONS = 50;

/** The routes of the budgets: a cached live route and a pre-rendered static JSON route. */
export function apiRoutes(ticker: string): ApiRoute[] {
  return [
    { label: `cached live /api/stock-price/${ticker}`, path: `/api/stock-price/${ticker}`, rps: { op: '>=', limit: 20_000 }, p99: { op: '<=', limit: 5 } },
    { label: `static JSON /api/stock/${ticker}`, path: `/api/stock/${ticker}`, rps: { op: '>=', limit: 10_000 }, p99: null },
  ];
}

/** Loads each route for a fixed time after a warm-up and reports requests/s, p50, p99 and errors. */
export async function apiSection(ctx: BenchContext, origin: string, routes: ApiRoute[]): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('api', input));
  const seconds = ctx.quick ? 3 : 10;
  const headers = { 'accept-encoding': 'gzip' };
  const method = `autocannon 9 (programmatic, in the bench process) on the same 2 cores as the server: ${CONNECTIONS} connections, no pipelining, ${seconds} s after a 2 s warm-up, Accept-Encoding: gzip, loopback`;
  for (const route of routes) {
    const url = origin + route.path;
    // The first answer fills the server's caches; a route that is not there yet is a miss, not a crash.
    const status = (await fetch(url, { headers })).status;
    if (status !== 200) {
      ctx.log(`  ${route.path}: ${status}, not measured`);
      const missing = { missing: `not available (${status})`, value: null, method };
      add({ name: `${route.label}: requests/s`, unit: 'req/s', budget: route.rps, ...missing });
      add({ name: `${route.label}: p50 latency`, unit: 'ms', ...missing });
      add({ name: `${route.label}: p99 latency`, unit: 'ms', budget: route.p99, ...missing });
      add({ name: `${route.label}: errors`, unit: 'requests', ...missing });
      continue;
    }
    await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
    const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
    const errors = result.errors + result.timeouts + result.non2xx;
    ctx.log(`  ${route.path}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${errors} errors`);
    add({ name: `${route.label}: requests/s`, value: Math.round(result.requests.average), unit: 'req/s', budget: route.rps, method: `${method}; mean of the per-second samples` });
    add({ name: `${route.label}: p50 latency`, value: round(result.latency.p50, 2), unit: 'ms', method });
    add({ name: `${route.label}: p99 latency`, value: round(result.latency.p99, 2), unit: 'ms', budget: route.p99, method });
    add({
      name: `${route.label}: errors`,
      value: errors,
      unit: 'requests',
      budget: { op: '=', limit: 0 },
      method: `${method}; socket errors + timeouts + non-2xx answers of ${result.requests.total} requests`,
    });
  }
  return figures;
}
