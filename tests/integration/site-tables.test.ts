/**
 * The live-route table against the app itself: every route the built API answers (createApi's own `routes`) has a
 * row with its method, every row answers something, and the 405 guards the table drives answer on a real server on
 * loopback with the Allow header the row says.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_ROUTES, METHOD_GUARDS, PAYWALLED_PREFIXES, type LiveRoute, type Method } from '../../src/lib/domain/site/live-routes';
import { createApi } from '../../src/server/api';
import { DemoProvider } from '../../src/server/providers/demo';
import { testAccounts } from '../fixtures/accounts';

let work: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;
let paywalled: Awaited<ReturnType<typeof testAccounts>>;
let api: ReturnType<typeof createApi>;
let server: ServerType;
let origin: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'site-tables-'));
  const options = { distDir: join(work, 'dist'), archiveDir: join(work, 'archive'), companyInfoFile: join(work, 'companies.json'), provider: new DemoProvider({ universe: [] }) };
  // PAYWALL on: the downloads' session middleware is mounted too, so every route the app can have is listed.
  paywalled = await testAccounts({ paywall: true });
  api = createApi({ ...options, accounts: paywalled });
  // Served with PAYWALL off, so a download's 405 is not preceded by its sign-in check.
  accounts = await testAccounts();
  const app = new Hono().route('/api', createApi({ ...options, accounts }));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await accounts.dispose();
  await paywalled.dispose();
  await rm(work, { recursive: true, force: true });
});

/** The row of a route path under /api (`/health`, `/polygon/aggs/:ticker`) by its first segment. */
function liveRouteFor(path: string): LiveRoute | undefined {
  return LIVE_ROUTES.find((route) => route.prefix === path.split('/')[1]);
}

/** The routes the app answers, without the 405 guards the table itself mounts: `METHOD path` under /api. */
function answeredRoutes(): { method: string; path: string }[] {
  const guarded = new Set(METHOD_GUARDS.flatMap((guard) => guard.refuse.map((method) => `${method} ${guard.path}`)));
  return api.routes.filter((route) => !guarded.has(`${route.method} ${route.path}`)).map(({ method, path }) => ({ method, path }));
}

describe('the live-route table covers every route of the app', () => {
  it('every mounted prefix and route has a row, with its method among the row\'s methods', () => {
    const routes = answeredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter(({ path }) => liveRouteFor(path) === undefined).map(({ method, path }) => `${method} /api${path}`);
    expect(missing, 'routes with no row in LIVE_ROUTES (src/lib/domain/site/live-routes.ts): add one').toEqual([]);
    const wrongMethod = routes
      .filter(({ method }) => method !== 'ALL')
      .filter(({ method, path }) => !liveRouteFor(path)!.methods.includes(method as Method))
      .map(({ method, path }) => `${method} /api${path}`);
    expect(wrongMethod, 'routes whose method their LIVE_ROUTES row does not list').toEqual([]);
  });

  it('every row and every method of a row is answered by some route (no stale rows)', () => {
    const routes = answeredRoutes();
    for (const row of LIVE_ROUTES) {
      const own = routes.filter(({ path }) => liveRouteFor(path) === row);
      for (const method of row.methods) expect(own.some((route) => route.method === method), `${method} /api/${row.prefix}...`).toBe(true);
    }
  });

  it('every POST-only path is a POST route of the app', () => {
    const posts = new Set(answeredRoutes().filter(({ method }) => method === 'POST').map(({ path }) => path));
    for (const path of LIVE_ROUTES.flatMap((row) => row.postOnly ?? [])) expect(posts.has(path), path).toBe(true);
  });
});

describe('the 405 guards read the table', () => {
  it('a GET row asked with DELETE, POST or PATCH answers 405 with Allow: GET, HEAD', async () => {
    const refused = LIVE_ROUTES.filter((row) => row.otherMethods === 'refused');
    expect(refused.map((row) => row.prefix)).toEqual(expect.arrayContaining(['health', 'stock-price', 'polygon', 'download-csv']));
    for (const row of refused) {
      for (const [method, path] of [['DELETE', `/api/${row.prefix}`], ['PATCH', `/api/${row.prefix}/AAPL`]] as const) {
        const response = await fetch(`${origin}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
        expect(((await response.json()) as { error: string }).error).toBe(`Use GET on ${path}.`);
      }
    }
    const post = await fetch(`${origin}/api/health`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a POST-only path asked with PUT answers 405 with Allow: POST', async () => {
    const paths = LIVE_ROUTES.flatMap((row) => row.postOnly ?? []);
    expect(paths).toEqual(expect.arrayContaining(['/save-company-name', '/polygon/company-names', '/polygon/sync-company-info']));
    for (const path of paths) {
      const response = await fetch(`${origin}/api${path}`, { method: 'PUT' });
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow'), path).toBe('POST');
      expect(((await response.json()) as { error: string }).error).toBe(`Use POST on /api${path} with a JSON body.`);
    }
    const get = await fetch(`${origin}/api/polygon/company-names`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('a row whose other methods fall through is never a 405 (its routes answer: a 404, or their sign-in check first)', async () => {
    const through = LIVE_ROUTES.filter((r) => r.otherMethods === 'not-found' && !r.static);
    expect(through.map((row) => row.prefix)).toEqual(expect.arrayContaining(['account', 'watchlist', 'ai']));
    const statuses: number[] = [];
    for (const row of through) {
      const response = await fetch(`${origin}/api/${row.prefix}/no-such-route`, { method: 'DELETE' });
      expect([401, 403, 404], `${row.prefix}: ${response.status}`).toContain(response.status);
      expect(response.headers.get('allow'), row.prefix).toBeNull();
      statuses.push(response.status);
    }
    expect(statuses).toContain(404);
  });
});

describe('the session net and the paywall read the table', () => {
  it('a checked row\'s answer to a request with a cookie is private, no-store; the public quote\'s is left as the route sent it', async () => {
    const headers = { Cookie: 'theme=dark' };
    for (const row of LIVE_ROUTES.filter((r) => r.prefix === 'stock-price' || r.prefix === 'earnings-date')) {
      // No build in dist: both refuse with 503 and a bare no-store, which the net turns private only where it runs.
      const response = await fetch(`${origin}/api/${row.prefix}/AAPL`, { headers });
      expect(response.status, row.prefix).toBe(503);
      expect(response.headers.get('cache-control'), row.prefix).toBe(row.sharedCache === 'checked' ? 'private, no-store' : 'no-store');
    }
  });

  it('with PAYWALL=on every paywalled row asks for a session (401), and without it the same address is not refused for that', async () => {
    expect(PAYWALLED_PREFIXES.length).toBeGreaterThan(0);
    for (const prefix of PAYWALLED_PREFIXES) {
      expect((await api.request(`/${prefix}/0123456789abcdef`)).status, prefix).toBe(401);
      expect((await fetch(`${origin}/api/${prefix}/0123456789abcdef`)).status, prefix).not.toBe(401);
    }
    for (const row of LIVE_ROUTES.filter((r) => !r.paywalled && r.otherMethods === 'refused' && r.session !== 'requires')) {
      expect((await api.request(`/${row.prefix}/AAPL`)).status, row.prefix).not.toBe(401);
    }
  });
});
