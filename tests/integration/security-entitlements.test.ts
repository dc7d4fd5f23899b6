/**
 * One entitlement rule on every path that carries scores, PAYWALL=on: one table walks every live route and every
 * published file that can name a ticker, as an anonymous visitor, a Free account and a Pro account, over loopback on
 * the real app and one real build (the daily job with `astro build`, made once for the whole table).
 *
 * The report: 60 S&P 500 tickers, 7 top tickers. The 5 of largest |C-Score| are free; AMD (bullish 66.23, yesterday
 * 93.08, when it qualified) and XOM (bearish -67.34, a new signal today) are locked. Every score of the two carries a
 * value found nowhere else, so a text search proves it absent. NVDA shares AMD's sub-industry and CVX XOM's, so their
 * similar-ticker lists would name them. A locked ticker shows as locked ("Top signal", no score, no direction) to
 * anonymous and Free callers; Pro sees its scores on every route that answers per session. Every answer that depends
 * on the session is `private, no-store` for Pro, and its public variant says `Vary: Cookie`.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { startShareImages } from '../../src/ingest/share-images';
import { signalEvents } from '../../src/lib/domain/alerts/alerts';
import type { SiteData } from '../../src/lib/domain/report/schemas';
import { createApi } from '../../src/server/api';
import { createApp } from '../../src/server/app';
import { nginxServerFile, routesFile, workerFile } from '../../src/server/deploy-rules';
import { DemoProvider } from '../../src/server/providers/demo';
import { readArchive } from '../../src/storage/archive';
import { AlertStore } from '../../src/storage/alerts';
import { nowText } from '../../src/storage/db';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { exportCsv, writeExports } from '../fixtures/exports';
import { type FakeLlm, startFakeLlm } from '../fixtures/fake-llm';
import { SITE, signUp } from './api-harness';

const ROOT = join(import.meta.dirname, '../..');
const UNIVERSE_FILE = join(ROOT, 'data/universe/sp500-constituents.csv');
const NOW = Date.parse('2026-11-20T15:00:00Z');

/** The locked top tickers: today's score and fields (yesterday, delta, accuracy, market, relevance, 7- and 14-day averages). */
const LOCKED = {
  AMD: { at: 50, score: 66.23, fields: [93.08, 7.77, 33.33, 8.88, 44.44, 66.66, 55.55] },
  XOM: { at: 55, score: -67.34, fields: [-70.92, -7.76, 33.32, -8.87, 44.43, -66.65, -55.54] },
} as const;
type Locked = keyof typeof LOCKED;
const LOCKED_TICKERS = Object.keys(LOCKED) as Locked[];
/** Free tickers whose similar lists would name a locked one: NVDA (AMD's sub-industry), CVX (XOM's). */
const FIXED: Record<number, string> = { 3: 'NVDA', 5: 'CVX' };
const FREE_TOP_AT = [3, 10, 20, 25, 30];
/** Every score of the locked tickers as a page, a file or an answer would print it. */
const LOCKED_TEXTS = Object.values(LOCKED).flatMap(({ score, fields }) => [score, ...fields].flatMap((n) => [n.toFixed(2), String(n), String(n).replace('-', '\u2212')]));

type Caller = 'anonymous' | 'free' | 'pro';
const CALLERS: Caller[] = ['anonymous', 'free', 'pro'];

let work: string;
let clientDir: string;
let site: SiteData;
let tickers: string[];
let fake: FakeLlm;
let server: ServerType;
let origin: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;
const cookies: Record<Caller, string | null> = { anonymous: null, free: null, pro: null };
const feedTokens: Record<Caller, string> = { anonymous: 'no-such-feed-token', free: '', pro: '' };
let archiveId: string;

function day(date: string, latest: boolean): string {
  const rows = tickers.map((ticker, i) => {
    const locked = LOCKED[ticker as Locked];
    const top = FREE_TOP_AT.includes(i) || locked !== undefined;
    const sign = i % 2 === 0 ? 1 : -1;
    const score = Number((sign * (99.5 - i * 1.01)).toFixed(2));
    if (!latest) {
      // The report before: AMD qualified bullish at 93.08 (its track-record entry is still open today); XOM was neutral.
      const before = ticker === 'AMD' ? 93.08 : ticker === 'XOM' ? 10 : score;
      return [ticker, `Company ${ticker}`, date, before, 0, 1, 50, 1, 50, before, before, 3, 5, top ? 'TRUE' : 'FALSE'].join(',');
    }
    if (locked) {
      const [y, delta, acc, market, rel, avg7, avg14] = locked.fields;
      return [ticker, `Company ${ticker}`, date, locked.score, y, delta, acc, market, rel, avg7, avg14, 3, 5, 'TRUE'].join(',');
    }
    return [ticker, `Company ${ticker}`, date, score, score, 1, 50, 1, 50, score, score, 3, 5, top ? 'TRUE' : 'FALSE'].join(',');
  });
  return exportCsv(rows);
}

async function as(caller: Caller, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (cookies[caller]) headers.set('cookie', cookies[caller]!);
  if (init.method === 'POST') headers.set('origin', SITE);
  return fetch(`${origin}${path}`, { redirect: 'manual', ...init, headers });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'security-entitlements-'));
  const universe = await readUniverse(UNIVERSE_FILE);
  const others = universe.map((c) => c.ticker).filter((t) => !['AMD', 'XOM', 'NVDA', 'CVX'].includes(t) && /^[A-Z]+$/.test(t)).sort();
  tickers = Array.from({ length: 60 }, (_, i) => FIXED[i] ?? LOCKED_TICKERS.find((t) => LOCKED[t].at === i) ?? others.shift()!);
  const source = join(work, 'source');
  await writeExports(source, { 'signals-2026-11-19.csv': day('2026-11-19', false), 'signals-2026-11-20.csv': day('2026-11-20', true) });
  const distDir = join(work, 'dist');
  await runDaily({
    source,
    archiveDir: join(work, 'archive'),
    distDir,
    universeFile: UNIVERSE_FILE,
    companyInfoFile: join(work, 'companies.json'),
    shareImageCache: join(work, 'share-images'),
    siteName: 'C-Score Signals',
    siteUrl: SITE,
    paywall: true,
    force: true,
    today: '2026-11-20',
    now: () => NOW,
  });
  clientDir = join(distDir, 'client');
  site = JSON.parse(await readFile(join(distDir, 'data/site.json'), 'utf8')) as SiteData;
  archiveId = (await readArchive(join(work, 'archive'))).at(-1)!.id;

  fake = await startFakeLlm();
  accounts = await testAccounts({ paywall: true });
  const api = createApi({
    accounts,
    distDir,
    archiveDir: join(work, 'archive'),
    companyInfoFile: join(work, 'companies.json'),
    provider: new DemoProvider({ universe, now: () => NOW }),
    siteUrl: SITE,
    now: () => NOW,
    ai: { settings: { baseUrl: fake.baseUrl, apiKey: 'fake-llm-key', model: 'fake-model-1', timeoutMs: 3000, requestTokenLimit: 600, dailyTokenLimit: 10_000_000, ratePerMinute: 1000 } },
  });
  const app = createApp({ distDir, api });
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cookies.free = (await signUp(origin, 'free@example.com')).cookie!;
  cookies.pro = (await signUp(origin, 'pro@example.com')).cookie!;
  const db = accounts.database.db;
  const pro = await db.selectFrom('user').select('id').where('email', '=', 'pro@example.com').executeTakeFirstOrThrow();
  await db.insertInto('plan_grant').values({ user_id: pro.id, plan: 'pro', granted_at: nowText() }).execute();
  // The private feeds: both watch the locked tickers; the report's events are stored as the daily job stores them.
  const store = new AlertStore(db, () => NOW);
  await store.saveEvents(signalEvents(site.history));
  for (const caller of ['free', 'pro'] as const) {
    const merged = await as(caller, '/api/watchlist/merge', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tickers: [...LOCKED_TICKERS, 'NVDA'] }) });
    expect(merged.status).toBe(200);
    const user = await db.selectFrom('user').select('id').where('email', '=', `${caller}@example.com`).executeTakeFirstOrThrow();
    feedTokens[caller] = await store.regenerateFeedToken(user.id);
  }
}, 600_000);

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await accounts?.dispose();
  await fake?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** What one caller got from one row. */
interface Seen {
  status: number;
  text: string;
  headers: Headers;
}

/** What a caller may see of the locked tickers on one row. */
type Expect = 'locked' | 'full' | 'refused' | 'same-for-all';

interface Row {
  name: string;
  /** A live route answers per session; a static file is the same file for everyone (anonymous's view). */
  kind: 'live' | 'static';
  ask(caller: Caller): Promise<Seen>;
  expect: Record<Caller, Expect>;
  /** The same answer for every caller (it reads no session): a shared cache may keep it. */
  samePublic?: true;
  /** The status of an answer that is not refused (default 200). */
  status?: number;
  /** Checks of a locked answer beyond the absent scores: no direction, the locked mark. */
  locked?(seen: Seen): void | Promise<void>;
  /** Checks of Pro's full answer beyond a locked score being there. */
  full?(seen: Seen): void;
}

const get = (path: string) => async (caller: Caller): Promise<Seen> => {
  const response = await as(caller, path);
  return { status: response.status, text: await response.text(), headers: response.headers };
};

const json = (seen: Seen) => JSON.parse(seen.text) as Record<string, unknown>;

/** Every object in a JSON answer whose `ticker` is a locked ticker. */
function lockedObjects(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) lockedObjects(item, found);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.ticker === 'string' && (LOCKED_TICKERS as string[]).includes(record.ticker)) found.push(record);
    for (const item of Object.values(record)) lockedObjects(item, found);
  }
  return found;
}

/** A locked ticker in JSON: no score of any kind and no direction. */
function expectNoLockedSignal(value: unknown): void {
  for (const record of lockedObjects(value)) {
    for (const [key, field] of Object.entries(record)) {
      expect(typeof field === 'number' && /score|avg/i.test(key), `${record.ticker}.${key}`).toBe(false);
      expect(typeof field === 'string' && /bullish|bearish|neutral/i.test(field), `${record.ticker}.${key} = ${String(field)}`).toBe(false);
    }
  }
}

/** A text (an Atom feed, a CSV, a page) that names a locked ticker with a direction, on one line or one item. */
function lockedDirectionLines(text: string): string[] {
  return text.split(/\n|<\/entry>|<\/tr>/).filter((line) => LOCKED_TICKERS.some((t) => new RegExp(`\\b${t}\\b`).test(line)) && /bullish|bearish|still qualified/i.test(line));
}

const ROWS: Row[] = [
  // The live routes.
  ...LOCKED_TICKERS.map(
    (ticker): Row => ({
      name: `live /api/stock-complete-data/${ticker}`,
      kind: 'live',
      ask: get(`/api/stock-complete-data/${ticker}`),
      expect: { anonymous: 'locked', free: 'locked', pro: 'full' },
      locked: (seen) => {
        const body = json(seen);
        expect(body.stock).toEqual({ ticker, companyName: expect.any(String), reportDate: '2026-11-20', isTopTicker: true, locked: true });
        expect(body.metrics).toMatchObject({ locked: true });
        expectNoLockedSignal(body);
      },
      full: (seen) => expect(json(seen).stock).toMatchObject({ ticker, cScore: LOCKED[ticker].score, yesterdayCScore: LOCKED[ticker].fields[0] }),
    }),
  ),
  ...LOCKED_TICKERS.map(
    (ticker): Row => ({
      name: `live /api/market-sentiment/${ticker}`,
      kind: 'live',
      ask: get(`/api/market-sentiment/${ticker}`),
      expect: { anonymous: 'locked', free: 'locked', pro: 'full' },
      locked: (seen) => {
        expect(json(seen)).toEqual({ ticker, companyName: expect.any(String), reportDate: '2026-11-20', isTopTicker: true, locked: true, sentiment: 'Top signal' });
      },
      full: (seen) => expect(json(seen)).toMatchObject({ cScore: LOCKED[ticker].score, sentiment: ticker === 'AMD' ? 'bullish' : 'bearish' }),
    }),
  ),
  ...(['NVDA', 'CVX'] as const).map(
    (ticker): Row => ({
      name: `live /api/stock-complete-data/${ticker}: its similar tickers`,
      kind: 'live',
      ask: get(`/api/stock-complete-data/${ticker}`),
      expect: { anonymous: 'locked', free: 'locked', pro: 'full' },
      locked: (seen) => {
        const similar = json(seen).similarTickers as { ticker: string }[];
        expect(similar.length).toBeGreaterThan(0);
        expect(similar.map((s) => s.ticker)).not.toContain(ticker === 'NVDA' ? 'AMD' : 'XOM');
      },
      full: (seen) => expect(json(seen).similarTickers).toContainEqual({ ticker: ticker === 'NVDA' ? 'AMD' : 'XOM', cScore: LOCKED[ticker === 'NVDA' ? 'AMD' : 'XOM'].score }),
    }),
  ),
  {
    name: 'live /api/company-info/AMD (no scores for anyone)',
    kind: 'live',
    ask: get('/api/company-info/AMD'),
    expect: { anonymous: 'locked', free: 'locked', pro: 'locked' },
    samePublic: true,
  },
  ...['/api/pro/stock/AMD', '/api/pro/ticker-metrics/XOM', '/api/pro/c-score-trend/AMD', '/api/pro/all-signals', '/api/pro/lists/currently-qualified', '/api/pro/lists/heatmap'].map(
    (path): Row => ({ name: `live ${path}`, kind: 'live', ask: get(path), expect: { anonymous: 'refused', free: 'refused', pro: 'full' } }),
  ),
  {
    name: 'live /api/download-csv/{id} (the archive holds every score)',
    kind: 'live',
    ask: async (caller) => get(`/api/download-csv/${archiveId}`)(caller),
    expect: { anonymous: 'refused', free: 'refused', pro: 'full' },
    full: (seen) => expect(seen.text).toContain('66.23'),
  },
  {
    name: 'live /api/download-excel/{id}',
    kind: 'live',
    ask: async (caller) => get(`/api/download-excel/${archiveId}`)(caller),
    expect: { anonymous: 'refused', free: 'refused', pro: 'full' },
    full: (seen) => expect(seen.text).toContain('66.23'),
  },
  {
    name: 'live /api/alerts/feed/{token}.xml: the private feed of the watched locked tickers',
    kind: 'live',
    ask: async (caller) => get(`/api/alerts/feed/${feedTokens[caller]}.xml`)(caller),
    expect: { anonymous: 'refused', free: 'locked', pro: 'full' },
    locked: (seen) => {
      expect(seen.text).toContain('XOM is a top signal');
      expect(lockedDirectionLines(seen.text)).toEqual([]);
    },
    full: (seen) => expect(seen.text).toContain('XOM is a new bearish signal: C-Score 10.00 to -67.34'),
  },
  {
    name: 'live /api/ai/chat: listQualified bullish',
    kind: 'live',
    ask: async (caller) => {
      fake.queue.push({ toolCalls: [{ name: 'listQualified', arguments: { direction: 'bullish' } }] });
      const body = { id: `chat-${caller}`, messages: [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: 'Which bullish stocks are there today?' }] }] };
      const response = await as(caller, '/api/ai/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 200) fake.queue.length = 0;
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    expect: { anonymous: 'refused', free: 'locked', pro: 'full' },
    locked: (seen) => {
      expect(seen.text).toContain('"toolName":"listQualified"');
      expect(seen.text).not.toMatch(/"ticker":"AMD"/);
    },
    full: (seen) => expect(seen.text).toContain('"ticker":"AMD"'),
  },
  {
    name: 'live /api/ai/analysis/AMD (the facts of a locked ticker)',
    kind: 'live',
    ask: get('/api/ai/analysis/AMD'),
    expect: { anonymous: 'refused', free: 'refused', pro: 'full' },
    // No analysis is written yet: the 404 carries the facts a text would be written from.
    status: 404,
    full: (seen) => expect(json(seen).facts).toContain('C-Score: 66.23'),
  },
  {
    name: 'live /api/ai/analysis/NVDA (one stored text for all: the Free facts, no locked similar ticker)',
    kind: 'live',
    ask: get('/api/ai/analysis/NVDA'),
    expect: { anonymous: 'refused', free: 'locked', pro: 'locked' },
    status: 404,
    locked: (seen) => {
      expect(json(seen).facts).toContain('NVDA');
      expect(json(seen).facts).not.toMatch(/AMD/);
    },
  },
  {
    name: 'live /api/ai/brief (one text for all: no locked ticker, no exit or reversal of one, no sector figure with one)',
    kind: 'live',
    ask: get('/api/ai/brief'),
    expect: { anonymous: 'refused', free: 'locked', pro: 'locked' },
    locked: (seen) => expect(seen.text).not.toMatch(/\b(AMD|XOM)\b/),
  },
  // The published files (the same file for every caller: Pro reads the locked scores from /api/pro above).
  ...['/', '/all-signals/', '/currently-qualified/', '/recently-qualified/', '/reversals-exits/', '/heatmap/', '/explore/', '/archives/', '/ai-analysis/', '/ai-chat/'].map(
    (path): Row => ({
      name: `page ${path}`,
      kind: 'static',
      ask: get(path),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.text).not.toMatch(/data-t="(AMD|XOM)"/);
        expect(lockedDirectionLines(seen.text)).toEqual([]);
      },
    }),
  ),
  ...LOCKED_TICKERS.map(
    (ticker): Row => ({
      name: `page /signal/${ticker}/`,
      kind: 'static',
      ask: get(`/signal/${ticker}/`),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.text).toContain('Top Stock Details are part of Pro');
        expect(seen.text).toMatch(new RegExp(`\\(${ticker}\\): a top signal on`));
      },
    }),
  ),
  {
    name: 'page /signal/NVDA/ (its similar tickers)',
    kind: 'static',
    ask: get('/signal/NVDA/'),
    expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
    locked: (seen) => expect(seen.text).not.toMatch(/\/signal\/AMD\b/),
  },
  {
    name: 'page /track-record/',
    kind: 'static',
    ask: get('/track-record/'),
    expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
    locked: (seen) => {
      expect(seen.text).toContain('NVDA');
      expect(lockedDirectionLines(seen.text)).toEqual([]);
    },
  },
  ...['/api/track-record', '/api/track-record/AMD', '/api/track-record/XOM', '/track-record.csv'].map(
    (path): Row => ({
      name: `track record ${path}`,
      kind: 'static',
      ask: get(path),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.status).toBe(200);
        // JSON: no ledger row of a locked ticker (its direction, its score); the CSV: no line of one.
        if (seen.text.startsWith('{') || seen.text.startsWith('[')) expectNoLockedSignal(JSON.parse(seen.text));
        else expect(lockedDirectionLines(seen.text)).toEqual([]);
      },
    }),
  ),
  ...[
    ...LOCKED_TICKERS.flatMap((t) => [`/api/stock/${t}`, `/api/ticker-metrics/${t}`, `/api/c-score-trend/${t}`, `/api/similar-tickers/${t}`, `/api/company-name/${t}`]),
    '/api/similar-tickers/NVDA',
    '/api/similar-tickers/CVX',
    '/api/all-signals',
    '/api/company-names',
    '/search-index.json',
  ].map(
    (path): Row => ({
      name: `static JSON ${path}`,
      kind: 'static',
      ask: get(path),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.status).toBe(200);
        const body = JSON.parse(seen.text) as unknown;
        expectNoLockedSignal(body);
        if (/\/api\/(stock|ticker-metrics|c-score-trend)\//.test(path)) expect(body).toMatchObject({ locked: true });
        if (/similar-tickers\/(NVDA|CVX)|all-signals/.test(path)) expect(seen.text).not.toMatch(/"(AMD|XOM)"/);
        // The search index: [ticker, name, score or null].
        if (path === '/search-index.json') for (const t of LOCKED_TICKERS) expect(JSON.stringify(body)).toMatch(new RegExp(`\\["${t}","[^"]*",null\\]`));
      },
    }),
  ),
  ...['/feeds/signals.xml', '/feeds/signals.json'].map(
    (path): Row => ({
      name: `public feed ${path}`,
      kind: 'static',
      ask: get(path),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.text).toContain('XOM is a top signal');
        expect(lockedDirectionLines(seen.text.replace(/\},\{/g, '}\n{'))).toEqual([]);
      },
    }),
  ),
  ...['/badge/AMD.svg', '/badge/XOM.svg', '/embed/AMD/', '/embed/XOM/'].map(
    (path): Row => ({
      name: `embeddable ${path}`,
      kind: 'static',
      ask: get(path),
      expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
      locked: (seen) => {
        expect(seen.status).toBe(200);
        expect(seen.text).toContain('Top signal');
        expect(seen.text).not.toMatch(/Bullish|Bearish|Neutral/);
      },
    }),
  ),
  ...['/sitemap-index.xml', '/sitemap-pages-0.xml', '/sitemap-stocks-0.xml', '/robots.txt'].map(
    (path): Row => ({ name: `crawler file ${path}`, kind: 'static', ask: get(path), expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' } }),
  ),
  {
    name: 'share image /og/signal/AMD.png: the locked drawing ("Top signal · Pro", no score), never another image\'s label',
    kind: 'static',
    ask: async (caller) => {
      const response = await as(caller, '/og/signal/AMD.png');
      return { status: response.status, text: Buffer.from(await response.arrayBuffer()).toString('base64'), headers: response.headers };
    },
    expect: { anonymous: 'locked', free: 'same-for-all', pro: 'same-for-all' },
    locked: async (seen) => {
      expect(seen.status).toBe(200);
      const reference = await lockedImageAlone('AMD');
      expect(seen.text === reference, 'the published image is the locked ticker drawn alone').toBe(true);
    },
  },
];

/** The share image of a locked ticker drawn by itself (no other image's template before it), as base64. */
async function lockedImageAlone(ticker: Locked): Promise<string> {
  const dir = await mkdtemp(join(work, 'og-'));
  const record = site.history.latest.find((r) => r.ticker === ticker)!;
  const images = startShareImages([record], { cacheDir: join(dir, 'cache'), siteName: 'C-Score Signals', source: site.source, lockedTickers: new Set([ticker]) });
  await images.drawn;
  await images.place(join(dir, 'client'));
  return (await readFile(join(dir, 'client/og/signal', `${ticker}.png`))).toString('base64');
}

describe('PAYWALL=on: every route and file that can name a ticker, as anonymous, Free and Pro', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const seen: Partial<Record<Caller, Seen>> = {};
    for (const caller of CALLERS) seen[caller] = await row.ask(caller);
    for (const caller of CALLERS) {
      const answer = seen[caller]!;
      const where = `${row.name} as ${caller}`;
      const wanted = row.expect[caller];
      if (wanted === 'refused') {
        expect([401, 403, 404], where).toContain(answer.status);
        expect(answer.text, where).not.toContain('66.23');
        continue;
      }
      expect(answer.status, `${where}: ${answer.text.slice(0, 200)}`).toBe(row.status ?? 200);
      if (wanted === 'same-for-all') {
        expect(answer.text === seen.anonymous!.text, `${where}: the same file as anonymous`).toBe(true);
        continue;
      }
      if (wanted === 'locked') {
        const leaks = LOCKED_TEXTS.filter((value) => answer.text.includes(value));
        expect(leaks, `${where}: a locked score`).toEqual([]);
        await row.locked?.(answer);
      } else {
        expect(LOCKED_TEXTS.some((value) => answer.text.includes(value)), `${where}: a locked score is there`).toBe(true);
        row.full?.(answer);
      }
      // Cache headers: an answer made for a session never reaches a shared cache; a public one says it varies by cookie.
      const cache = answer.headers.get('cache-control') ?? '';
      if (row.samePublic) {
        expect(answer.text === seen.anonymous!.text, `${where}: the same answer as anonymous`).toBe(true);
      } else if (row.kind === 'live') {
        // The private feed is read by its secret address, not the session: private, kept briefly by the reader only.
        if (caller === 'pro') expect(cache, `${where}: cache-control`).toBe(row.name.includes('/alerts/feed/') ? 'private, max-age=300' : 'private, no-store');
        else if (!/private|no-store/.test(cache)) expect(answer.headers.get('vary') ?? '', `${where}: a public answer of a session route`).toMatch(/cookie/i);
      } else {
        expect(cache, `${where}: a static file is public`).not.toMatch(/private/);
      }
    }
  });

  it('no other text file of the build holds a locked score', async () => {
    const files = (await readdir(clientDir, { recursive: true })).filter((f) => /\.(html|json|xml|txt|csv)$/.test(f));
    expect(files.length).toBeGreaterThan(300);
    const leaks: string[] = [];
    for (const file of files) {
      const text = await readFile(join(clientDir, file), 'utf8');
      for (const value of LOCKED_TEXTS) if (text.includes(value)) leaks.push(`${file}: ${value}`);
    }
    expect(leaks).toEqual([]);
  });

  it('the cached quote stays CDN-cacheable for everyone (it reads no session)', async () => {
    for (const caller of CALLERS) {
      const quote = await as(caller, '/api/stock-price/NVDA');
      expect(quote.status).toBe(200);
      expect(quote.headers.get('cache-control')).toMatch(/^public/);
      expect(quote.headers.get('vary') ?? '').not.toMatch(/cookie/i);
    }
  });
});

describe('PAYWALL=on: every live answer that depends on the session is private', () => {
  const SESSION_ROUTES = [
    '/api/auth/user',
    '/api/auth/get-session',
    '/api/account',
    '/api/watchlist',
    '/api/alerts/settings',
    '/api/ai/status',
    '/api/ai/chats',
    '/api/pro/stock/NVDA',
    '/api/stock-complete-data/NVDA',
    '/api/market-sentiment/AMD',
    `/api/download-csv/{id}`,
  ];

  it.each(SESSION_ROUTES)('%s: private, no-store for a signed-in caller', async (route) => {
    const path = route.replace('{id}', archiveId);
    for (const caller of ['free', 'pro'] as const) {
      const answer = await as(caller, path);
      await answer.arrayBuffer();
      const cache = answer.headers.get('cache-control');
      const publicVariant = /stock-complete-data|market-sentiment/.test(path) && caller === 'free';
      if (publicVariant) {
        // A Free caller sees what anonymous sees: the public answer, which says it varies by cookie.
        expect(answer.headers.get('vary'), `${path} as ${caller}`).toMatch(/cookie/i);
      } else {
        expect(cache, `${path} as ${caller} (${answer.status})`).toBe('private, no-store');
      }
    }
  });
});

describe('PAYWALL=off: everyone sees everything, and the public answers stay CDN-cacheable', () => {
  it('stock-complete-data, market-sentiment and the downloads answer anonymous callers the scores, publicly cacheable', async () => {
    const open = await testAccounts({ paywall: false });
    const api = createApi({
      accounts: open,
      distDir: join(work, 'dist'),
      archiveDir: join(work, 'archive'),
      companyInfoFile: join(work, 'companies.json'),
      provider: new DemoProvider({ universe: await readUniverse(UNIVERSE_FILE), now: () => NOW }),
      siteUrl: SITE,
      now: () => NOW,
    });
    const app = createApp({ distDir: join(work, 'dist'), api });
    const openServer: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(openServer.address() as AddressInfo).port}`;
      for (const path of ['/api/stock-complete-data/AMD', '/api/market-sentiment/AMD', `/api/download-csv/${archiveId}`]) {
        const answer = await fetch(base + path);
        expect(answer.status, path).toBe(200);
        expect(await answer.text(), path).toContain('66.23');
        expect(answer.headers.get('cache-control'), path).toMatch(/^public/);
        expect(answer.headers.get('vary') ?? '', path).not.toMatch(/cookie/i);
      }
    } finally {
      await new Promise<void>((resolve) => openServer.close(() => resolve()));
      await open.dispose();
    }
  });
});

describe('the deploy rules: a CDN or nginx never keeps a session answer', () => {
  it('the Pages Function forwards /api/pro/* (a Pro answer, never a static file); neither it nor nginx caches what it forwards', () => {
    const include = (JSON.parse(routesFile()) as { include: string[] }).include;
    expect(include).toEqual(expect.arrayContaining(['/api/pro', '/api/pro/*', '/api/stock-complete-data/*', '/api/market-sentiment/*', '/api/download-csv/*']));
    const options = { scriptHashes: [], apiOrigin: 'https://api.signals.example' };
    expect(workerFile(options)).not.toMatch(/caches\.|cacheTtl|cacheEverything/);
    expect(nginxServerFile(options)).not.toMatch(/proxy_cache|proxy_ignore_headers/);
  });
});
