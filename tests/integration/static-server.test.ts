import { request as httpRequest } from 'node:http';
import { cp, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompressor } from '../../src/ingest/precompress';

/** Writes `.br` and `.gz` beside every compressible file of a built client folder, as the daily job does. */
const precompressStatic = async (clientDir: string): Promise<void> => {
  await createCompressor(clientDir).finish();
};
import { createApp } from '../../src/server/app';
import { SECURITY_HEADERS } from '../../src/server/security';

const FIXTURE = fileURLToPath(new URL('../fixtures/dist-mini', import.meta.url));
const CLIENT = join(FIXTURE, 'client');

/** A copy of the fixture build in a temp folder, with the .br and .gz files the daily job writes. */
async function publishedCopy(dist: string): Promise<void> {
  await cp(FIXTURE, dist, { recursive: true });
  await precompressStatic(join(dist, 'client'));
}

interface Running {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the real server on a loopback port the OS picks. */
function start(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<Running> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends the request target exactly as written (fetch would normalize `..` away) and keeps the body encoded. */
function raw(port: number, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const file = (relative: string) => readFile(join(CLIENT, relative));
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

function expectSecurityHeaders(headers: Headers | RawResponse['headers']): void {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name.toLowerCase()]);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(get(name), name).toBe(value);
  expect(get('content-security-policy')).toContain("default-src 'self'");
  expect(get('content-security-policy')).toContain("frame-ancestors 'none'");
  // The upgrade and billing forms redirect to Stripe's hosted pages: a form-action of 'self' alone blocks them.
  expect(get('content-security-policy')).toContain("form-action 'self' https://checkout.stripe.com https://billing.stripe.com");
  // No 'unsafe-inline' for scripts; a page's inline scripts are allowed by the hashes its build.json lists.
  expect(get('content-security-policy')).toContain("script-src 'self';");
  expect(get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(get('x-frame-options')).toBe('DENY');
}

describe('static server over real HTTP', () => {
  let server: Running;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'static-site-'));
    await publishedCopy(join(dir, 'dist'));
    const api = new Hono()
      .get('/health', (c) => c.json({ status: 'ok' }))
      .get('/broken', () => {
        throw new Error('provider exploded');
      });
    server = await start(createApp({ distDir: join(dir, 'dist'), api }));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['/', 'index.html', 'text/html; charset=utf-8'],
    ['/all-signals', 'all-signals/index.html', 'text/html; charset=utf-8'],
    ['/all-signals/', 'all-signals/index.html', 'text/html; charset=utf-8'],
    ['/signal/AAPL', 'signal/AAPL/index.html', 'text/html; charset=utf-8'],
    ['/signal/BRK.B', 'signal/BRK.B/index.html', 'text/html; charset=utf-8'],
    ['/signal/BRK.B/', 'signal/BRK.B/index.html', 'text/html; charset=utf-8'],
    ['/_astro/app.abc123.js', '_astro/app.abc123.js', 'text/javascript; charset=utf-8'],
    ['/_astro/site.def456.css', '_astro/site.def456.css', 'text/css; charset=utf-8'],
    ['/favicon.svg', 'favicon.svg', 'image/svg+xml; charset=utf-8'],
    ['/api/stock/AAPL', 'api/stock/AAPL.json', 'application/json; charset=utf-8'],
    ['/api/stock/AAPL.json', 'api/stock/AAPL.json', 'application/json; charset=utf-8'],
  ])('GET %s serves %s as %s', async (path, relative, type) => {
    const res = await fetch(server.origin + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(Buffer.from(await res.arrayBuffer()).equals(await file(relative))).toBe(true);
    expectSecurityHeaders(res.headers);
  });

  it('serves the extensionless static JSON route as the record the build wrote', async () => {
    const res = await fetch(`${server.origin}/api/stock/AAPL`);
    expect(await res.json()).toMatchObject({ ticker: 'AAPL', companyName: 'Apple Inc.', cScore: 72 });
  });

  it('lets the mounted API router answer first and the static JSON answer what it does not match', async () => {
    const health = await fetch(`${server.origin}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expectSecurityHeaders(health.headers);
    expect((await fetch(`${server.origin}/api/stock/AAPL`)).status).toBe(200);
  });

  it('turns a failing API route into a JSON 500 that carries the security headers and no details', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await fetch(`${server.origin}/api/broken`);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('GET /api/broken'), expect.any(Error));
    log.mockRestore();
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/server log/);
    expect(JSON.stringify(body)).not.toContain('provider exploded');
    expectSecurityHeaders(res.headers);
  });

  it.each([
    ['/_astro/app.abc123.js', IMMUTABLE],
    ['/_astro/site.def456.css', IMMUTABLE],
    ['/', REVALIDATE],
    ['/signal/AAPL', REVALIDATE],
    ['/api/stock/AAPL', REVALIDATE],
    ['/favicon.svg', REVALIDATE],
  ])('Cache-Control of %s is %s', async (path, cacheControl) => {
    const res = await fetch(server.origin + path);
    expect(res.headers.get('cache-control')).toBe(cacheControl);
  });

  it('answers 304 to a matching If-None-Match, weak or in a list, and 200 to a stale one', async () => {
    const first = await raw(server.port, '/api/stock/AAPL');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await raw(server.port, '/api/stock/AAPL', { headers: { 'If-None-Match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body.byteLength).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe(REVALIDATE);
      expectSecurityHeaders(again.headers);
    }
    const stale = await raw(server.port, '/api/stock/AAPL', { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['deflate', undefined],
  ])('Accept-Encoding %j gets %s with a body that decodes to the file', async (acceptEncoding, expected) => {
    for (const [path, relative] of [
      ['/_astro/app.abc123.js', '_astro/app.abc123.js'],
      ['/api/stock/AAPL', 'api/stock/AAPL.json'],
      ['/signal/BRK.B', 'signal/BRK.B/index.html'],
    ] as const) {
      const res = await raw(server.port, path, { headers: { 'Accept-Encoding': acceptEncoding } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'], path).toBe(expected);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
      const decoded = expected === 'br' ? brotliDecompressSync(res.body) : expected === 'gzip' ? gunzipSync(res.body) : res.body;
      expect(decoded.equals(await file(relative)), path).toBe(true);
      if (expected !== undefined) expect(res.body.byteLength).toBeLessThan(decoded.byteLength);
    }
  });

  it('gives each encoding its own entity tag', async () => {
    const tags = await Promise.all(
      ['identity', 'gzip', 'br'].map(async (encoding) => (await raw(server.port, '/', { headers: { 'Accept-Encoding': encoding } })).headers.etag),
    );
    expect(new Set(tags).size).toBe(3);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await raw(server.port, '/signal/AAPL');
    const head = await raw(server.port, '/signal/AAPL', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(String((await file('signal/AAPL/index.html')).byteLength));
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.headers.etag).toBe(get.headers.etag);
    expectSecurityHeaders(head.headers);
  });

  it('answers 405 with Allow to other methods on a static path', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const page = await fetch(`${server.origin}/all-signals`, { method });
      expect(page.status, method).toBe(405);
      expect(page.headers.get('allow')).toBe('GET, HEAD');
      expectSecurityHeaders(page.headers);
    }
    const json = await fetch(`${server.origin}/api/stock/AAPL`, { method: 'POST' });
    expect(json.status).toBe(405);
    expect(json.headers.get('allow')).toBe('GET, HEAD');
    expect((await json.json()).error).toMatch(/POST is not allowed/);
  });

  it('answers an unknown page with the built 404 page and status 404', async () => {
    for (const path of ['/no-such-page', '/nope', '/_astro/missing.js', '/404.html', '/404', '/signals/ZZZZ']) {
      const res = await fetch(server.origin + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const body = await res.text();
      expect(body).toBe((await file('404.html')).toString('utf8'));
      expect(body).toContain('Page not found');
      expect(body).not.toContain('Stock Not Found');
      expectSecurityHeaders(res.headers);
    }
  });

  it('answers /signal and every /signal/{unknown or malformed ticker} with the Stock Not Found page and status 404', async () => {
    const paths = ['/signal/ZZZZ', '/signal/@@', '/signal/%3Cscript%3E', '/signal/TOO-LONG-TICKER-1', '/signal/ZZZZ/', '/signal/ZZZZ/news', '/signal', '/signal/'];
    for (const path of paths) {
      const res = await fetch(server.origin + path, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const body = await res.text();
      expect(body).toBe((await file('signal/index.html')).toString('utf8'));
      expect(body).toContain('Stock Not Found');
      expect(body).toContain('Please select a valid ticker.');
      expect(body).not.toContain('Page not found');
      expectSecurityHeaders(res.headers);
    }
    // A lower-case ticker still goes to its upper-case address first.
    const lower = await fetch(`${server.origin}/signal/aapl`, { redirect: 'manual' });
    expect(lower.status).toBe(301);
    expect(lower.headers.get('location')).toBe('/signal/AAPL');
  });

  it('sends both not-found pages compressed and revalidated like the 404 page, without an entity tag', async () => {
    for (const [path, relative] of [
      ['/nope', '404.html'],
      ['/signal/ZZZZ', 'signal/index.html'],
    ] as const) {
      for (const [acceptEncoding, expected] of [['br', 'br'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
        const res = await raw(server.port, path, { headers: { 'Accept-Encoding': acceptEncoding } });
        expect(res.status, path).toBe(404);
        expect(res.headers['content-encoding'], `${path} ${acceptEncoding}`).toBe(expected);
        expect(res.headers['cache-control']).toBe(REVALIDATE);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(res.headers.etag).toBeUndefined();
        const decoded = expected === 'br' ? brotliDecompressSync(res.body) : expected === 'gzip' ? gunzipSync(res.body) : res.body;
        expect(decoded.equals(await file(relative)), path).toBe(true);
      }
    }
  });

  it('answers an unknown /api path with a JSON 404 naming the path', async () => {
    const res = await fetch(`${server.origin}/api/stock/ZZZZ`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'Not found: /api/stock/ZZZZ' });
    expectSecurityHeaders(res.headers);
  });

  it.each([
    '/../package.json',
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2fpackage.json',
    '/..%2f..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fbuild.json',
    '/signal/..%2f..%2fbuild.json',
    '/signal/..%5c..%5cbuild.json',
    '/signal/%00',
    '/index.html%00.json',
    '/%zz',
    '//etc/passwd',
    '/signal//AAPL',
    '/api/..%2f..%2fbuild.json',
  ])('never serves %s (no 200, no 500)', async (path) => {
    const res = await raw(server.port, path);
    expect(res.status, `${path} -> ${res.status}`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.toString('utf8')).not.toContain('inputsHash');
    expect(res.body.toString('utf8')).not.toContain('root:');
    expectSecurityHeaders(res.headers);
  });

  it('answers a bad path with 400 and a JSON message under /api', async () => {
    const page = await raw(server.port, '/..%2fbuild.json');
    expect(page.status).toBe(400);
    const api = await raw(server.port, '/api/stock/..%2f..%2f..%2fbuild.json');
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body.toString('utf8')).error).toMatch(/Bad request path/);
  });
});

describe('static server over a build that changes', () => {
  let dir: string;
  let dist: string;
  let server: Running;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'static-server-'));
    dist = join(dir, 'dist');
    await publishedCopy(dist);
    await writeFile(join(dir, 'secret.txt'), 'outside the client folder');
    await symlink(join(dir, 'secret.txt'), join(dist, 'client', 'leak.txt'));
    await symlink(dir, join(dist, 'client', 'escape'));
    server = await start(createApp({ distDir: dist, recheckMs: 100 }));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const stock = async () => (await (await fetch(`${server.origin}/api/stock/AAPL`)).json()) as { cScore: number };

  it('never follows a symlink out of client/', async () => {
    for (const path of ['/leak.txt', '/escape/secret.txt', '/escape/dist/build.json']) {
      const res = await raw(server.port, path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString('utf8')).not.toContain('outside the client folder');
    }
  });

  it('serves a file the daily job rewrote, and its compressed copies, once the kept answer is looked at again', async () => {
    expect((await stock()).cScore).toBe(72);
    const record = join(dist, 'client', 'api', 'stock', 'AAPL.json');
    const changed = (await readFile(record, 'utf8')).replace('"cScore": 72', '"cScore": 81');
    await writeFile(record, changed);
    await precompressStatic(join(dist, 'client'));
    await writeFile(join(dist, 'build.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
    await wait(150);
    expect((await stock()).cScore).toBe(81);
    const res = await raw(server.port, '/api/stock/AAPL', { headers: { 'Accept-Encoding': 'br' } });
    expect(JSON.parse(brotliDecompressSync(res.body).toString('utf8')).cScore).toBe(81);
  });

  it('answers /signal/{unknown} with the 404 page when the build has no Stock Not Found page', async () => {
    const older = join(dir, 'older');
    await cp(FIXTURE, older, { recursive: true });
    await rm(join(older, 'client', 'signal', 'index.html'));
    const app = await start(createApp({ distDir: older }));
    try {
      const res = await fetch(`${app.origin}/signal/ZZZZ`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe((await file('404.html')).toString('utf8'));
    } finally {
      await app.close();
    }
  });

  it('answers a plain-text 404 while there is no build, and serves the build once it appears', async () => {
    const later = join(dir, 'later');
    const early = await start(createApp({ distDir: later }));
    try {
      const before = await fetch(`${early.origin}/signal/AAPL`);
      expect(before.status).toBe(404);
      expect(before.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await before.text()).toBe('Page not found.');
      expectSecurityHeaders(before.headers);
      await publishedCopy(later);
      expect((await fetch(`${early.origin}/signal/AAPL`)).status).toBe(200);
    } finally {
      await early.close();
    }
  });

  it('follows the daily job renaming a fresh build into dist/', async () => {
    const fresh = join(dir, '.dist-staging');
    await cp(FIXTURE, fresh, { recursive: true });
    const record = join(fresh, 'client', 'api', 'stock', 'AAPL.json');
    await writeFile(record, (await readFile(record, 'utf8')).replace('"cScore": 72', '"cScore": -66'));
    await precompressStatic(join(fresh, 'client'));
    await writeFile(join(fresh, 'build.json'), JSON.stringify({ builtAt: 'swap' }));
    await rename(dist, `${dist}.old`);
    await rename(fresh, dist);
    await rm(`${dist}.old`, { recursive: true });
    await wait(150);
    expect((await stock()).cScore).toBe(-66);
    expect((await fetch(`${server.origin}/leak.txt`)).status).toBe(404);
  });
});
