/** Section 4, API throughput: autocannon against the running server on loopback, one route at a time. */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/storage/db';
import { type BenchContext, type Figure, type FigureInput, figure, round } from './figures';
import type { Reference, RelativeBudget } from './reference';

/** One route under load and its budgets, stated against the run's bare node:http reference. */
export interface ApiRoute {
  label: string;
  path: string;
  rps: RelativeBudget | null;
  p99: RelativeBudget | null;
  /** Request headers beside Accept-Encoding (the session cookie, an API key). */
  headers?: Record<string, string>;
  /** A budget of its own in requests/s on this machine (the figure), instead of a share of the reference. */
  rpsAtLeast?: number;
  /** How the route was prepared, added to the method column. */
  note?: string;
}

export const CONNECTIONS = 50;

/** A share of the reference's req/s a route must reach. */
export function atLeastShare(ratio: number): RelativeBudget {
  return { of: 'throughput', op: '>=', ratio };
}

/** A multiple of the reference's time per request a route's p99 must stay within. */
export function withinTimes(ratio: number, op: '<=' | '<' = '<='): RelativeBudget {
  return { of: 'time', op, ratio };
}

/** The load budgets of the API and AI sections, against the run's reference (docs/benchmark.md says how they were chosen). */
export const LOAD_BUDGETS = {
  quote: { rps: atLeastShare(0.2), p99: withinTimes(10) },
  staticJson: { rps: atLeastShare(0.12) },
  session: { rps: atLeastShare(0.035), p99: withinTimes(45) },
  storedAnalysis: { p99: withinTimes(35, '<') },
} as const;

/** The routes of the budgets: a cached live route and a pre-rendered static JSON route. */
export function apiRoutes(ticker: string): ApiRoute[] {
  return [
    { label: `cached live /api/stock-price/${ticker}`, path: `/api/stock-price/${ticker}`, ...LOAD_BUDGETS.quote },
    { label: `static JSON /api/stock/${ticker}`, path: `/api/stock/${ticker}`, ...LOAD_BUDGETS.staticJson, p99: null },
  ];
}

const BENCH_PASSWORD = 'bench password 1234';

async function signIn(origin: string, email: string, path: 'sign-up' | 'sign-in'): Promise<string> {
  const response = await fetch(`${origin}/api/auth/${path}/email`, {
    method: 'POST',
    // The server trusts the origin it listens on outside production: a browser on it sends that.
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(path === 'sign-up' ? { email, password: BENCH_PASSWORD, name: '' } : { email, password: BENCH_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`${path} for the bench answered ${response.status}: ${await response.text()}`);
  return response.headers.getSetCookie().map((line) => line.split(';')[0]!).join('; ');
}

/**
 * The account rows: `/api/auth/user` with a valid session, beside the same route signed out (a plain Hono
 * route: no cookie, so no signature check and no query) in the same run. Signs a bench user up and in first.
 */
export async function accountRoutes(origin: string): Promise<ApiRoute[]> {
  const email = `bench-${Date.now()}@example.com`;
  // Sign-up never signs in: the session comes from signing in.
  await signIn(origin, email, 'sign-up');
  const cookie = await signIn(origin, email, 'sign-in');
  return [
    { label: 'plain Hono route /api/auth/user signed out', path: '/api/auth/user', rps: null, p99: null },
    { label: '/api/auth/user with a valid session (SQLite)', path: '/api/auth/user', ...LOAD_BUDGETS.session, headers: { cookie } },
  ];
}

/** A keyed live request must reach this many requests/s on 2 cores. */
export const KEYED_RPS_BUDGET = 5_000;

/** The keyed request's day count starts this far below zero, so the whole load stays within the key's allowance. */
const KEYED_COUNT_START = -1_000_000;

/**
 * The keyed row: the cached quote with `Authorization: Bearer KEY`, a key made on the bench user's account. Each
 * request hashes the key, finds it in the process's cache of keys (read from the accounts database, SQLite) and counts
 * it (in the process, written to the database once a second). 10 s at several thousand requests a second is past any day's allowance, so the key's
 * count of today is set far below zero first (the server reads it back at its next write, within the warm-up): every
 * request still does the whole check and count, and none of the measured ones is refused.
 */
export async function keyedRoutes(origin: string, databaseFile: string, ticker: string): Promise<ApiRoute[]> {
  const email = `bench-key-${Date.now()}@example.com`;
  await signIn(origin, email, 'sign-up');
  const cookie = await signIn(origin, email, 'sign-in');
  const made = await fetch(`${origin}/api/account/keys`, { method: 'POST', headers: { cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'bench' }) });
  if (made.status !== 201) throw new Error(`making an API key for the bench answered ${made.status}: ${await made.text()}`);
  const { key, entry } = (await made.json()) as { key: string; entry: { id: string } };
  const path = `/api/stock-price/${ticker}`;
  const headers = { authorization: `Bearer ${key}` };
  const first = await fetch(origin + path, { headers });
  await first.arrayBuffer();
  const database = openDatabase({ url: null, file: databaseFile });
  try {
    await database.db.updateTable('api_key_usage').set({ count: KEYED_COUNT_START }).where('key_id', '=', entry.id).execute();
  } finally {
    await database.close();
  }
  return [
    {
      label: `keyed live ${path} (API key, SQLite)`,
      path,
      rps: null,
      p99: null,
      headers,
      rpsAtLeast: KEYED_RPS_BUDGET,
      note: `the key's count of today set to ${KEYED_COUNT_START.toLocaleString('en-US')} first, so no request is refused`,
    },
  ];
}

/** Sign-in end to end: POST sign-in/email, then /api/auth/user with the new cookie says signed in. Median of 5. */
export async function signInSection(ctx: BenchContext, origin: string): Promise<Figure[]> {
  const email = `bench-sign-in-${Date.now()}@example.com`;
  await signIn(origin, email, 'sign-up');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const cookie = await signIn(origin, email, 'sign-in');
    const me = (await (await fetch(`${origin}/api/auth/user`, { headers: { cookie } })).json()) as { isAuthenticated: boolean };
    if (!me.isAuthenticated) throw new Error('sign-in for the bench did not sign in');
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[2]!;
  ctx.log(`  sign-in end to end: median ${round(median, 1)} ms (${times.map((t) => round(t, 1)).join(', ')})`);
  return [
    figure('api', {
      name: 'sign-in end to end (POST /api/auth/sign-in/email, then /api/auth/user signed in)',
      value: round(median, 1),
      unit: 'ms',
      budget: { op: '<', limit: 300 },
      method: 'median of 5 sequential sign-ins by email and password (scrypt hash check, session row, signed cookie) on 127.0.0.1, SQLite',
    }),
  ];
}

const WRK = '/usr/bin/wrk';
const WARM_UP_SECONDS = 2;
const HEADERS = { 'accept-encoding': 'gzip' };

/** What one load run measured, whichever tool ran it. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Requests completed, when the tool reports it. */
  total: number | null;
}

/** A load generator: wrk when the machine has it (it costs the shared cores less), else autocannon. */
export interface LoadTool {
  name: string;
  run: (url: string, seconds: number, headers?: Record<string, string>) => Promise<LoadResult>;
}

const runFile = promisify(execFile);

function toMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;
}

const wrk: LoadTool = {
  name: 'wrk (1 thread)',
  async run(url, seconds, headers = {}) {
    const extra = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: gzip', ...extra, url];
    const { stdout } = await runFile(WRK, args, { timeout: (seconds + 30) * 1000 });
    const percentile = (p: string) => {
      const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(stdout);
      if (!match) throw new Error(`wrk printed no ${p}% latency:\n${stdout}`);
      return toMs(match[1]!, match[2]!);
    };
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
    return {
      requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN),
      p50Ms: percentile('50'),
      p99Ms: percentile('99'),
      errors: non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
      total: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    };
  },
};

const cannon: LoadTool = {
  name: 'autocannon 9 (in the bench process)',
  async run(url, seconds, headers = {}) {
    const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { ...HEADERS, ...headers } });
    return {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      total: null,
    };
  },
};

/** The load generator this machine has: wrk, else autocannon. */
export function loadTool(): LoadTool {
  return existsSync(WRK) ? wrk : cannon;
}

/** Requests/s and latency of one address: a thrown-away warm-up, then `seconds` of load. */
export async function measure(tool: LoadTool, url: string, seconds: number): Promise<LoadResult> {
  await tool.run(url, WARM_UP_SECONDS);
  return tool.run(url, seconds);
}

/** How the section measures, once for the table's header. */
export const API_NOTE =
  `wrk 4 (one thread) when /usr/bin/wrk exists (\`apt-get install -y wrk\`), else autocannon 9 through its programmatic API in the bench's own process; the method column names the tool. ` +
  `Against \`npm start\` on 127.0.0.1: the load generator shares the machine's 2 cores with the server. ${CONNECTIONS} connections, no pipelining, \`Accept-Encoding: gzip\`; ` +
  `one request first (it fills the server's caches), a ${WARM_UP_SECONDS} s warm-up run that is thrown away, then 10 s of load (3 s with --quick). ` +
  'requests/s is completed requests per second; p50 and p99 are latency percentiles; errors are socket errors + timeouts + non-2xx answers. ' +
  'A route that does not answer 200 is recorded as not available and counts as a miss.';

// A bare node:http server answering a fixed JSON body: what this machine can serve at all, the yardstick of the load budgets.
const BARE_SERVER = `
const body = process.argv[1];
require('node:http')
  .createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) }); res.end(body); })
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

/** A quote-like JSON answer for the reference server: the body's size barely moves a bare server's req/s. */
const REFERENCE_BODY = JSON.stringify({ ticker: 'AAPL', price: 189.84, change: 1.27, changePercent: 0.67, currency: 'USD', asOf: '2026-01-02T15:30:00.000Z', source: 'bench' });

/** Loads a bare node:http server with the sections' tool and settings: the run's reference. */
export async function measureReference(ctx: BenchContext): Promise<Reference> {
  const tool = loadTool();
  const seconds = ctx.quick ? 3 : 10;
  const child = spawn(process.execPath, ['-e', BARE_SERVER, REFERENCE_BODY], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
      child.once('exit', (code) => reject(new Error(`the bare node:http server exited (${code})`)));
    });
    const result = await measure(tool, `http://127.0.0.1:${port}/`, seconds);
    if (!(result.requestsPerSecond > 0)) throw new Error(`the bare node:http server answered ${result.requestsPerSecond} req/s`);
    return { requestsPerSecond: result.requestsPerSecond, p99Ms: result.p99Ms, tool: tool.name, connections: CONNECTIONS, seconds, warmUpSeconds: WARM_UP_SECONDS, bodyBytes: Buffer.byteLength(REFERENCE_BODY) };
  } finally {
    child.kill();
  }
}

/** Loads each route for a fixed time after a warm-up and reports requests/s, p50, p99 and errors. */
export async function apiSection(ctx: BenchContext, origin: string, routes: ApiRoute[], reference: Reference | null): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('api', input));
  const seconds = ctx.quick ? 3 : 10;
  const tool = loadTool();
  const method = `${tool.name}, ${CONNECTIONS} connections, ${seconds} s`;
  const against = (budget: RelativeBudget | null) => (budget === null ? {} : { relative: { budget, reference } });
  for (const route of routes) {
    const url = origin + route.path;
    // The first answer fills the server's caches; a route that is not there yet is a miss, not a crash.
    const first = await fetch(url, { headers: route.headers });
    const status = first.status;
    await first.arrayBuffer();
    if (status !== 200) {
      ctx.log(`  ${route.path}: ${status}, not measured`);
      const missing = { missing: `not available (${status})`, value: null, method };
      add({ name: `${route.label}: requests/s`, unit: 'req/s', ...against(route.rps), ...missing });
      if (route.p99 !== null) add({ name: `${route.label}: p99 latency`, unit: 'ms', ...against(route.p99), ...missing });
      continue;
    }
    await tool.run(url, WARM_UP_SECONDS, route.headers);
    const result = await tool.run(url, seconds, route.headers);
    const share = reference === null ? '' : ` (${round(result.requestsPerSecond / reference.requestsPerSecond, 3)} x ref)`;
    ctx.log(`  ${route.path}: ${Math.round(result.requestsPerSecond)} req/s${share}, p99 ${round(result.p99Ms, 2)} ms, ${result.errors} errors (${tool.name})`);
    const own = route.rpsAtLeast === undefined ? {} : { budget: { op: '>=' as const, limit: route.rpsAtLeast } };
    add({ name: `${route.label}: requests/s`, value: Math.round(result.requestsPerSecond), unit: 'req/s', ...against(route.rps), ...own, method: route.note === undefined ? method : `${method}; ${route.note}` });
    add({ name: `${route.label}: p50 latency`, value: round(result.p50Ms, 2), unit: 'ms', method });
    add({ name: `${route.label}: p99 latency`, value: round(result.p99Ms, 2), unit: 'ms', ...against(route.p99), method });
    add({ name: `${route.label}: errors`, value: result.errors, unit: 'requests', budget: { op: '=', limit: 0 }, method: result.total === null ? method : `${method}, of ${result.total} requests` });
  }
  return figures;
}
