import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CompanyInfoSchema } from '../../src/lib/domain/site/api-responses';
import { QuoteSchema } from '../../src/lib/domain/market-data/market';
import { PolygonProvider } from '../../src/server/providers/polygon';
import { startFakePolygon, type FakeMode, type FakePolygon } from '../fixtures/fake-polygon';
import { buildSite, startApi, type BuiltSite, type RunningApi } from './api-harness';

const KEY = 'pk_test_9f8e7d6c5b4a39281706';
const START = Date.parse('2026-11-20T15:00:00Z');

let site: BuiltSite;
let fake: FakePolygon;
const logs: string[] = [];
const seen: string[] = [];

/** One app over a fresh Polygon provider, with a clock the test moves. */
interface Setup {
  api: RunningApi;
  provider: PolygonProvider;
  advance(ms: number): void;
}
let current: Setup | undefined;

async function setup(ratePerMinute = 5): Promise<Setup> {
  let clock = START;
  const now = () => clock;
  const provider = new PolygonProvider({ apiKey: KEY, baseUrl: fake.origin, ratePerMinute, timeoutMs: 1000, now, log: (line) => logs.push(line) });
  const api = await startApi(site, provider, now);
  current = { api, provider, advance: (ms) => (clock += ms) };
  return current;
}

async function body(api: RunningApi, path: string, init?: RequestInit): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await api.get(path, init);
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function callsTo(pattern: RegExp): number {
  return fake.calls.filter((path) => pattern.test(path)).length;
}

beforeAll(async () => {
  const previous = process.env.POLYGON_API_KEY;
  // The build runs with the key in its environment: the test below proves none of it reaches dist/client.
  process.env.POLYGON_API_KEY = KEY;
  try {
    site = await buildSite();
  } finally {
    if (previous === undefined) delete process.env.POLYGON_API_KEY;
    else process.env.POLYGON_API_KEY = previous;
  }
  fake = await startFakePolygon({ key: KEY });
});

afterEach(async () => {
  if (current) {
    seen.push(...current.api.seen);
    await current.api.close();
    current = undefined;
  }
  fake.mode = 'ok';
  fake.delayMs = 0;
  fake.forbid = null;
});

afterAll(async () => {
  await fake?.close();
  if (site) await rm(site.work, { recursive: true, force: true });
});

describe('the Polygon provider over the fake server', () => {
  it('builds quote shape B from the snapshot and the ticker details, and serves it from the cache', async () => {
    const { api, advance } = await setup();
    const first = await body(api, '/api/stock-price/AAPL');
    expect(first.status).toBe(200);
    const quote = QuoteSchema.parse(first.json);
    expect(quote).toMatchObject({
      symbol: 'AAPL',
      regularMarketPrice: 120.47,
      regularMarketChange: 0.98,
      regularMarketChangePercent: 0.82,
      regularMarketPreviousClose: 119.49,
      regularMarketOpen: 119.62,
      regularMarketDayHigh: 120.53,
      regularMarketDayLow: 118.81,
      regularMarketVolume: 28727868,
      marketCap: 2771126040150,
      fetchedAt: new Date(START).toISOString(),
    });
    for (const absent of ['trailingPE', 'eps', 'dividendYield', 'beta', 'isDemo']) expect(first.json).not.toHaveProperty(absent);
    const snapshots = callsTo(/snapshot/);
    expect((await body(api, '/api/stock-price/aapl')).json).toEqual(first.json);
    expect(callsTo(/snapshot/)).toBe(snapshots);
    advance(2 * 60_000 + 1);
    expect((await body(api, '/api/stock-price/AAPL')).status).toBe(200);
    expect(callsTo(/snapshot/)).toBe(snapshots + 1);
  });

  it('falls back to the previous close when the plan has no snapshot', async () => {
    const { api } = await setup();
    fake.forbid = /snapshot/;
    const { status, json } = await body(api, '/api/stock-price/MSFT');
    expect(status).toBe(200);
    expect(json).toMatchObject({ symbol: 'MSFT', regularMarketPrice: 115.97, regularMarketDayHigh: 117.59, regularMarketVolume: 131704427 });
    expect(json).not.toHaveProperty('regularMarketChange');
  });

  it('passes news, bars and ticker details through with the reference shapes, and the logo through our route', async () => {
    const { api } = await setup();
    const news = (await body(api, '/api/polygon/news/AAPL?limit=5')).json as { results: Record<string, unknown>[] };
    expect(news.results).toHaveLength(1);
    expect(news.results[0]).toEqual({
      id: '8ec638777ca03b553ae516761c2a22ba2fdd2f37befae3ab6fdab74e9e5193eb',
      title: 'Markets are underestimating Fed cuts: UBS By Investing.com - Investing.com UK',
      article_url: 'https://uk.investing.com/news/stock-market-news/markets-are-underestimating-fed-cuts-ubs-3559968',
      image_url: 'https://i-invdn-com.investing.com/news/LYNXNPEC4I0AL_L.jpg',
      published_utc: '2024-06-24T18:33:53Z',
      publisher: { name: 'Investing.com' },
      description: expect.stringContaining('UBS analysts'),
    });
    const aggs = (await body(api, '/api/polygon/aggs/AAPL?from=2026-11-01&to=2026-11-20')).json;
    expect((aggs.results as unknown[]).length).toBe(2);
    expect(aggs.isDemo).toBe(false);
    const details = (await body(api, '/api/polygon/ticker-details/AAPL')).json.results as Record<string, unknown>;
    expect(details).toMatchObject({ ticker: 'AAPL', name: 'Apple Inc.', market_cap: 2771126040150, branding: { logo_url: '/api/polygon/logo/AAPL' } });
    const logo = await api.get('/api/polygon/logo/AAPL');
    expect(logo.status, logs.join('\n')).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.headers.get('content-security-policy')).toContain('sandbox');
    expect(await logo.text()).toContain('<svg');
    expect((await api.get('/api/polygon/logo/JPM')).status).toBe(404);
  });

  it('answers per ticker as the fake is told (the e2e fixture): one ticker down upstream, another with its own news', async () => {
    const article = (n: number) => ({ id: `m${n}`, title: `Microsoft news ${n}`, article_url: `https://news.example.com/m${n}`, published_utc: '2026-11-19T12:00:00Z', publisher: { name: 'Wire' } });
    const special = await startFakePolygon({ key: KEY, tickers: { NVDA: { down: true }, MSFT: { news: [1, 2, 3, 4, 5].map(article) } } });
    try {
      const provider = new PolygonProvider({ apiKey: KEY, baseUrl: special.origin, ratePerMinute: 100, timeoutMs: 1000, now: () => START, log: (line) => logs.push(line) });
      current = { api: await startApi(site, provider, () => START), provider, advance: () => undefined };
      const { api } = current;
      expect((await api.get('/api/stock-price/NVDA')).status).toBe(503);
      expect((await body(api, '/api/polygon/news/NVDA')).json).toEqual({ results: [] });
      expect(special.calls.filter((path) => path.includes('NVDA')).length).toBeGreaterThan(0);
      expect((await body(api, '/api/stock-price/AAPL')).json).toMatchObject({ symbol: 'AAPL', regularMarketPrice: 120.47 });
      const news = (await body(api, '/api/polygon/news/MSFT?limit=3')).json.results as { title: string }[];
      expect(news.map((a) => a.title)).toEqual(['Microsoft news 1', 'Microsoft news 2', 'Microsoft news 3']);
      expect(((await body(api, '/api/polygon/news/AAPL')).json.results as unknown[]).length).toBe(1);
    } finally {
      await special.close();
    }
  });

  it('merges identical requests in flight into one upstream call', async () => {
    const { api } = await setup();
    fake.delayMs = 150;
    const before = callsTo(/reference\/news/);
    const answers = await Promise.all(Array.from({ length: 8 }, () => body(api, '/api/polygon/news/NVDA?limit=5')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(callsTo(/reference\/news/)).toBe(before + 1);
  });

  it('keeps to the per-minute budget shared by all routes, never blocking, and spends it again a minute later', async () => {
    const { api, provider, advance } = await setup(3);
    const before = fake.calls.length;
    for (const ticker of ['AAPL', 'MSFT', 'NVDA']) expect((await body(api, `/api/polygon/ticker-details/${ticker}`)).status).toBe(200);
    expect(fake.calls.length).toBe(before + 3);
    const started = performance.now();
    expect((await body(api, '/api/polygon/news/AAPL')).json).toEqual({ results: [] });
    expect((await body(api, '/api/polygon/aggs/MSFT')).json.results).toEqual([]);
    expect((await body(api, '/api/stock-price/JPM')).status).toBe(503);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(fake.calls.length).toBe(before + 3);
    expect(provider.status()).toMatchObject({ budgetPerMinute: 3, budgetRemaining: 0 });
    advance(60_001);
    expect(((await body(api, '/api/polygon/news/BRK.B')).json.results as unknown[]).length).toBe(1);
    expect(fake.calls.length).toBe(before + 4);
  });

  it.each<[FakeMode]>([[429], [500], ['hang'], ['malformed'], [401]])('serves the last good answer when Polygon answers %s', async (mode) => {
    const { api, advance, provider } = await setup();
    const good = await body(api, '/api/polygon/news/AAPL?limit=3');
    expect((good.json.results as unknown[]).length).toBe(1);
    fake.mode = mode;
    advance(6 * 60_000);
    const before = fake.calls.length;
    const started = performance.now();
    const stale = await body(api, '/api/polygon/news/AAPL?limit=3');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(fake.calls.length).toBe(before + 1);
    expect(stale).toEqual(good);
    expect(provider.status().lastCallOk).toBe(false);
  });

  it.each<[FakeMode]>([[401], [403], [429], [500], ['hang'], ['malformed']])('answers the empty result when Polygon answers %s and nothing is cached', async (mode) => {
    const { api, provider } = await setup();
    fake.mode = mode;
    expect((await body(api, '/api/polygon/news/MSFT')).json).toEqual({ results: [] });
    expect((await body(api, '/api/polygon/ticker-details/MSFT')).json).toEqual({ results: null });
    expect((await body(api, '/api/polygon/price/MSFT')).json).toMatchObject({ results: [] });
    expect((await body(api, '/api/earnings-date/MSFT')).json).toEqual({ earningsAvailable: false, earningsDate: null, nextEarningsDate: null });
    const quote = await body(api, '/api/stock-price/MSFT');
    expect(quote.status).toBe(503);
    expect(quote.json.error).toMatch(/try again in a minute/);
    const health = (await body(api, '/api/health')).json.provider as Record<string, unknown>;
    expect(health).toMatchObject({ name: 'polygon', lastCallOk: false });
    expect(String(health.lastError)).toMatch(mode === 'hang' ? /within 1000 ms/ : mode === 'malformed' ? /not JSON/ : new RegExp(String(mode)));
    expect(provider.status().lastCallOk).toBe(false);
  });

  it('reads all three error body styles into the log', async () => {
    await setup();
    logs.length = 0;
    fake.mode = 401;
    await body(current!.api, '/api/polygon/news/AAPL');
    fake.mode = 403;
    await body(current!.api, '/api/polygon/news/MSFT');
    fake.mode = 500;
    await body(current!.api, '/api/polygon/news/NVDA');
    expect(logs.join('\n')).toContain('Unknown API Key');
    expect(logs.join('\n')).toContain('You are not entitled to this data');
    expect(logs.join('\n')).toContain('500: 500 Internal Server Error');
  });

  it('reports health: null before any call, then the last call', async () => {
    const { api } = await setup();
    expect(((await body(api, '/api/health')).json.provider as Record<string, unknown>).lastCallOk).toBeNull();
    await body(api, '/api/polygon/news/JPM');
    expect(((await body(api, '/api/health')).json.provider as Record<string, unknown>).lastCallOk).toBe(true);
  });

  it('syncs the company store under the budget and resumes where it stopped; company info then uses it', async () => {
    const { api, advance } = await setup(3);
    const calls = fake.calls.length;
    expect((await body(api, '/api/polygon/sync-company-info?skipExisting', { method: 'POST' })).status).toBe(401);
    expect((await body(api, '/api/polygon/sync-company-info?skipExisting', { method: 'POST', headers: api.member })).status).toBe(403);
    expect(fake.calls.length).toBe(calls);
    const first = (await body(api, '/api/polygon/sync-company-info?skipExisting', { method: 'POST', headers: api.operator })).json;
    expect(first).toMatchObject({ provider: 'polygon', synced: 3, remaining: 2, done: false });
    expect(String(first.message)).toMatch(/call this route again/);
    advance(60_001);
    const second = (await body(api, '/api/polygon/sync-company-info?skipExisting', { method: 'POST', headers: api.operator })).json;
    expect(second).toMatchObject({ synced: 2, remaining: 0, done: true, skipped: 3 });
    const store = JSON.parse(await readFile(site.companyInfoFile, 'utf8'));
    expect(Object.keys(store.companies).sort()).toEqual(['AAPL', 'BRK.B', 'JPM', 'MSFT', 'NVDA']);
    expect(store.companies.AAPL).toMatchObject({ name: 'Apple Inc.', industry: 'ELECTRONIC COMPUTERS', homepageUrl: 'https://www.apple.com', employees: 154000 });
    expect(store.companies.JPM).not.toHaveProperty('name');
    const info = CompanyInfoSchema.parse((await body(api, '/api/company-info/AAPL')).json);
    expect(info).toMatchObject({ descriptionSource: 'provider', website: 'https://www.apple.com/', logoUrl: '/api/polygon/logo/AAPL', marketCap: 2771126040150 });
    expect(info.longBusinessSummary).toMatch(/^Apple designs/);
  });

  it('never lets the key out: not in an answer, a header, a log line, the store, a URL or dist/client', async () => {
    const { api } = await setup();
    for (const path of ['/api/stock-price/AAPL', '/api/polygon/ticker-details/AAPL', '/api/polygon/company-info/AAPL', '/api/health', '/api/polygon/logo/AAPL']) {
      await api.get(path);
    }
    fake.mode = 401;
    await api.get('/api/polygon/news/JPM?limit=2');
    seen.push(...api.seen);
    expect(seen.length).toBeGreaterThan(20);
    for (const answer of seen) expect(answer).not.toContain(KEY);
    for (const line of logs) expect(line).not.toContain(KEY);
    for (const url of fake.urls) expect(url).not.toContain(KEY);
    expect(fake.authorizations.every((header) => header === `Bearer ${KEY}`)).toBe(true);
    expect(await readFile(site.companyInfoFile, 'utf8').catch(() => '')).not.toContain(KEY);
    const client = join(site.distDir, 'client');
    const files = (await readdir(client, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      expect((await readFile(join(file.parentPath, file.name))).includes(KEY), file.name).toBe(false);
    }
  });
});
