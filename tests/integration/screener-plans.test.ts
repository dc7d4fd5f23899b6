/**
 * The screener per viewer on the real daily job's build (PAYWALL=on) and the real server on loopback: a Pro session
 * screens every stock (the server's render and the Pro route the page script loads), Free and anonymous the free
 * slice; `watched=1` is the signed-in account's watchlist in the server's render; answers made for a session are
 * private, and the public one says it varies by cookie. The Pro rows' HTML is the build's own, character for character.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { FREE_SIGNALS } from '../../src/lib/domain/accounts/entitlements';
import { SCREEN_ROWS_PATH, unpackScreenRows, WATCHED_SIGNED_OUT } from '../../src/lib/domain/signals/screener-page';
import { createApi } from '../../src/server/api';
import { createApp } from '../../src/server/app';
import { DemoProvider } from '../../src/server/providers/demo';
import { screenerViewers } from '../../src/server/routes/screener-rows';
import { nowText } from '../../src/storage/db';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { exportCsv, writeExports } from '../fixtures/exports';
import { SITE, signUp } from './api-harness';

const ROOT = join(import.meta.dirname, '../..');
const UNIVERSE_FILE = join(ROOT, 'data/universe/sp500-constituents.csv');
const NOW = Date.parse('2026-11-20T15:00:00Z');
const STOCKS = 60;
/** A company name with the characters HTML escapes, to hold the Pro rows to the build's escaping. */
const ODD_NAME = "Smith & Jones's <Holdings>";

type Caller = 'anonymous' | 'free' | 'pro';
const cookies: Record<Caller, string | null> = { anonymous: null, free: null, pro: null };
let work: string;
let tickers: string[];
let server: ServerType;
let origin: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;

function day(date: string, latest: boolean): string {
  return exportCsv(
    tickers.map((ticker, i) => {
      const sign = i % 2 === 0 ? 1 : -1;
      const score = Number((sign * (99.5 - i * 1.01)).toFixed(2));
      const top = i % 6 === 0 ? 'TRUE' : 'FALSE';
      const name = i === 50 ? ODD_NAME : `Company ${ticker}`;
      return [ticker, name, date, latest ? score : score / 2, score / 2, 1, 50, 1, 50, score, score, 3, 5, top].join(',');
    }),
  );
}

async function as(caller: Caller, path: string): Promise<Response> {
  return fetch(`${origin}${path}`, { headers: cookies[caller] ? { cookie: cookies[caller]! } : {} });
}

/** The rows of a page's screener table, in order. */
function tableTickers(html: string): string[] {
  const body = /<table id="screener"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr data-t="([^"]+)"/g)].map((m) => m[1]!);
}

/** The count of "Screen the N stocks of the report" in the page's lead sentence. */
function leadCount(html: string): number | null {
  const lead = /<p class="page-lead"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
  const count = /^Screen the (\d+) stocks of the report/.exec(lead)?.[1];
  return count === undefined ? null : Number(count);
}

function tableRows(html: string): Map<string, string> {
  const body = /<table id="screener"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return new Map([...body.matchAll(/<tr data-t="([^"]+)"[\s\S]*?<\/tr>/g)].map((m) => [m[1]!, m[0]]));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'screener-plans-'));
  const universe = await readUniverse(UNIVERSE_FILE);
  tickers = universe.map((c) => c.ticker).filter((t) => /^[A-Z]+$/.test(t)).sort().slice(0, STOCKS);
  const source = join(work, 'source');
  await writeExports(source, { 'signals-2026-11-19.csv': day('2026-11-19', false), 'signals-2026-11-20.csv': day('2026-11-20', true) });
  const distDir = join(work, 'dist');
  const daily = {
    source, archiveDir: join(work, 'archive'), distDir, universeFile: UNIVERSE_FILE, companyInfoFile: join(work, 'companies.json'),
    shareImageCache: join(work, 'share-images'), siteName: 'C-Score Signals', siteUrl: SITE, paywall: true, force: true, today: '2026-11-20', now: () => NOW,
  };
  expect((await runDaily(daily)).status).toBe('published');
  accounts = await testAccounts({ paywall: true });
  const api = createApi({ accounts, distDir, archiveDir: daily.archiveDir, companyInfoFile: daily.companyInfoFile, provider: new DemoProvider({ universe, now: () => NOW }), siteUrl: SITE, now: () => NOW });
  const app = createApp({ distDir, api, screenerViewers: screenerViewers(accounts) });
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cookies.free = (await signUp(origin, 'free@example.com')).cookie!;
  cookies.pro = (await signUp(origin, 'pro@example.com')).cookie!;
  const db = accounts.database.db;
  const pro = await db.selectFrom('user').select('id').where('email', '=', 'pro@example.com').executeTakeFirstOrThrow();
  await db.insertInto('plan_grant').values({ user_id: pro.id, plan: 'pro', granted_at: nowText() }).execute();
}, 600_000);

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await accounts?.dispose();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the screener with PAYWALL=on: Free screens the free slice, Pro everything', { timeout: 120_000 }, () => {
  it('the server renders a Pro session\'s screen over every stock, and the free slice for Free and anonymous', async () => {
    const query = '/screener?cscore=-100..100&sort=ticker';
    const pages = { anonymous: await as('anonymous', query), free: await as('free', query), pro: await as('pro', query) };
    const html = { anonymous: await pages.anonymous.text(), free: await pages.free.text(), pro: await pages.pro.text() };
    expect(tableTickers(html.pro)).toEqual([...tickers].sort());
    expect(html.pro).toContain(`${STOCKS} of ${STOCKS} stocks`);
    // The lead sentence counts what the page screens: every stock for Pro.
    expect(leadCount(html.pro)).toBe(STOCKS);
    // The locked-rows notice is hidden for Pro; the page script is told to load the Pro rows.
    expect(html.pro).toMatch(/<section hidden class="card pro-gate" data-pro-gate/);
    expect(html.pro).toMatch(/data-screen-rows="[^"]+" data-partial data-pro-rows/);
    for (const caller of ['anonymous', 'free'] as const) {
      expect(tableTickers(html[caller]), caller).toHaveLength(FREE_SIGNALS);
      expect(html[caller]).toContain(`${FREE_SIGNALS} of ${FREE_SIGNALS} stocks`);
      expect(leadCount(html[caller]), caller).toBe(FREE_SIGNALS);
      expect(html[caller]).not.toContain('data-pro-rows');
      expect(pages[caller].headers.get('vary')).toMatch(/cookie/i);
    }
    expect(pages.pro.headers.get('cache-control')).toBe('private, no-store');
    // The static page (what a CDN serves) holds the free slice only.
    expect(tableTickers(await (await as('pro', '/screener')).text())).toHaveLength(FREE_SIGNALS);
  });

  it('/api/pro/screener gives Pro every row, data and HTML, in the table\'s order; the HTML of a free row is the build\'s', async () => {
    expect((await as('free', '/api/pro/screener')).status).toBe(403);
    expect((await as('anonymous', '/api/pro/screener')).status).toBe(401);
    const answer = await as('pro', '/api/pro/screener');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toMatch(/private, no-store/);
    const body = (await answer.json()) as { rows: string; html: string };
    const rows = unpackScreenRows(body.rows);
    expect(rows.map((r) => r.ticker).sort()).toEqual([...tickers].sort());
    const proRows = [...body.html.matchAll(/<tr data-t="([^"]+)"[\s\S]*?<\/tr>/g)];
    expect(proRows.map((m) => m[1])).toEqual(rows.map((r) => r.ticker));
    const staticRows = tableRows(await (await as('anonymous', '/screener')).text());
    const free = unpackScreenRows(await (await as('anonymous', SCREEN_ROWS_PATH)).text());
    expect(staticRows.size).toBe(FREE_SIGNALS);
    for (const row of free) expect(proRows.find((m) => m[1] === row.ticker)?.[0], row.ticker).toBe(staticRows.get(row.ticker));
    // The odd name is escaped as the build escapes it.
    expect(body.html).toContain('Smith &amp; Jones&#39;s &lt;Holdings&gt;');
  });
});

describe('watched=1 in the server\'s render', { timeout: 120_000 }, () => {
  it('is the signed-in account\'s watchlist from the database; signed out the page script applies the browser\'s own', async () => {
    const free = tickers.filter((_, i) => i < 10);
    const watched = [free[3]!, free[0]!, free[7]!];
    const merged = await fetch(`${origin}/api/watchlist/merge`, { method: 'POST', headers: { cookie: cookies.free!, origin: SITE, 'content-type': 'application/json' }, body: JSON.stringify({ tickers: watched }) });
    expect(merged.status).toBe(200);
    const mine = await as('free', '/screener?watched=1&sort=ticker');
    expect(tableTickers(await mine.text())).toEqual([...watched].sort());
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    // Pro with an empty watchlist: no stock.
    expect(tableTickers(await (await as('pro', '/screener?watched=1')).text())).toEqual([]);
    // Nobody signed in: the server cannot know the browser's list; the page says why an empty result is empty.
    const anonymous = await as('anonymous', '/screener?watched=1');
    const page = await anonymous.text();
    expect(tableTickers(page)).toHaveLength(FREE_SIGNALS);
    expect(anonymous.headers.get('vary')).toMatch(/cookie/i);
    expect(page).toContain(WATCHED_SIGNED_OUT.replace(/'/g, '&#39;'));
  });
});
