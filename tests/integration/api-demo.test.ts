import { readFile } from 'node:fs/promises';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readArchive } from '../../src/storage/archive';
import {
  ArchiveFileListingSchema,
  CompanyDescriptionSchema,
  CompanyInfoSchema,
  CompanyNameRecordSchema,
  MarketSentimentSchema,
  TickerMetricsSchema,
} from '../../src/lib/domain/site/api-responses';
import { BarSchema, EarningsSchema, QuoteSchema, TickerDetailsSchema } from '../../src/lib/domain/market-data/market';
import { SignalRecordSchema } from '../../src/lib/domain/report/schemas';
import { DemoProvider } from '../../src/server/providers/demo';
import { buildSite, startApi, universeOf, type BuiltSite, type RunningApi } from './api-harness';

let site: BuiltSite;
let api: RunningApi;

beforeAll(async () => {
  site = await buildSite();
  const now = () => Date.parse('2026-11-20T15:00:00Z');
  api = await startApi(site, new DemoProvider({ universe: await universeOf(site), now }), now);
});

afterAll(async () => {
  await api?.close();
  if (site) await rm(site.work, { recursive: true, force: true });
});

async function json(path: string, init?: RequestInit): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await api.get(path, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, response };
}

const TrendSchema = z.object({
  ticker: z.string(),
  reportDate: z.string(),
  trend: z.array(z.object({ date: z.string(), cScore: z.number() })).min(1),
});
const SimilarSchema = z.array(z.object({ ticker: z.string(), cScore: z.number() }));

describe('static daily-data routes (spec section 7)', () => {
  it.each([
    ['/api/all-signals', z.array(SignalRecordSchema).length(5)],
    ['/api/stock/AAPL', SignalRecordSchema],
    ['/api/stock/BRK.B', SignalRecordSchema],
    ['/api/ticker-metrics/AAPL', TickerMetricsSchema],
    ['/api/c-score-trend/AAPL', TrendSchema],
    ['/api/similar-tickers/AAPL', SimilarSchema],
    ['/api/company-name/BRK.B', CompanyNameRecordSchema],
    ['/api/company-names', z.array(CompanyNameRecordSchema).length(5)],
    ['/api/company-description/AAPL', CompanyDescriptionSchema],
    ['/api/company-descriptions', z.array(CompanyDescriptionSchema).length(5)],
    ['/api/excel-files', z.array(ArchiveFileListingSchema).length(3)],
    ['/api/csv-files', z.array(ArchiveFileListingSchema).length(3)],
  ])('%s answers its shape as JSON', async (path, schema) => {
    const { status, body, response } = await json(path);
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(schema.safeParse(body).error).toBeUndefined();
  });

  it('answers the metrics and trend with the record of the latest report', async () => {
    const metrics = TickerMetricsSchema.parse((await json('/api/ticker-metrics/AAPL')).body);
    expect(metrics).toMatchObject({ ticker: 'AAPL', reportDate: '2026-11-20', countL7D: 0, countL14D: 0 });
    const trend = (await json('/api/c-score-trend/AAPL')).body as { trend: Record<string, unknown>[] };
    expect(trend.trend.filter((p) => !p.is7DayAvg && !p.is14DayAvg).map((p) => p.cScore)).toEqual([70, 72, 80]);
    expect(trend.trend.at(-1)).toMatchObject({ date: '2026-11-20', isCurrentDay: true });
  });

  it('answers HEAD on a description (the availability probe)', async () => {
    expect((await api.get('/api/company-description/AAPL', { method: 'HEAD' })).status).toBe(200);
    expect((await api.get('/api/company-description/ZZZZ', { method: 'HEAD' })).status).toBe(404);
  });

  it('redirects a lower-case ticker to the upper-case address, for the JSON and the page', async () => {
    const json = await api.get('/api/stock/brk.b?x=1');
    expect(json.status).toBe(301);
    expect(json.headers.get('location')).toBe('/api/stock/BRK.B?x=1');
    const page = await api.get('/signal/aapl');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/signal/AAPL');
    expect((await api.get('/signal/AAPL')).status).toBe(200);
  });

  it('answers an unknown or malformed ticker page with the built Stock Not Found page, 404, readable without JavaScript', async () => {
    for (const path of ['/signal/ZZZZ', '/signal/@@']) {
      const response = await api.get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toContain('<title>Stock Not Found | ');
      expect(html).toMatch(/<h1[^>]*>Stock Not Found<\/h1>/);
      expect(html).toContain('Please select a valid ticker.');
      expect(html).toMatch(/<a href="\/"[^>]*>Back to Dashboard<\/a>/);
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).not.toContain('Page not found');
    }
    const other = await api.get('/nope');
    expect(other.status).toBe(404);
    const html = await other.text();
    expect(html).toMatch(/<h1[^>]*>Page not found<\/h1>/);
    expect(html).not.toContain('Stock Not Found');
  });

  it('answers 400 with what is wrong for a malformed ticker and 404 naming the report for an unknown one', async () => {
    for (const path of ['/api/stock/AA$PL', '/api/ticker-metrics/ABCDEFGHIJKL', '/api/c-score-trend/%3Cscript%3E', '/api/similar-tickers/A%00B']) {
      const { status, body } = await json(path);
      expect(status, path).toBe(400);
      expect((body as { error: string }).error).toMatch(/ticker/i);
    }
    const { status, body } = await json('/api/stock/ZZZZ');
    expect(status).toBe(404);
    expect(body).toEqual({ error: expect.stringContaining('No signal for ZZZZ in the report of 2026-11-20') });
  });
});

describe('live routes with the demo provider', () => {
  it('answers a deterministic demo quote, shape B, without invented fundamentals', async () => {
    const first = await json('/api/stock-price/aapl');
    expect(first.status).toBe(200);
    const quote = QuoteSchema.parse(first.body);
    expect(quote).toMatchObject({ symbol: 'AAPL', isDemo: true });
    expect(quote.regularMarketPrice).toBeGreaterThan(0);
    for (const absent of ['marketCap', 'trailingPE', 'eps', 'dividendYield', 'beta']) expect(first.body).not.toHaveProperty(absent);
    expect((await json('/api/stock-price/AAPL')).body).toEqual(first.body);
  });

  it('answers the empty states for earnings, news and the logo', async () => {
    expect(EarningsSchema.parse((await json('/api/earnings-date/AAPL')).body)).toMatchObject({ earningsAvailable: false, earningsDate: null });
    expect((await json('/api/polygon/news/AAPL?limit=5')).body).toEqual({ results: [] });
    expect((await api.get('/api/polygon/logo/AAPL')).status).toBe(404);
  });

  it('answers bars, the previous close and ticker details from the universe file', async () => {
    const aggs = (await json('/api/polygon/aggs/AAPL?from=2026-11-02&to=2026-11-13')).body as { results: unknown[]; isDemo: boolean };
    expect(z.array(BarSchema).length(10).parse(aggs.results)).toHaveLength(10);
    // The chart's price panel labels these "Demo prices".
    expect(aggs.isDemo).toBe(true);
    const byDefault = (await json('/api/polygon/aggs/AAPL')).body as { from: string; to: string };
    expect(byDefault).toMatchObject({ from: '2026-11-06', to: '2026-11-20' });
    expect(((await json('/api/polygon/price/MSFT')).body as { results: unknown[] }).results).toHaveLength(1);
    const details = (await json('/api/polygon/ticker-details/AAPL')).body as { results: unknown };
    expect(TickerDetailsSchema.parse(details.results)).toMatchObject({ ticker: 'AAPL', name: 'Apple Inc.' });
    for (const bad of ['from=2026-13-01', 'from=2026-11-20&to=2026-11-01', 'from=2020-01-01&to=2026-01-01', 'to=yesterday']) {
      expect((await json(`/api/polygon/aggs/AAPL?${bad}`)).status, bad).toBe(400);
    }
    expect((await json('/api/polygon/news/AAPL?limit=500')).status).toBe(400);
  });

  it('answers company info, sentiment and the complete data', async () => {
    const info = CompanyInfoSchema.parse((await json('/api/company-info/AAPL')).body);
    expect(info).toMatchObject({ longName: 'Apple Inc.', sector: 'Information Technology', descriptionSource: 'generated', logoUrl: null, marketCap: null });
    expect((await json('/api/polygon/company-info/AAPL')).body).toMatchObject({ companyName: 'Apple Inc.', logoUrl: null, description: expect.any(String) });
    expect(MarketSentimentSchema.parse((await json('/api/market-sentiment/AAPL')).body)).toMatchObject({ sentiment: 'bullish', cScore: 80, trend: 'up' });
    const complete = (await json('/api/stock-complete-data/NVDA')).body as Record<string, unknown>;
    expect(Object.keys(complete).sort()).toEqual(['companyInfo', 'metrics', 'reportDate', 'similarTickers', 'stock', 'ticker']);
  });

  it('looks up company names and saves a name only where the store has none', async () => {
    const names = await json('/api/polygon/company-names', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tickers: ['aapl', 'MSFT', 'ZZZZ', 7] }) });
    expect(names.body).toEqual({ AAPL: 'Apple Inc.', MSFT: 'Microsoft' });
    const post = (body: unknown) => json('/api/save-company-name', { method: 'POST', headers: { 'Content-Type': 'application/json', ...api.operator }, body: JSON.stringify(body) });
    expect((await post({ ticker: 'nvda', companyName: 'NVIDIA Corporation' })).body).toEqual({ ticker: 'NVDA', companyName: 'NVIDIA Corporation', saved: true });
    expect((await post({ ticker: 'NVDA', companyName: 'Other' })).body).toMatchObject({ companyName: 'NVIDIA Corporation', saved: false });
    expect((await post({ ticker: 'NVDA' })).status).toBe(400);
    expect((await post({ ticker: 'ZZZZ', companyName: 'X' })).status).toBe(404);
    expect((await json('/api/save-company-name', { method: 'POST', headers: api.operator, body: 'not json' })).status).toBe(415);
    const store = JSON.parse(await readFile(site.companyInfoFile, 'utf8'));
    expect(store.companies.NVDA.name).toBe('NVIDIA Corporation');
  });

  it('refuses a request with every problem listed at once, and an example that works', async () => {
    const refused = await json('/api/save-company-name', { method: 'POST', headers: { 'Content-Type': 'application/json', ...api.operator }, body: JSON.stringify({ ticker: '@@', companyName: '' }) });
    expect(refused.status).toBe(400);
    const error = (refused.body as { error: string }).error;
    expect(error).toMatch(/^The JSON body has 2 problems: ticker: .+; companyName: must not be empty\./);
    expect(error).toContain('Send one like {"ticker": "AAPL", "companyName": "Apple Inc."}');
    const window = (await json('/api/polygon/aggs/AAPL?from=2026-13-01&to=yesterday')).body as { error: string };
    expect(window.error).toMatch(/^The query has 2 problems: from: .+; to: .+/);
  });

  it('says the demo provider has nothing to sync, and reports its health', async () => {
    expect((await json('/api/polygon/sync-company-info?skipExisting', { method: 'POST', headers: api.operator })).body).toMatchObject({ provider: 'demo', done: true, synced: 0 });
    const health = (await json('/api/health')).body;
    expect(health).toMatchObject({ status: 'ok', reportDate: '2026-11-20', tickers: 5, provider: { name: 'demo', lastCallOk: true } });
    expect(health).toHaveProperty('builtAt');
  });
});

describe('the spec\'s auth routes', () => {
  it('answers the user as signed out, without an error status the browser would log', async () => {
    const user = await json('/api/auth/user');
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ isAuthenticated: false, user: null });
  });

  it.each([
    ['/api/auth/login?returnTo=%2Fsignal%2FAAPL%3Ftab%3D1', '/login?returnTo=%2Fsignal%2FAAPL%3Ftab%3D1'],
    ['/api/auth/login?returnTo=%2F%2Fevil.example', '/login?returnTo=%2F'],
    ['/api/auth/login?returnTo=%2F%5Cevil.example', '/login?returnTo=%2F'],
    ['/api/auth/login?returnTo=https%3A%2F%2Fevil.example', '/login?returnTo=%2F'],
    ['/api/auth/login?returnTo=%2F%09%2Fevil.example', '/login?returnTo=%2F'],
    ['/api/auth/login', '/login?returnTo=%2F'],
    ['/api/auth/logout?returnTo=https%3A%2F%2Fsignals.example', '/'],
    ['/api/auth/logout?returnTo=https%3A%2F%2Fsignals.example%2Farchives', '/archives'],
    ['/api/auth/logout?returnTo=https%3A%2F%2Fevil.example%2Fx', '/'],
    ['/api/auth/logout?returnTo=javascript%3Aalert(1)', '/'],
    ['/api/auth/logout?returnTo=%2Fwatchlist', '/watchlist'],
  ])('%s redirects to %s', async (path, location) => {
    const response = await api.get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(location);
  });

  it('accepts the request origin itself as a logout return', async () => {
    const response = await api.get(`/api/auth/logout?returnTo=${encodeURIComponent(`${api.origin}/learn`)}`);
    expect(response.headers.get('location')).toBe('/learn');
  });
});

describe('operator-only writes (ADMIN_EMAILS)', () => {
  const body = JSON.stringify({ ticker: 'JPM', companyName: 'Someone Else' });
  const post = (headers: Record<string, string>) => json('/api/save-company-name', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  it('refuses a company name from anyone but an operator, writing nothing', async () => {
    const before = await readFile(site.companyInfoFile, 'utf8').catch(() => '');
    const anonymous = await post({});
    expect([anonymous.status, anonymous.body]).toEqual([401, { error: 'Sign in as an operator first.' }]);
    const member = await post(api.member);
    expect([member.status, member.body]).toEqual([403, { error: 'Only an operator may do this.' }]);
    expect(await readFile(site.companyInfoFile, 'utf8').catch(() => '')).toBe(before);
  });

  it('refuses an operator\'s cookie sent from another site', async () => {
    const forged = await post({ ...api.operator, origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((forged.body as { error: string }).error).toMatch(/did not come from this site/);
  });

  it('answers the sync\'s GET with 401 signed out, 403 for a member, and 405 naming POST for an operator', async () => {
    expect((await json('/api/polygon/sync-company-info')).status).toBe(401);
    expect((await json('/api/polygon/sync-company-info', { method: 'POST' })).status).toBe(401);
    expect((await json('/api/polygon/sync-company-info', { headers: api.member })).status).toBe(403);
    const get = await json('/api/polygon/sync-company-info', { headers: api.operator });
    expect([get.status, get.response.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('downloads', () => {
  it('sends the raw file as archived, with a file name', async () => {
    const files = await readArchive(site.archiveDir);
    const xlsx = files.find((f) => f.kind === 'xlsx')!;
    const response = await api.get(`/api/download-excel/${xlsx.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="signals-2026-11-20.xlsx"');
    const raw = await readFile(join(site.archiveDir, 'files', `${xlsx.id}.xlsx`));
    expect(Buffer.from(await response.arrayBuffer()).equals(raw)).toBe(true);
  });

  it('sends CSV with formula cells neutralized and numbers untouched', async () => {
    const files = await readArchive(site.archiveDir);
    const csv = files.find((f) => f.fileName === 'signals-2026-11-19.csv')!;
    const response = await api.get(`/api/download-csv/${csv.id}`);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="signals-2026-11-19.csv"');
    const text = await response.text();
    expect(text).toContain(`AAPL,"'=HYPERLINK(""http://evil"")",2026-11-19`);
    expect(text).toContain('MSFT,Microsoft,2026-11-19,-66,');

    const xlsx = files.find((f) => f.kind === 'xlsx')!;
    const summary = await api.get(`/api/download-csv/${xlsx.id}?sheetId=0`);
    expect(summary.headers.get('content-disposition')).toBe('attachment; filename="signals-2026-11-20-Summary.csv"');
    expect(await summary.text()).toBe("Note,Count\r\n'@SUM(1+1),5\r\n'-2+3,-4.5\r\n");
    const signals = await (await api.get(`/api/download-csv/${xlsx.id}`)).text();
    expect(signals.split('\r\n')[1]).toBe('AAPL,Apple Inc.,2026-11-20,80,1,2,3,4,5,6,7,0,0,FALSE');
  });

  it('answers 400 for an id or sheet that is malformed and 404 for one that is unknown, never reaching outside the archive', async () => {
    const files = await readArchive(site.archiveDir);
    expect((await json('/api/download-csv/0123456789abcdef')).status).toBe(404);
    expect((await json(`/api/download-csv/${files[0]!.id}?sheetId=7`)).status).toBe(404);
    expect((await json(`/api/download-csv/${files[0]!.id}?sheetId=-1`)).status).toBe(400);
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2E%2E', 'index', '0123456789ABCDEF', `${files[0]!.id}.csv`]) {
      const { status } = await json(`/api/download-excel/${id}`);
      expect([400, 404], id).toContain(status);
    }
  });
});

describe('methods', () => {
  it('answers 405 with Allow for a live route asked with the wrong method', async () => {
    const del = await api.get('/api/stock-price/AAPL', { method: 'DELETE' });
    expect([del.status, del.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const get = await api.get('/api/save-company-name');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await api.get('/api/stock/AAPL', { method: 'POST' })).status).toBe(405);
    expect((await api.get('/api/stock-price/AAPL', { method: 'HEAD' })).status).toBe(200);
  });
});

describe('no input makes a route answer 500', () => {
  const routes = [
    'stock', 'ticker-metrics', 'c-score-trend', 'similar-tickers', 'company-name', 'company-description', 'stock-price', 'earnings-date',
    'market-sentiment', 'stock-complete-data', 'company-info', 'polygon/company-info', 'polygon/ticker-details', 'polygon/price',
    'polygon/aggs', 'polygon/news', 'polygon/logo', 'download-csv', 'download-excel',
  ];
  const inputs = ['', '%', '%ZZ', '..', '.', '-', 'A'.repeat(300), '%C0%AE', 'aapl%2F..', '%F0%9F%92%A9', 'A.B-C', "'OR'1'='1"];
  it('answers every route and odd input below 500', async () => {
    for (const route of routes) {
      for (const input of inputs) {
        const response = await api.get(`/api/${route}/${input}?limit=x&from=%&sheetId=%00`);
        expect(response.status, `/api/${route}/${input}`).toBeLessThan(500);
        await response.arrayBuffer();
      }
    }
  });
});

// Last in the file: it closes the accounts database.
describe('anonymous paths', () => {
  it('do no session work: the quote, static JSON, pages and the signed-out user answer with the accounts database closed', async () => {
    await api.get('/api/stock-price/AAPL');
    await api.accounts.database.db.destroy();
    // Even with a session cookie, these paths never read it.
    expect((await api.get('/api/stock-price/AAPL', { headers: api.operator })).status).toBe(200);
    expect((await api.get('/api/stock/AAPL', { headers: api.operator })).status).toBe(200);
    expect((await api.get('/', { headers: api.operator })).status).toBe(200);
    expect(await (await api.get('/api/auth/user')).json()).toEqual({ isAuthenticated: false, user: null });
  });
});
