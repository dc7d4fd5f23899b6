/**
 * The Pro routes under /api/pro and the archive downloads with PAYWALL=on: anonymous 401, Free 403,
 * Pro 200 with every row, on the real app over loopback (SQLite). The accounts'
 * session reader (src/server/auth/session.ts) reads the real Better Auth cookies of a Free and a Pro account.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/storage/archive';
import { nowText } from '../../src/storage/db';
import { DemoProvider } from '../../src/server/providers/demo';
import { DATABASES } from '../fixtures/account-server';
import { buildSite, signUp, startApi, universeOf, type BuiltSite, type RunningApi } from './api-harness';

let site: BuiltSite;
let provider: DemoProvider;
const now = () => Date.parse('2026-11-20T15:00:00Z');

beforeAll(async () => {
  site = await buildSite();
  provider = new DemoProvider({ universe: await universeOf(site), now });
}, 300_000);

afterAll(async () => {
  if (site) await rm(site.work, { recursive: true, force: true });
});

describe.each(DATABASES)('PAYWALL=on on $name', ({ url }) => {
  let paywalled: RunningApi;
  /** Session cookies of a Free and a Pro account, signed up through Better Auth's real handler. */
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    paywalled = await startApi(site, provider, now, { paywall: true, databaseUrl: await url() });
    cookies.free = paywalled.member.cookie!;
    cookies.pro = (await signUp(paywalled.origin, 'pro@example.com')).cookie!;
    // What `npm run admin -- grant-pro` writes.
    const db = paywalled.accounts.database.db;
    const user = await db.selectFrom('user').select('id').where('email', '=', 'pro@example.com').executeTakeFirstOrThrow();
    await db.insertInto('plan_grant').values({ user_id: user.id, plan: 'pro', granted_at: nowText() }).execute();
  }, 300_000);

  afterAll(async () => {
    await paywalled?.close();
  });

  const as = (user: string | null) => (user ? { headers: { cookie: cookies[user]! } } : {});

  const PRO_PATHS = [
    '/api/pro/all-signals',
    '/api/pro/lists/all-signals',
    '/api/pro/lists/currently-qualified',
    '/api/pro/lists/recently-qualified',
    '/api/pro/lists/reversals-exits',
    '/api/pro/lists/heatmap',
    '/api/pro/stock/AAPL',
    '/api/pro/ticker-metrics/AAPL',
    '/api/pro/c-score-trend/AAPL',
    '/api/pro/screener',
  ];

  describe('/api/pro', () => {
    it.each(PRO_PATHS)('%s: 401 signed out, 403 Free, 200 Pro (never cached)', async (path) => {
      const anonymous = await paywalled.get(path, as(null));
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({ error: 'Sign in first.' });
      const free = await paywalled.get(path, as('free'));
      expect(free.status).toBe(403);
      expect(await free.json()).toEqual({ error: 'This needs a Pro plan.' });
      const pro = await paywalled.get(path, as('pro'));
      expect(pro.status).toBe(200);
      expect(pro.headers.get('cache-control')).toBe('private, no-store');
      expect(pro.headers.get('vary')).toContain('Cookie');
    });

    it('answers a Pro user every row of the report', async () => {
      const all = (await (await paywalled.get('/api/pro/all-signals', as('pro'))).json()) as { ticker: string; cScore: number }[];
      expect(all.map((r) => [r.ticker, r.cScore])).toEqual([
        ['AAPL', 80],
        ['NVDA', 66],
        ['BRK.B', 0],
        ['JPM', -10],
        ['MSFT', -90],
      ]);
      const qualified = (await (await paywalled.get('/api/pro/lists/currently-qualified', as('pro'))).json()) as { rows: { ticker: string }[] };
      expect(qualified.rows.map((r) => r.ticker)).toEqual(['MSFT', 'AAPL', 'NVDA']);
      const record = await (await paywalled.get('/api/pro/stock/aapl', as('pro'))).json();
      expect(record).toMatchObject({ ticker: 'AAPL', cScore: 80 });
      const trend = (await (await paywalled.get('/api/pro/c-score-trend/MSFT', as('pro'))).json()) as { ticker?: string };
      expect(JSON.stringify(trend)).toContain('-90');
    });

    it('refuses bad input with a clear 4xx, after the session check', async () => {
      const list = await paywalled.get('/api/pro/lists/everything', as('pro'));
      expect([list.status, ((await list.json()) as { error: string }).error]).toEqual([400, expect.stringContaining('expected one of all-signals')]);
      expect((await paywalled.get('/api/pro/stock/not%20a%20ticker', as('pro'))).status).toBe(400);
      expect((await paywalled.get('/api/pro/stock/ZZZZ', as('pro'))).status).toBe(404);
      expect((await paywalled.get('/api/pro/lists/everything', as(null))).status).toBe(401);
    });
  });

  describe('archive downloads', () => {
    it('with PAYWALL=on: 401 signed out, 403 Free, the file for Pro', async () => {
      const [file] = await readArchive(site.archiveDir);
      for (const path of [`/api/download-csv/${file!.id}`, `/api/download-excel/${file!.id}`]) {
        expect((await paywalled.get(path, as(null))).status).toBe(401);
        expect((await paywalled.get(path, as('free'))).status).toBe(403);
        const pro = await paywalled.get(path, as('pro'));
        expect(pro.status).toBe(200);
        expect(pro.headers.get('content-disposition')).toMatch(/^attachment/);
      }
    });

    it('with PAYWALL off: anyone downloads, as today', async () => {
      const open = await startApi(site, provider, now, { paywall: false, databaseUrl: await url() });
      const [file] = await readArchive(site.archiveDir);
      const response = await open.get(`/api/download-csv/${file!.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(await response.text()).toContain('AAPL');
      await open.close();
    });
  });
});
