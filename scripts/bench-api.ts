/**
 * API throughput on loopback (`npx tsx scripts/bench-api.ts [--duration 10] [--connections 50] [--dist DIR]`):
 * starts `npm start`'s server with the demo provider in a child process on a free port, then loads a cached
 * /api/stock-price/{T} and a static JSON route with autocannon and prints requests/s, p50, p99 and errors, beside
 * a bare node:http baseline measured the same way (on a busy machine the ratio says more than the raw figure).
 * Importable: `npm run bench` calls benchApi().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { PROJECT_ROOT, runDaily } from '../src/ingest/daily';

/** What benchApi runs against and for how long. */
export interface BenchApiOptions {
  /** A published build to serve; default: the sample exports built once into .tmp/bench-api. */
  distDir?: string;
  /** Seconds per route; default 10. */
  durationSec?: number;
  /** Concurrent connections; default 50. */
  connections?: number;
  /** The ticker of the quote route; default AAPL. */
  ticker?: string;
  /** Also load a bare node:http server answering a constant body, to read the figures against; default true. */
  baseline?: boolean;
  log?: (line: string) => void;
}

/** One route's figures. */
export interface BenchApiResult {
  route: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const TSX = join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs');

async function sampleBuild(log: (line: string) => void): Promise<string> {
  const distDir = join(PROJECT_ROOT, '.tmp/bench-api/dist');
  if (!existsSync(join(distDir, 'build.json'))) {
    log('Building the sample site for the API benchmark...');
    await runDaily({
      source: 'data/sample-exports/',
      archiveDir: '.tmp/bench-api/archive',
      distDir: '.tmp/bench-api/dist',
      universeFile: 'data/universe/sp500-constituents.csv',
      companyInfoFile: '.tmp/bench-api/companies.json',
    });
  }
  return distDir;
}

// The baseline: what this machine does right now with no framework and no work per request.
const BARE_SERVER = `
const body = JSON.stringify({ symbol: 'AAPL', regularMarketPrice: 51.37, fetchedAt: new Date().toISOString() });
const server = require('node:http').createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(body); });
server.listen(0, '127.0.0.1', () => console.log('on http://127.0.0.1:' + server.address().port));
`;

/** Starts a server (the app with the demo provider, or the bare baseline) on a free loopback port; resolves with its origin. */
function startServer(distDir: string, bare = false): Promise<{ child: ChildProcess; origin: string }> {
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: distDir, POLYGON_API_KEY: '' };
  const args = bare ? ['-e', BARE_SERVER] : [TSX, join(PROJECT_ROOT, 'src/server/main.ts')];
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolvePromise({ child, origin: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`The server exited (code ${code}) before listening:\n${output}`)));
  });
}

/** Loads one address with autocannon after a warm-up (whose first request fills the quote cache). */
async function load(url: string, route: string, options: BenchApiOptions): Promise<BenchApiResult> {
  const warm = await fetch(url);
  if (!warm.ok) throw new Error(`${route} answered ${warm.status}; the benchmark needs a build with ${options.ticker ?? 'AAPL'} in it.`);
  await warm.arrayBuffer();
  // A short untimed run first, so the figures are of optimized code rather than of the JIT warming up.
  await autocannon({ url, connections: options.connections ?? 50, duration: 2 });
  options.log?.(`Loading ${route} for ${options.durationSec ?? 10} s...`);
  const result = await autocannon({ url, connections: options.connections ?? 50, duration: options.durationSec ?? 10 });
  return {
    route,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Runs the API benchmark and returns one row per route (the baseline row last, unless turned off). */
export async function benchApi(options: BenchApiOptions = {}): Promise<BenchApiResult[]> {
  const distDir = options.distDir ? resolve(options.distDir) : await sampleBuild(options.log ?? (() => undefined));
  const ticker = options.ticker ?? 'AAPL';
  const results: BenchApiResult[] = [];
  const app = await startServer(distDir);
  try {
    for (const route of [`/api/stock-price/${ticker}`, `/api/stock/${ticker}`]) results.push(await load(`${app.origin}${route}`, route, options));
  } finally {
    app.child.kill('SIGTERM');
  }
  if (options.baseline ?? true) {
    const bare = await startServer(distDir, true);
    try {
      results.push(await load(`${bare.origin}/`, 'baseline: bare node:http, constant body', options));
    } finally {
      bare.child.kill('SIGTERM');
    }
  }
  return results;
}

/** The results as a Markdown table. */
export function formatBenchApi(results: readonly BenchApiResult[]): string {
  return [
    '| route | requests/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.route} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const results = await benchApi({
    distDir: value('--dist'),
    durationSec: value('--duration') ? Number(value('--duration')) : undefined,
    connections: value('--connections') ? Number(value('--connections')) : undefined,
    log: (line) => console.log(line),
  });
  console.log(formatBenchApi(results));
}
