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

/** How the section measures, once for the table's header. */
export const API_NOTE =
  `autocannon 9 through its programmatic API, in the bench's own process, against \`npm start\` on 127.0.0.1: the load generator shares the machine's 2 cores with the server. ${CONNECTIONS} connections, no pipelining, \`Accept-Encoding: gzip\`; one request first (fills the server's caches), a 2 s warm-up run that is thrown away, then 10 s of load (3 s with --quick). requests/s is the mean of autocannon's per-second samples; p50 and p99 are its latency percentiles; errors are socket errors + timeouts + non-2xx answers. A route that does not answer 200 is recorded as not available and counts as a miss.`;

/** Loads each route for a fixed time after a warm-up and reports requests/s, p50, p99 and errors. */
export async function apiSection(ctx: BenchContext, origin: string, routes: ApiRoute[]): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('api', input));
  const seconds = ctx.quick ? 3 : 10;
  const headers = { 'accept-encoding': 'gzip' };
  const method = `${CONNECTIONS} connections, ${seconds} s`;
  for (const route of routes) {
    const url = origin + route.path;
    // The first answer fills the server's caches; a route that is not there yet is a miss, not a crash.
    const status = (await fetch(url, { headers })).status;
    if (status !== 200) {
      ctx.log(`  ${route.path}: ${status}, not measured`);
      const missing = { missing: `not available (${status})`, value: null, method };
      add({ name: `${route.label}: requests/s`, unit: 'req/s', budget: route.rps, ...missing });
      if (route.p99 !== null) add({ name: `${route.label}: p99 latency`, unit: 'ms', budget: route.p99, ...missing });
      continue;
    }
    await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
    const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
    const errors = result.errors + result.timeouts + result.non2xx;
    ctx.log(`  ${route.path}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${errors} errors`);
    add({ name: `${route.label}: requests/s`, value: Math.round(result.requests.average), unit: 'req/s', budget: route.rps, method });
    add({ name: `${route.label}: p50 latency`, value: round(result.latency.p50, 2), unit: 'ms', method });
    add({ name: `${route.label}: p99 latency`, value: round(result.latency.p99, 2), unit: 'ms', budget: route.p99, method });
    add({
      name: `${route.label}: errors`,
      value: errors,
      unit: 'requests',
      budget: { op: '=', limit: 0 },
      method: `${method}, of ${result.requests.total} requests`,
    });
  }
  return figures;
}
