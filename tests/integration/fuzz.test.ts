/**
 * A bounded HTTP fuzz over every route of the real app on loopback (static build,
 * live API with the demo provider, accounts on SQLite). A few thousand generated requests, odd methods, addresses,
 * queries, headers and bodies: none may answer 5xx.
 */
import { rm } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_POST_ROUTES, LIVE_PREFIXES } from '../../src/lib/domain/site/live-routes';
import { PER_TICKER_ROUTES, REPORT_ROUTES } from '../../src/lib/domain/site/routes';
import { DemoProvider } from '../../src/server/providers/demo';
import { buildSite, SITE, startApi, universeOf, type BuiltSite, type RunningApi } from './api-harness';

const REQUESTS = 3000;
const PARALLEL = 16;

let site: BuiltSite;
let api: RunningApi;

beforeAll(async () => {
  site = await buildSite();
  api = await startApi(site, new DemoProvider({ universe: await universeOf(site) }), () => Date.parse('2026-11-20T15:00:00Z'));
}, 300_000);
afterAll(async () => {
  await api?.close();
  if (site) await rm(site.work, { recursive: true, force: true });
});

const PAGES = ['/', '/all-signals', '/heatmap', '/explore', '/archives', '/archives/2', '/signal', '/signal/AAPL', '/login', '/account', '/search-index.json', '/upload', '/admin', '/learn'];
const FIRST = [...LIVE_PREFIXES, ...LIVE_POST_ROUTES.map((p) => p.slice(1)), ...PER_TICKER_ROUTES, ...REPORT_ROUTES, 'pro', 'pro/lists', 'pro/stock', 'polygon/aggs', 'polygon/news', 'polygon/logo', 'polygon/company-info', 'polygon/ticker-details', 'polygon/price', 'auth/sign-in/email', 'auth/sign-up/email', 'auth/get-session', 'forms/sign-in', 'forms/reset-password', 'account/export', 'watchlist/merge'];
const SEGMENTS = ['AAPL', 'aapl', 'BRK.B', 'ıbm', 'ß', 'ZZZZ', '%00', '..%2F..%2Fetc%2Fpasswd', 'A'.repeat(64), '', '%E0%A4%A', '日本', '0123456789abcdef', '<script>', 'index.html', '.', '..', '%2e%2e', 'null', '-1'];
const QUERY_KEYS = ['from', 'to', 'limit', 'sheetId', 'returnTo', 'skipExisting', 'q', 'token', 'annual'];
const QUERY_VALUES = ['2026-11-01', '2026-13-40', '-5', '0', '51', '1e309', '//evil.example', '/ü', 'javascript:alert(1)', '', 'x'.repeat(300), '%', '[]', 'true'];
const TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', undefined];

const path = fc.oneof(
  fc.constantFrom(...PAGES),
  fc
    .tuple(fc.constantFrom(...FIRST), fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 12 }).map(encodeURIComponent)), { maxLength: 3 }))
    .map(([first, rest]) => `/api/${[first, ...rest].join('/')}`),
);
const query = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.constantFrom(...QUERY_VALUES), fc.string({ maxLength: 20 }))), { maxLength: 3 });
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"tickers": ["AAPL", 1, null]}', '{"ticker":"AAPL","companyName":"\u202eX"}', '{"email":"a@b.c","password":"0123456789x"}', 'email=a%40b.c&password=x', '{', 'x'.repeat(20_000)),
);
const spec = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  path,
  query,
  type: fc.constantFrom(...TYPES),
  origin: fc.constantFrom(SITE, 'https://evil.example', undefined),
  signedIn: fc.boolean(),
  body,
});

describe('HTTP fuzz', () => {
  it(`answers ${REQUESTS} generated requests over every route without a 5xx`, async () => {
    const requests = fc.sample(spec, { numRuns: REQUESTS, seed: 21 });
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const search = r.query.length === 0 ? '' : `?${r.query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
        const headers: Record<string, string> = {};
        if (r.type !== undefined) headers['content-type'] = r.type;
        if (r.origin !== undefined) headers.origin = r.origin;
        if (r.signedIn) headers.cookie = api.operator.cookie!;
        const withBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body !== undefined;
        const response = await fetch(`${api.origin}${r.path}${search}`, { method: r.method, headers, body: withBody ? r.body : undefined, redirect: 'manual' });
        await response.arrayBuffer();
        if (response.status >= 500) failures.push(`${r.method} ${r.path}${search} (${r.type ?? 'no type'}) -> ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(failures).toEqual([]);
  }, 300_000);
});
