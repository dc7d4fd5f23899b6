/**
 * Requests and the small rules: body limits (413), JSON routes that take JSON only, names without invisible
 * characters, the upstream budget (a reserved share for quotes, a per-client allowance, short aggs windows),
 * percent-encoded Location headers, and ASCII-only ticker upper-casing in addresses. Real app on loopback, fake Polygon.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PolygonProvider } from '../../src/server/providers/polygon';
import { startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';
import { buildSite, SITE, startApi, type BuiltSite, type RunningApi } from './api-harness';

const KEY = 'pk_test_requests_0123456789';
const START = Date.parse('2026-11-20T15:00:00Z');

let site: BuiltSite;
let fake: FakePolygon;
let running: RunningApi | undefined;

beforeAll(async () => {
  site = await buildSite();
  fake = await startFakePolygon({ key: KEY });
}, 300_000);
afterAll(async () => {
  await fake?.close();
  if (site) await rm(site.work, { recursive: true, force: true });
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: { reservedPerMinute?: number; clientPerMinute?: number } = {}): Promise<RunningApi> {
  const provider = new PolygonProvider({ apiKey: KEY, baseUrl: fake.origin, ratePerMinute: 5, timeoutMs: 1000, now: () => START, log: () => undefined, ...options });
  running = await startApi(site, provider, () => START);
  return running;
}

/** A raw HTTP request from a chosen loopback address (another client), with the headers as given. */
function raw(origin: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: init.method ?? 'GET', headers: init.headers, localAddress: init.from },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    // A declared 400 MB body is never sent: the server must answer from the header alone.
    if (init.headers?.['content-length'] === undefined || Number(init.headers['content-length']) === Buffer.byteLength(init.body ?? '')) req.end();
  });
}

describe('body limits', () => {
  it('answers 413 from the Content-Length of a 400 MB POST, without waiting for the body', async () => {
    const api = await start();
    const started = performance.now();
    const answer = await raw(api.origin, '/api/polygon/company-names', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(400 * 1024 * 1024) }, body: '{"tickers":[' });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'The request body is larger than 32,768 bytes, the most POST /api/polygon/company-names accepts.' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('answers 413 to a chunked body once it passes the limit, on the API and on static paths', async () => {
    const api = await start();
    const big = JSON.stringify({ tickers: Array.from({ length: 5000 }, (_, i) => `T${i}`) });
    const chunked = await raw(api.origin, '/api/polygon/company-names', { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
    const response = await api.get('/all-signals', { method: 'POST', body: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('The request body is larger than 16,384 bytes, the most POST /all-signals accepts.');
    // A body within the limit is read as before.
    const small = await api.get('/api/polygon/company-names', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tickers":["AAPL"]}' });
    expect(await small.json()).toEqual({ AAPL: 'Apple Inc.' });
  });
});

describe('JSON routes and names', () => {
  it('refuse a body that is not sent as application/json (another site can post text/plain without a preflight)', async () => {
    const api = await start();
    const body = JSON.stringify({ ticker: 'NVDA', companyName: 'Changed Corp' });
    const plain = await api.get('/api/save-company-name', { method: 'POST', headers: { ...api.operator, 'content-type': 'text/plain' }, body });
    expect(plain.status).toBe(415);
    expect((await plain.json()).error).toBe('The body must be JSON sent with "Content-Type: application/json", like {"ticker": "AAPL", "companyName": "Apple Inc."}.');
    const names = await api.get('/api/polygon/company-names', { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '{"tickers":["AAPL"]}' });
    expect(names.status).toBe(415);
    // Nothing was written: the store file was never created.
    await expect(readFile(site.companyInfoFile, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('strip right-to-left overrides and zero-width characters from a saved company name', async () => {
    const api = await start();
    const saved = await api.get('/api/save-company-name', {
      method: 'POST',
      headers: { ...api.operator, 'content-type': 'application/json' },
      body: JSON.stringify({ ticker: 'jpm', companyName: '\u202eJPMorgan\u200b Chase\u2066' }),
    });
    expect(await saved.json()).toEqual({ ticker: 'JPM', companyName: 'JPMorgan Chase', saved: true });
    const hidden = await api.get('/api/save-company-name', {
      method: 'POST',
      headers: { ...api.operator, 'content-type': 'application/json' },
      body: JSON.stringify({ ticker: 'NVDA', companyName: '\u200b\u200d\u202e' }),
    });
    expect(hidden.status).toBe(400);
    expect((await hidden.json()).error).toContain('companyName: must not be empty');
  });

  it('never run the company sync from a GET (an <img> on another site cannot start it)', async () => {
    const api = await start();
    const before = fake.calls.length;
    const answer = await api.get('/api/polygon/sync-company-info', { headers: api.operator });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(fake.calls.length).toBe(before);
  });
});

describe('the upstream budget', () => {
  it('keeps a share for quotes: six aggs windows spend the pages\' share, and the quote still answers', async () => {
    const api = await start({ reservedPerMinute: 2 });
    const before = fake.calls.length;
    const windows = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'];
    const answers = await Promise.all(windows.map(async (from) => (await (await api.get(`/api/polygon/aggs/AAPL?from=${from}&to=2026-11-20`)).json()).results.length));
    expect(answers.filter((n) => n > 0)).toHaveLength(3);
    expect(fake.calls.length).toBe(before + 3);
    const quote = await api.get('/api/stock-price/MSFT');
    expect(quote.status).toBe(200);
    expect((await quote.json()).symbol).toBe('MSFT');
  });

  it('holds one client to its allowance of upstream calls (429 with Retry-After), while cached answers and other clients go on', async () => {
    const api = await start({ clientPerMinute: 2 });
    for (const from of ['2026-11-01', '2026-11-02']) expect((await api.get(`/api/polygon/aggs/AAPL?from=${from}&to=2026-11-20`)).status).toBe(200);
    const refused = await api.get('/api/polygon/aggs/AAPL?from=2026-11-03&to=2026-11-20');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^This client has used its 2 market-data calls a minute; the answer is not cached yet\. Try again in \d+ s\.$/);
    // The same window again is cached: it costs nothing.
    expect((await api.get('/api/polygon/aggs/AAPL?from=2026-11-01&to=2026-11-20')).status).toBe(200);
    // The refusal is this client's, not remembered as the answer: another client gets the window.
    const other = await raw(api.origin, '/api/polygon/aggs/AAPL?from=2026-11-03&to=2026-11-20', { from: '127.0.0.2' });
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).results.length).toBeGreaterThan(0);
  });

  it('limits aggs windows to a month ending no later than today', async () => {
    const api = await start();
    const long = await api.get('/api/polygon/aggs/AAPL?from=2026-09-01&to=2026-11-20');
    expect(long.status).toBe(400);
    expect((await long.json()).error).toContain('2026-09-01 to 2026-11-20 is longer than 31 days: ask for a shorter window');
    const future = await api.get('/api/polygon/aggs/AAPL?from=2026-11-20&to=2026-12-01');
    expect(future.status).toBe(400);
    expect((await future.json()).error).toContain('2026-12-01 is after today (2026-11-20): there are no bars yet');
  });
});

describe('addresses', () => {
  it('percent-encodes a Location header to a non-ASCII path', async () => {
    const api = await start();
    const logout = await raw(api.origin, `/api/auth/logout?returnTo=${encodeURIComponent('/signal/ÄPFEL?q=ü')}`);
    expect(logout.status).toBe(302);
    expect(logout.headers.location).toBe('/signal/%C3%84PFEL?q=%C3%BC');
    const absolute = await raw(api.origin, `/api/auth/logout?returnTo=${encodeURIComponent(`${SITE}/über`)}`);
    expect(absolute.headers.location).toBe('/%C3%BCber');
  });

  it('upper-cases tickers in ASCII only, and leaves /signal/index.html alone', async () => {
    const api = await start();
    expect((await api.get('/signal/aapl')).headers.get('location')).toBe('/signal/AAPL');
    const dotless = await api.get(`/signal/${encodeURIComponent('ıbm')}`);
    expect(dotless.status).toBe(404);
    expect((await api.get('/signal/index.html')).status).not.toBe(301);
    const sharp = await api.get(`/api/stock-price/${encodeURIComponent('ß')}`);
    expect(sharp.status).toBe(400);
  });
});

describe('the Content-Security-Policy', () => {
  it('allows no inline script but the page\'s own, by hash: script-src has no \'unsafe-inline\'', async () => {
    const api = await start();
    for (const path of ['/', '/all-signals', '/signal/AAPL', '/learn', '/signal/ZZZZ']) {
      const response = await api.get(path);
      const policy = response.headers.get('content-security-policy')!;
      const scriptSrc = /script-src ([^;]*)/.exec(policy)![1]!.split(' ');
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      const html = await response.text();
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !/src=|ld\+json/.test(attributes!));
      expect(inline.length, path).toBeGreaterThan(0);
      for (const [, , body] of inline) expect(scriptSrc, path).toContain(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
    // A 304 keeps the page's policy (a browser updates the cached page's headers from it; the general one would block
    // the inline scripts on a reload).
    const first = await api.get('/all-signals');
    const revalidated = await api.get('/all-signals', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(revalidated.headers.get('content-security-policy')).toContain("'sha256-");
    // JSON answers keep the general policy.
    expect((await api.get('/api/health')).headers.get('content-security-policy')).toMatch(/script-src 'self';/);
  });
});

describe('the Archives page', () => {
  it('says the original file is kept unmodified (a formula-like name passes ingest with a warning, as text)', async () => {
    const api = await start();
    const html = await (await api.get('/archives')).text();
    expect(html).toContain('The original file is the export exactly as it arrived, unmodified: open it with care, since a cell may hold a formula.');
  });
});
