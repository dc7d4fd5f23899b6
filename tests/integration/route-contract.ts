/**
 * The route contract: one table of requests and what each must answer, run against nginx with the shipped
 * recipe and against `npm start` (tests/integration/deploy.test.ts), so the two cannot drift. Expected values come
 * from the server's own tables (security.ts, static.ts), never from a second copy.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { framablePolicy, pagePolicy, SECURITY_HEADERS } from '../../src/server/security';
import { BADGE_CACHE, EDGE_REVALIDATE, IMMUTABLE, REVALIDATE } from '../../src/server/static';

/** One request and what it must answer. */
export interface ContractCase {
  name: string;
  method?: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  /** The whole Content-Type (static files), or a pattern (the live routes' JSON, with or without its charset). */
  type?: string | RegExp;
  cache?: string;
  /**
   * Which Content-Security-Policy: the page's (with the build's script hashes), the general one, or the embeddable
   * card's (the page's, any site may frame it, and no X-Frame-Options).
   */
  policy?: 'page' | 'general' | 'embed';
  /** The body is exactly this file of the build (the not-found screens). */
  bodyFile?: string;
  bodyMatch?: RegExp;
  location?: string;
  allow?: string;
  encoding?: string;
  /** Ask again with the first answer's ETag: the second answer must be a 304 with the same policy. */
  revalidate?: boolean;
}

/** What the table needs to know about the build under test. */
export interface ContractBuild {
  clientDir: string;
  ticker: string;
  asset: string;
}

/**
 * The table, for an origin (nginx, `npm start`) or for the CDN (Cloudflare's asset handling with the build's
 * `_headers`, `_redirects`, `_routes.json` and `_worker.js`). The CDN differs where a static host cannot do what the
 * server does, and only there: pages and JSON are kept a minute at the edge; it compresses by itself; and an address
 * of the static API without a file (a lower-case, unknown or malformed ticker) is its not-found page, not the
 * server's 301, 404 or 400 in JSON.
 */
export function routeContract({ ticker, asset }: ContractBuild, target: 'origin' | 'cdn' = 'origin'): ContractCase[] {
  const cdn = target === 'cdn';
  const html = 'text/html; charset=utf-8';
  const live = /^application\/json(; charset=utf-8)?$/;
  const json = cdn ? live : 'application/json; charset=utf-8';
  const revalidate = cdn ? EDGE_REVALIDATE : REVALIDATE;
  const lower = ticker.toLowerCase();
  const page = { type: html, cache: revalidate, policy: 'page' } as const;
  const notFoundPage = { status: 404, type: html, cache: revalidate, policy: 'page', bodyFile: '404.html' } as const;
  return [
    { name: 'the home page', path: '/', status: 200, ...page, bodyMatch: /<html/, revalidate: true },
    { name: 'the home page, gzip from its .gz file', path: '/', headers: { 'accept-encoding': 'gzip' }, status: 200, ...page, encoding: cdn ? undefined : 'gzip' },
    { name: 'the home page by HEAD', method: 'HEAD', path: '/', status: 200, ...page },
    { name: 'a list page', path: '/all-signals/', status: 200, ...page },
    { name: 'a list page with a filter query, rendered by the server', path: '/all-signals/?direction=bearish', status: 200, ...page },
    { name: 'a signal page', path: `/signal/${ticker}/`, status: 200, ...page, bodyMatch: new RegExp(ticker.replace('.', '\\.')) },
    { name: 'a hashed asset', path: `/_astro/${asset}`, status: 200, cache: IMMUTABLE, policy: 'general', revalidate: true },
    { name: 'an embeddable card, which any site may frame', path: `/embed/${ticker}/`, status: 200, type: html, cache: revalidate, policy: 'embed', bodyMatch: /<html/, revalidate: true },
    { name: 'a badge, kept a day by a CDN', path: `/badge/${ticker}.svg`, status: 200, type: /^image\/svg\+xml(; charset=utf-8)?$/, cache: BADGE_CACHE, policy: 'general', bodyMatch: /<svg[^>]*role="img"/ },
    { name: 'a report route of the static API', path: '/api/all-signals', status: 200, type: json, cache: revalidate, policy: 'general' },
    { name: 'a ticker route of the static API', path: `/api/stock/${ticker}`, status: 200, type: json, cache: revalidate, policy: 'general', revalidate: true },
    cdn
      ? { name: 'a lower-case ticker of the static API', path: `/api/stock/${lower}`, ...notFoundPage, policy: 'general' }
      : { name: 'a lower-case ticker of the static API', path: `/api/stock/${lower}`, status: 301, location: `/api/stock/${ticker}` },
    cdn
      ? { name: 'an unknown ticker of the static API', path: '/api/stock/ZZZZ', ...notFoundPage, policy: 'general' }
      : { name: 'an unknown ticker of the static API', path: '/api/stock/ZZZZ', status: 404, type: live, bodyMatch: /No signal for ZZZZ/ },
    cdn
      ? { name: 'a malformed ticker of the static API', path: '/api/stock/A!B', ...notFoundPage, policy: 'general' }
      : { name: 'a malformed ticker of the static API', path: '/api/stock/A!B', status: 400, type: live, bodyMatch: /"error"/ },
    cdn
      ? { name: 'an unknown API address', path: '/api/no-such-route', ...notFoundPage, policy: 'general' }
      : { name: 'an unknown API address', path: '/api/no-such-route', status: 404, type: live, bodyMatch: /"error"/ },
    { name: 'an unknown page', path: '/no-such-page', status: 404, type: html, cache: revalidate, policy: 'page', bodyFile: '404.html' },
    { name: 'the 404 page by its own address', path: '/404.html', status: 404, type: html, policy: 'page', bodyFile: '404.html' },
    { name: 'an unknown signal page', path: '/signal/ZZZZ/', status: 404, type: html, cache: revalidate, policy: 'page', bodyFile: 'signal/index.html' },
    { name: 'the Stock Not Found screen by its folder', path: '/signal/', status: 404, type: html, policy: 'page', bodyFile: 'signal/index.html' },
    { name: 'the Stock Not Found screen without the slash', path: '/signal', status: 404, type: html, policy: 'page', bodyFile: 'signal/index.html' },
    { name: 'the CDN copy of the Stock Not Found screen', path: '/signal/404.html', status: 404, type: html, policy: 'page', bodyFile: 'signal/index.html' },
    { name: 'the CDN header rules are not served', path: '/_headers', status: 404, type: html, bodyFile: '404.html' },
    { name: 'the Pages Function is not served', path: '/_worker.js', status: 404, type: html, bodyFile: '404.html' },
    cdn
      ? { name: 'a lower-case signal page', path: `/signal/${lower}/`, status: 404, type: html, policy: 'page', bodyFile: 'signal/index.html' }
      : { name: 'a lower-case signal page', path: `/signal/${lower}/`, status: 301, location: `/signal/${ticker}/` },
    { name: 'the archives first page', path: '/archives/1', status: 301, location: '/archives' },
    { name: 'a POST to a page', method: 'POST', path: '/', body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 405, allow: cdn ? undefined : 'GET, HEAD' },
    { name: 'the health check', path: '/api/health', status: 200, type: live, cache: 'no-store', bodyMatch: /"status":"ok"/ },
    { name: 'the live quote', path: `/api/stock-price/${ticker}`, status: 200, type: live, bodyMatch: new RegExp(`"symbol":"${ticker.replace('.', '\\.')}"`) },
    { name: 'the signed-out user', path: '/api/auth/user', status: 200, type: live, bodyMatch: /"isAuthenticated":false/ },
    { name: 'an operator page signed out', path: '/upload', status: 302, location: '/login?returnTo=%2Fupload' },
    { name: 'a POST route asked with GET', path: '/api/save-company-name', status: 405, type: live, allow: 'POST' },
    {
      name: 'a body over the route limit',
      method: 'POST',
      path: '/api/watchlist/merge',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tickers: ['A'.repeat(20 * 1024)] }),
      status: 413,
      type: live,
      bodyMatch: /larger than 16,384 bytes/,
    },
  ];
}

/** Asks `origin` one case and checks every property the case names, plus the security headers every answer carries. */
export async function checkCase(origin: string, item: ContractCase, build: ContractBuild, scriptHashes: readonly string[]): Promise<void> {
  const where = `${item.name} (${item.method ?? 'GET'} ${item.path} on ${origin})`;
  const answer = await fetch(origin + item.path, { method: item.method ?? 'GET', headers: item.headers, body: item.body, redirect: 'manual' });
  const text = await answer.text();
  const header = (name: string) => answer.headers.get(name);
  expect(answer.status, where).toBe(item.status);
  if (typeof item.type === 'string') expect(header('content-type'), where).toBe(item.type);
  else if (item.type !== undefined) expect(header('content-type'), where).toMatch(item.type);
  if (item.cache !== undefined) expect(header('cache-control'), where).toBe(item.cache);
  if (item.location !== undefined) expect(header('location'), where).toBe(item.location);
  if (item.allow !== undefined) expect(header('allow'), where).toBe(item.allow);
  if (item.encoding !== undefined) expect(header('content-encoding'), where).toBe(item.encoding);
  if (item.bodyMatch !== undefined) expect(text, where).toMatch(item.bodyMatch);
  if (item.bodyFile !== undefined) expect(text, where).toBe(await readFile(join(build.clientDir, item.bodyFile), 'utf8'));
  if (item.method === 'HEAD') expect(text, where).toBe('');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (name === 'content-security-policy') continue;
    // Only the embeddable cards may be framed, and X-Frame-Options cannot say "any site".
    if (name === 'x-frame-options' && item.policy === 'embed') expect(header(name), `${where}: ${name}`).toBeNull();
    else expect(header(name), `${where}: ${name}`).toBe(value);
  }
  const general = SECURITY_HEADERS['content-security-policy']!;
  const embed = framablePolicy(pagePolicy(general, scriptHashes));
  if (item.policy === 'page') expect(header('content-security-policy'), where).toBe(pagePolicy(general, scriptHashes));
  else if (item.policy === 'embed') expect(header('content-security-policy'), where).toBe(embed);
  else if (item.policy === 'general') expect(header('content-security-policy'), where).toBe(general);
  else expect(header('content-security-policy'), where).not.toBeNull();
  if (item.revalidate) {
    const tag = header('etag');
    expect(tag, `${where}: an entity tag`).toBeTruthy();
    const again = await fetch(origin + item.path, { headers: { ...item.headers, 'if-none-match': tag! }, redirect: 'manual' });
    await again.arrayBuffer();
    expect(again.status, `${where}, asked again with its ETag`).toBe(304);
    if (item.policy === 'page') expect(again.headers.get('content-security-policy'), `${where}, the 304`).toBe(pagePolicy(general, scriptHashes));
    if (item.policy === 'embed') expect(again.headers.get('content-security-policy'), `${where}, the 304`).toBe(embed);
  }
}
