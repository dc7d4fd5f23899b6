/**
 * A 60-ticker site built by `npm run daily`, Debian's redis-server,
 * two `npm start` processes sharing it and nginx with the shipped recipe in front, all on loopback, with the fake
 * market-data server behind them. The route contract runs against nginx and against `npm start`; 300 quotes spend one
 * budget; two daily jobs started together publish once; a SIGTERM during load loses no request.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';
import { freePort, startNginx, startProcess, startRedis, startScript, waitFor, type Started } from '../fixtures/deploy';
import { checkCase, routeContract, type ContractBuild } from './route-contract';

const KEY = 'deploy-fake-polygon-key';
const BUDGET = 5;

let work: string;
let fake: FakePolygon;
let redis: Started & { url: string };
let nginx: Started & { origin: string; accessLog: () => Promise<string> };
const apps: { process: Started; port: number; origin: string }[] = [];
let build: ContractBuild;
let scriptHashes: string[];
let tickers: string[];
// When the fake saw each call, to count them by minute.
const callTimes: number[] = [];

/** The settings every process of the test shares: the sample source, the site's folders, the fake and Redis. */
function siteEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    SIGNALS_SOURCE: join(work, 'source'),
    ARCHIVE_DIR: join(work, 'archive'),
    DIST_DIR: join(work, 'dist'),
    SHARE_IMAGE_CACHE: join(work, 'share-images'),
    FUNDAMENTALS_FILE: join(work, 'fundamentals.json'),
    DATABASE_URL: '',
    SITE_URL: 'http://127.0.0.1',
    LOG_FORMAT: 'json',
    ...extra,
  };
}

async function startApp(index: number): Promise<void> {
  const port = await freePort();
  const process = startScript('scripts/start.ts', {
    ...siteEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_FILE: join(work, `app-${index}.db`),
    POLYGON_API_KEY: KEY,
    POLYGON_BASE_URL: fake.origin,
    POLYGON_RATE_PER_MIN: String(BUDGET),
    REDIS_URL: redis.url,
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'debug',
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`npm start #${index}`, async () => (await fetch(`${origin}/api/health`)).status === 200, process);
  apps.push({ process, port, origin });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deploy-'));
  const generate = startProcess(process.execPath, [join(import.meta.dirname, '../../node_modules/tsx/dist/cli.mjs'), 'scripts/make-sample-exports.ts', '--days', '3', '--tickers', '60', '--out', join(work, 'source')]);
  expect(await generate.exited, generate.output()).toBe(0);
  const daily = startScript('scripts/daily.ts', siteEnv());
  expect(await daily.exited, daily.output()).toBe(0);

  const clientDir = join(work, 'dist', 'client');
  const info = JSON.parse(await readFile(join(work, 'dist', 'build.json'), 'utf8')) as { scriptHashes?: string[] };
  scriptHashes = info.scriptHashes ?? [];
  const signals = JSON.parse(await readFile(join(clientDir, 'api', 'all-signals.json'), 'utf8')) as { ticker: string }[] | { data: { ticker: string }[] };
  tickers = (Array.isArray(signals) ? signals : signals.data).map((row) => row.ticker);
  const asset = (await readdir(join(clientDir, '_astro'))).find((name) => name.endsWith('.js'))!;
  build = { clientDir, ticker: tickers.find((t) => /^[A-Z]+$/.test(t))!, asset };

  fake = await startFakePolygon({ key: KEY });
  const push = fake.calls.push.bind(fake.calls);
  fake.calls.push = (...items: string[]) => {
    for (const _ of items) callTimes.push(Date.now());
    return push(...items);
  };
  redis = await startRedis(join(work, 'redis'));
  await startApp(0);
  await startApp(1);
  nginx = await startNginx(join(work, 'nginx'), work, apps.map((app) => app.port));
}, 600_000);

afterAll(async () => {
  await nginx?.stop();
  for (const app of apps) await app.process.stop();
  await redis?.stop();
  await fake?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the route contract', () => {
  it('holds for the build as it was written: 60 tickers, the rule files beside it', async () => {
    expect(tickers).toHaveLength(60);
    expect(scriptHashes.length).toBeGreaterThan(0);
    expect((await readdir(join(work, 'dist', 'nginx'))).sort()).toEqual(['http.conf', 'server.conf']);
    for (const file of ['_headers', '_redirects', '_routes.json', '_worker.js', 'signal/404.html']) {
      await expect(readFile(join(build.clientDir, file), 'utf8'), file).resolves.toBeTruthy();
    }
  });

  it('passes against nginx with the shipped recipe in front of two processes', async () => {
    for (const item of routeContract(build)) await checkCase(nginx.origin, item, build, scriptHashes);
  });

  it('passes against npm start', async () => {
    for (const item of routeContract(build)) await checkCase(apps[0]!.origin, item, build, scriptHashes);
  });

  it('carries the request id nginx gives into the answer and the JSON log line of the process that answered', async () => {
    const answer = await fetch(`${nginx.origin}/api/auth/user`);
    await answer.arrayBuffer();
    const id = answer.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = apps.flatMap((app) => app.process.output().split('\n')).filter((line) => line.includes(id!));
    expect(lines.length, 'one log line names the request').toBeGreaterThan(0);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ reqId: id, method: 'GET', path: '/api/auth/user', status: 200, msg: 'answered' });
    expect(typeof line.pid).toBe('number');
  });
});

/**
 * Cloudflare's own asset handling (workerd through Miniflare, offline) serving the build's client/ folder with its
 * `_headers` and `_redirects`, `_routes.json` as the Function's routes, and `_worker.js` as the Function.
 */
async function cdn(apiOrigin: string | null): Promise<Miniflare> {
  const routes = JSON.parse(await readFile(join(build.clientDir, '_routes.json'), 'utf8')) as { include: string[] };
  return new Miniflare({
    modules: true,
    script: await readFile(join(build.clientDir, '_worker.js'), 'utf8'),
    compatibilityDate: '2025-01-01',
    bindings: apiOrigin === null ? {} : { API_ORIGIN: apiOrigin },
    assets: {
      directory: build.clientDir,
      binding: 'ASSETS',
      routerConfig: { has_user_worker: true, static_routing: { user_worker: routes.include } },
      assetConfig: { html_handling: 'auto-trailing-slash', not_found_handling: '404-page' },
    },
  });
}

describe('the CDN rules written with the build', () => {
  it('pass the route contract on Cloudflare\'s asset handling, the live routes forwarded to API_ORIGIN by the Pages Function', async () => {
    const worker = await cdn(apps[0]!.origin);
    try {
      const origin = (await worker.ready).origin;
      for (const item of routeContract(build, 'cdn')) await checkCase(origin, item, build, scriptHashes);
    } finally {
      await worker.dispose();
    }
  });

  it('say what to set when the live API has no origin', async () => {
    const worker = await cdn(null);
    try {
      const answer = await worker.dispatchFetch('http://signals.example/api/health');
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({
        error: 'The live API is not configured: set API_ORIGIN in the Pages project (or before the daily job) to the address of the Node API.',
      });
    } finally {
      await worker.dispose();
    }
  });
});

describe('N API processes with REDIS_URL', () => {
  it('300 quotes for 60 tickers through nginx reach the market-data server no more often than one budget allows', async () => {
    const paths = Array.from({ length: 300 }, (_, i) => `/api/stock-price/${tickers[i % 60]}`);
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < paths.length; i += 20) {
      const batch = await Promise.all(paths.slice(i, i + 20).map(async (path) => {
        const answer = await fetch(nginx.origin + path);
        await answer.arrayBuffer();
        return answer.status;
      }));
      statuses.push(...batch);
    }
    // Every answer is the quote, the provider's 503 with Retry-After, or the client's 429: never a proxy error.
    expect(statuses.every((status) => [200, 429, 503].includes(status)), statuses.join(',')).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    // In any minute, the fake saw at most one budget of calls, though two processes answered.
    const window = callTimes.filter((time) => time >= started - 60_000);
    for (const time of window) expect(window.filter((other) => other >= time && other < time + 60_000).length).toBeLessThanOrEqual(BUDGET);
    expect(callTimes.length).toBeGreaterThan(0);
    const log = (await nginx.accessLog()).split('\n').filter((line) => line.includes(' /api/stock-price/'));
    const served = apps.map((app) => log.filter((line) => line.startsWith(`127.0.0.1:${app.port} `)).length);
    expect(served.every((count) => count >= 100), `both processes answered quotes: ${served.join(', ')}`).toBe(true);
  });

  it('two daily jobs started together, as on two hosts, publish once', async () => {
    const host = (name: string) => ({
      ...siteEnv(),
      ARCHIVE_DIR: join(work, name, 'archive'),
      DIST_DIR: join(work, name, 'dist'),
      DATABASE_FILE: join(work, name, 'app.db'),
      REDIS_URL: redis.url,
      PUBLISH_COMMAND: `echo "${name} published" >> ${join(work, 'published.log')} && echo`,
    });
    await mkdir(join(work, 'host-a'));
    await mkdir(join(work, 'host-b'));
    const jobs = [startScript('scripts/daily.ts', host('host-a')), startScript('scripts/daily.ts', host('host-b'))];
    const codes = await Promise.all(jobs.map((job) => job.exited));
    expect(codes.sort(), jobs.map((job) => job.output()).join('\n----\n')).toEqual([0, 1]);
    const refused = jobs.find((job) => job.child.exitCode === 1)!;
    expect(refused.output()).toMatch(/Another daily job is running \(its lock c-score-signals:lock:daily-job in Redis expires in \d+ s unless renewed\); wait for it to finish\./);
    const published = (await readFile(join(work, 'published.log'), 'utf8')).trim().split('\n');
    expect(published).toHaveLength(1);
    expect(published[0]).toMatch(/^host-[ab] published$/);
  }, 600_000);

  it('loses no request nginx retries on the other process when one gets SIGTERM during load', async () => {
    const [first] = apps;
    const statuses: number[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < 400) {
        sent += 1;
        if (sent === 100) first!.process.child.kill('SIGTERM');
        const answer = await fetch(`${nginx.origin}/api/auth/user`).catch((error: Error) => ({ status: 0, text: error.message, arrayBuffer: async () => undefined }));
        await answer.arrayBuffer();
        statuses.push(answer.status);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    expect(statuses).toHaveLength(400);
    expect(statuses.filter((status) => status !== 200), 'every request answered 200').toEqual([]);
    expect(await first!.process.exited, first!.process.output()).toBe(0);
    expect(first!.process.output()).toMatch(/"msg":"stopping: no new connections, finishing the requests in flight"/);
    expect(first!.process.output()).toMatch(/"msg":"stopped"/);
  }, 120_000);
});
