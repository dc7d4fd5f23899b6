/**
 * Rate limits per visitor, and fail-safe: the login page's forms count Better Auth's limits per client address (the
 * TRUSTED_PROXIES rule of /api/auth), a Redis outage falls back to each process's own limits instead of answering
 * 500, and /api/health says which shared dependency is down. Real servers on loopback, a real redis-server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSettings } from '../../src/server/accounts';
import { redisAuthLimits } from '../../src/server/auth/rate-limit';
import { openRedis } from '../../src/storage/redis';
import { SITE, startAccountServer, type AccountServer, type AppOptions } from '../fixtures/account-server';
import { startRedis, type Started } from '../fixtures/deploy';

type Server = AccountServer;

/** The real API and app on loopback, with the limits on, and the given TRUSTED_PROXIES and Redis. */
function startServer(options: AppOptions & { settings?: Partial<AccountSettings> } = {}): Promise<Server> {
  const { settings, ...app } = options;
  return startAccountServer(null, { rateLimit: true, ...(app.redis ? { rateLimitStore: redisAuthLimits(app.redis) } : {}), ...settings }, app);
}

/** A form post as the login page sends it, from a given loopback address, with extra headers: status and Location. */
function postForm(server: Server, path: string, fields: Record<string, string>, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<{ status: number; location: string }> {
  const url = new URL(`/api/forms${path}`, server.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? '') }));
      },
    );
    req.on('error', reject);
    req.end(new URLSearchParams(fields).toString());
  });
}

const wrongSignIn = { email: 'known@example.com', password: 'not the right password', returnTo: '/account' };
const outcome = (location: string) => location.slice(location.indexOf('#') + 1);

describe('the login page forms count per visitor', () => {
  it('five failed sign-ins from one address do not lock out another address (two loopback source addresses)', async () => {
    const server = await startServer();
    try {
      const first: string[] = [];
      for (let i = 0; i < 6; i++) first.push(outcome((await postForm(server, '/sign-in', wrongSignIn, '127.0.0.2')).location));
      expect(first).toEqual(['sign-in-invalid', 'sign-in-invalid', 'sign-in-invalid', 'sign-in-invalid', 'sign-in-invalid', 'sign-in-limited']);
      // Another visitor signs in, signs up and asks for a link as if the first did not exist.
      expect(outcome((await postForm(server, '/sign-in', wrongSignIn, '127.0.0.3')).location)).toBe('sign-in-invalid');
      expect(outcome((await postForm(server, '/magic-link', { email: 'other@example.com' }, '127.0.0.3')).location)).toBe('magic-link-sent');
      // And the first stays limited.
      expect(outcome((await postForm(server, '/sign-in', wrongSignIn, '127.0.0.2')).location)).toBe('sign-in-limited');
    } finally {
      await server.close();
    }
  });

  it('behind a trusted proxy, counts the visitor named by X-Forwarded-For, and ignores it from anyone else', async () => {
    const server = await startServer({ trustedProxies: ['127.0.0.4'] });
    try {
      const via = (visitor: string, from = '127.0.0.4') => postForm(server, '/sign-in', wrongSignIn, from, { 'x-forwarded-for': visitor });
      const first: string[] = [];
      for (let i = 0; i < 6; i++) first.push(outcome((await via('203.0.113.7')).location));
      expect(first.at(-1)).toBe('sign-in-limited');
      expect(first.slice(0, 5).every((o) => o === 'sign-in-invalid')).toBe(true);
      expect(outcome((await via('198.51.100.2')).location)).toBe('sign-in-invalid');
      // A peer that is not the proxy cannot name itself someone fresh: its own address is counted.
      const direct: string[] = [];
      for (let i = 0; i < 6; i++) direct.push(outcome((await postForm(server, '/sign-in', wrongSignIn, '127.0.0.5', { 'x-forwarded-for': `192.0.2.${i}` })).location));
      expect(direct.at(-1)).toBe('sign-in-limited');
    } finally {
      await server.close();
    }
  });
});

describe('a Redis outage', () => {
  let work: string;
  let redis: Started & { url: string };
  let client: Redis;
  let server: Server;
  const logged: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'limits-redis-'));
    redis = await startRedis(join(work, 'redis'));
    client = openRedis(redis.url, (line) => logged.push(line));
    server = await startServer({ redis: client, published: true });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    client?.disconnect();
    await redis?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const json = (path: string, body: unknown, from = '127.0.0.1') =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(path, server.origin);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', origin: SITE } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const health = async () => {
    const response = await fetch(`${server.origin}/api/health`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('leaves sign-in and sign-up answering (never 500), counted per process, and health says Redis is degraded', async () => {
    expect((await health()).body).toMatchObject({ database: 'ok', redis: 'ok' });
    expect(await json('/api/auth/sign-up/email', { email: 'before@example.com', password: 'correct horse battery', name: '' }, '127.0.0.10')).toBe(200);

    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(await json('/api/auth/sign-up/email', { email: 'during@example.com', password: 'correct horse battery', name: '' }, '127.0.0.11')).toBe(200);
    expect(await json('/api/auth/sign-in/email', { email: 'before@example.com', password: 'correct horse battery' }, '127.0.0.11')).toBe(200);
    expect(outcome((await postForm(server, '/sign-up', { email: 'form@example.com', password: 'correct horse battery' }, '127.0.0.12')).location)).not.toMatch(/failed|limited/);
    expect((await postForm(server, '/sign-in', { email: 'before@example.com', password: 'correct horse battery' }, '127.0.0.12')).location).toBe('/account');
    // The per-process count still holds the limit of 5 sign-ins a minute.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await json('/api/auth/sign-in/email', { email: 'before@example.com', password: 'wrong password here' }, '127.0.0.13'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const during = await health();
    // Degraded keeps 200: every process shares this Redis, so a load balancer taking them all out helps nobody.
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'degraded', database: 'ok', redis: 'degraded' });
    expect(logged.some((line) => line.startsWith(`Redis at ${new URL(redis.url).host} cannot be reached`))).toBe(true);
  }, 60_000);
});

describe('health without Redis', () => {
  it('says Redis is off and the database ok, then degraded once the database cannot answer', async () => {
    const server = await startServer({ published: true });
    try {
      const before = (await (await fetch(`${server.origin}/api/health`)).json()) as Record<string, unknown>;
      expect(before).toMatchObject({ status: 'ok', database: 'ok', redis: 'off' });
      await server.accounts.database.close();
      const response = await fetch(`${server.origin}/api/health`);
      const after = (await response.json()) as Record<string, unknown>;
      expect(response.status).toBe(200);
      expect(after).toMatchObject({ status: 'degraded', database: 'degraded', redis: 'off' });
    } finally {
      await server.close();
    }
  });
});
