/**
 * Section "deploy": the shipped nginx recipe against the Node server on the same build, and the cached live
 * quote over two processes sharing Redis behind nginx against one process without it. Everything on loopback: Debian's
 * nginx and redis-server, `npm start` processes (as deploy/systemd runs them), the fake market-data server.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startFakePolygon } from '../../tests/fixtures/fake-polygon';
import { freePort, startNginx, startRedis, startScript, waitFor, type Started } from '../../tests/fixtures/deploy';
import { CONNECTIONS, type LoadResult, loadTool, measure } from './api';
import { type BenchContext, type Figure, figure, round } from './figures';

/** How the section measures, once for the table's header. */
export const DEPLOY_NOTE =
  `The 503-ticker bench build, served three ways on 127.0.0.1 at once: Debian's nginx with deploy/nginx/c-score-signals.conf and the build's own nginx/*.conf, ` +
  `two \`npm start\` processes sharing one redis-server behind it (REDIS_URL, TRUSTED_PROXIES), and a third process without Redis. ` +
  `Each address is loaded straight from one Node process and through nginx in the same run, one after the other, with the api section's tool and settings ` +
  `(${CONNECTIONS} connections, \`Accept-Encoding: gzip\`, a thrown-away warm-up, then the measured run); the ratio is nginx's figure over Node's. ` +
  'The quote comes from the Polygon provider pointed at the fake market-data server, cached after the first request (the two-process figure goes through nginx, which the one-process figure does not).';

const HOST = '127.0.0.1';

/** Starts `npm start` on a free port and waits for its health check. */
async function app(distDir: string, work: string, name: string, env: Record<string, string>): Promise<{ process: Started; port: number; origin: string }> {
  const port = await freePort();
  const process = startScript('scripts/start.ts', {
    PORT: String(port),
    HOST,
    DIST_DIR: distDir,
    DATABASE_FILE: join(work, `${name}.db`),
    DATABASE_URL: '',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const origin = `http://${HOST}:${port}`;
  await waitFor(`npm start (${name})`, async () => (await fetch(`${origin}/api/health`)).status === 200, process);
  return { process, port, origin };
}

/** Measures the section; `distDir` is the bench build's. */
export async function deploySection(ctx: BenchContext, distDir: string): Promise<Figure[]> {
  const work = join(ctx.tmp, 'deploy');
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const stops: (() => Promise<unknown>)[] = [];
  const figures: Figure[] = [];
  const seconds = ctx.quick ? 3 : 10;
  const tool = loadTool();
  const method = `${tool.name}, ${CONNECTIONS} connections, ${seconds} s`;
  try {
    const fake = await startFakePolygon({ key: 'bench-key' });
    stops.push(() => fake.close());
    const redis = await startRedis(join(work, 'redis'));
    stops.push(() => redis.stop());
    const polygon = { POLYGON_API_KEY: 'bench-key', POLYGON_BASE_URL: fake.origin, POLYGON_RATE_PER_MIN: '1000' };
    const shared = { ...polygon, REDIS_URL: redis.url, TRUSTED_PROXIES: HOST };
    const a = await app(distDir, work, 'a', shared);
    stops.push(() => a.process.stop());
    const b = await app(distDir, work, 'b', shared);
    stops.push(() => b.process.stop());
    const single = await app(distDir, work, 'single', polygon);
    stops.push(() => single.process.stop());
    // The recipe's paths point at the folder that holds dist/.
    const nginx = await startNginx(join(work, 'nginx'), join(distDir, '..'), [a.port, b.port]);
    stops.push(() => nginx.stop());

    const ticker = (await readdir(join(distDir, 'client', 'signal'), { withFileTypes: true })).find((entry) => entry.isDirectory() && /^[A-Z]+$/.test(entry.name))!.name;
    const pair = async (label: string, path: string, node: string, proxied: string, nodeLabel: string, proxiedLabel: string) => {
      for (const origin of [node, proxied]) {
        const first = await fetch(origin + path);
        await first.arrayBuffer();
        if (first.status !== 200) throw new Error(`${origin}${path} answered ${first.status}, not 200`);
      }
      const direct: LoadResult = await measure(tool, node + path, seconds);
      const through: LoadResult = await measure(tool, proxied + path, seconds);
      ctx.log(`  ${label}: ${nodeLabel} ${Math.round(direct.requestsPerSecond)} req/s p99 ${round(direct.p99Ms, 2)} ms; ${proxiedLabel} ${Math.round(through.requestsPerSecond)} req/s p99 ${round(through.p99Ms, 2)} ms`);
      const add = (name: string, value: number, unit: string) => figures.push(figure('deploy', { name: `${label}: ${name}`, value, unit, method }));
      add(`${nodeLabel}, requests/s`, Math.round(direct.requestsPerSecond), 'req/s');
      add(`${proxiedLabel}, requests/s`, Math.round(through.requestsPerSecond), 'req/s');
      add(`${proxiedLabel} / ${nodeLabel}, requests/s`, round(through.requestsPerSecond / direct.requestsPerSecond, 2), 'ratio');
      add(`${nodeLabel}, p99 latency`, round(direct.p99Ms, 2), 'ms');
      add(`${proxiedLabel}, p99 latency`, round(through.p99Ms, 2), 'ms');
      add(`${proxiedLabel} / ${nodeLabel}, p99 latency`, round(through.p99Ms / direct.p99Ms, 2), 'ratio');
      add('errors, both runs', direct.errors + through.errors, 'requests');
    };
    await pair(`static page /signal/${ticker}/`, `/signal/${ticker}/`, a.origin, nginx.origin, 'straight from Node', 'through nginx');
    await pair(`static API /api/stock/${ticker}`, `/api/stock/${ticker}`, a.origin, nginx.origin, 'straight from Node', 'through nginx');
    await pair(`cached live quote /api/stock-price/${ticker}`, `/api/stock-price/${ticker}`, single.origin, nginx.origin, 'one process without Redis', 'two processes with Redis behind nginx');
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
  return figures;
}
