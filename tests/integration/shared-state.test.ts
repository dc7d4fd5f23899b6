/**
 * REDIS_URL: the budget, answers, client allowance and daily lock N processes share, each against Debian's
 * redis-server on loopback; and TRUSTED_PROXIES, so per-client limits key on the visitor behind nginx.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLock } from '../../src/ingest/publish';
import { PolygonProvider } from '../../src/server/providers/polygon';
import { ClientAllowance, clientAddress } from '../../src/server/upstream';
import { LockHeldError, openRedis, SharedBudget, SharedCache, withRedisLock } from '../../src/storage/redis';
import { startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';
import { startRedis, type Started } from '../fixtures/deploy';
import { postFrom, startAccountServer } from '../fixtures/account-server';
import { redisAuthLimits } from '../../src/server/auth/rate-limit';

let work: string;
let redis: Started & { url: string };
const clients: Redis[] = [];
const connect = () => {
  const client = openRedis(redis.url);
  clients.push(client);
  return client;
};

/** The client once it is ready for commands. */
const connected = (client: ReturnType<typeof connect>) =>
  new Promise<typeof client>((resolve) => (client.status === 'ready' ? resolve(client) : client.once('ready', () => resolve(client))));

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'shared-state-'));
  redis = await startRedis(join(work, 'redis'));
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('the shared budget', () => {
  it('gives two processes one minute of calls between them, keeping the reserved share from page calls', async () => {
    const a = new SharedBudget(connect(), 5, 'test-budget');
    const b = new SharedBudget(connect(), 5, 'test-budget');
    // Pages may take 5 - 2 reserved = 3, whoever asks.
    expect([await a.tryTake(2), await b.tryTake(2), await a.tryTake(2), await b.tryTake(2)]).toEqual([true, true, true, false]);
    // Quotes may take the reserved two, then nobody can.
    expect([await b.tryTake(), await a.tryTake(), await b.tryTake()]).toEqual([true, true, false]);
    expect(a.remaining()).toBe(0);
    expect(await a.msUntilFree()).toBeGreaterThan(55_000);
  });

  it('takes nothing when Redis cannot be reached, and says so', async () => {
    const lines: string[] = [];
    const gone = openRedis('redis://127.0.0.1:1', (line) => lines.push(line));
    clients.push(gone);
    expect(await new SharedBudget(gone, 5, 'gone', (line) => lines.push(line)).tryTake()).toBe(false);
    expect(lines).toContain('Redis at 127.0.0.1:1 cannot be reached (connect ECONNREFUSED 127.0.0.1:1); the shared budget, cache and lock wait for it.');
    expect(lines.at(-1)).toMatch(/^The shared market-data budget in Redis cannot be read \(.+\); no upstream call is made\.$/);
  });
});

describe('the shared cache', () => {
  it('hands one process the answer another stored, with the time it has left', async () => {
    await new SharedCache(connect(), 'test').set('/v2/x', { results: [1] }, 30_000);
    const entry = await new SharedCache(connect(), 'test').get('/v2/x');
    expect(entry?.value).toEqual({ results: [1] });
    expect(entry!.ttlMs).toBeGreaterThan(29_000);
    expect(await new SharedCache(connect(), 'test').get('/v2/missing')).toBeUndefined();
  });

  it('lets two Polygon providers share answers and one budget: the second asks upstream for nothing the first has', async () => {
    const fake: FakePolygon = await startFakePolygon({ key: 'k' });
    try {
      const make = () => new PolygonProvider({ apiKey: 'k', baseUrl: fake.origin, ratePerMinute: 4, redis: connect(), log: () => undefined });
      const [first, second] = [make(), make()];
      const { fetchedAt: _first, ...quote } = (await first.quote('AAPL'))!;
      expect(fake.calls).toHaveLength(2);
      const { fetchedAt: _second, ...same } = (await second.quote('AAPL'))!;
      expect(same).toEqual(quote);
      expect(fake.calls).toHaveLength(2);
      // Two more calls left in the minute, between both: MSFT's quote takes them, then neither may call.
      await second.quote('MSFT');
      expect(fake.calls).toHaveLength(4);
      await expect(first.quote('NVDA')).rejects.toThrow(/The Polygon budget of 4 calls a minute is spent/);
      await expect(second.tickerDetails('JPM')).rejects.toThrow(/The Polygon budget of 4 calls a minute is spent/);
      expect(fake.calls).toHaveLength(4);
    } finally {
      await fake.close();
    }
  });
});

describe('the client allowance in Redis', () => {
  it('counts one client across processes', async () => {
    const a = new ClientAllowance(2, connect());
    const b = new ClientAllowance(2, connect());
    await a.spend('203.0.113.7');
    await b.spend('203.0.113.7');
    await expect(a.spend('203.0.113.7')).rejects.toThrow(/^This client has used its 2 market-data calls a minute; the answer is not cached yet\. Try again in \d+ s\.$/);
    await b.spend('198.51.100.2');
  });
});

describe('the sign-in limits in Redis', () => {
  it('count across processes: two API servers allow one client 5 sign-in attempts a minute between them, not 10', async () => {
    // Each server's client connected first: a limiter whose client is not ready yet counts in its own process's memory.
    const stores = await Promise.all([1, 2].map(async () => redisAuthLimits(await connected(connect()))));
    const servers = await Promise.all(stores.map((store) => startAccountServer(null, { rateLimit: true, rateLimitStore: store })));
    try {
      const attempt = (i: number) => postFrom(servers[i % 2]!, '127.0.0.90', '/api/auth/sign-in/email', { email: 'known@example.com', password: 'wrong password here' });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push(await attempt(i));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // Another client is not held back by this one's count.
      expect(await postFrom(servers[1]!, '127.0.0.91', '/api/auth/sign-in/email', { email: 'known@example.com', password: 'wrong password here' })).toBe(401);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('say when the window frees up', async () => {
    const limits = redisAuthLimits(connect());
    const rule = { window: 60, max: 2 };
    expect(await limits.consume('rule-test', rule)).toEqual({ allowed: true, retryAfter: null });
    expect(await limits.consume('rule-test', rule)).toEqual({ allowed: true, retryAfter: null });
    const held = await limits.consume('rule-test', rule);
    expect(held.allowed).toBe(false);
    expect(held.retryAfter).toBeGreaterThanOrEqual(1);
    expect(held.retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('the daily job lock in Redis', () => {
  it('lets one of two hosts run, refuses the other saying so, and frees the lock after', async () => {
    let finish!: () => void;
    const first = withLock(join(work, 'host-a', 'archive'), () => new Promise<string>((resolve) => (finish = () => resolve('published'))), { redisUrl: redis.url, staleMs: 4000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Past the staleness window: the holder renews it.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    await expect(withLock(join(work, 'host-b', 'archive'), async () => 'second', { redisUrl: redis.url, staleMs: 4000 })).rejects.toThrow(
      /^Another daily job is running \(its lock c-score-signals:lock:daily-job in Redis expires in [1-4] s unless renewed\); wait for it to finish\. A lock not renewed for 4 s, left by a killed run, is taken over by the next run\.$/,
    );
    finish();
    expect(await first).toBe('published');
    expect(await withLock(join(work, 'host-b', 'archive'), async () => 'third', { redisUrl: redis.url })).toBe('third');
  });

  it('is taken over once a killed holder stops renewing it', async () => {
    const holder = connect();
    await holder.set('c-score-signals:lock:test-killed', 'a run that was killed', 'PX', 500);
    await expect(withRedisLock(connect(), 'test-killed', 500, async () => 'ran')).rejects.toBeInstanceOf(LockHeldError);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await withRedisLock(connect(), 'test-killed', 500, async () => 'ran')).toBe('ran');
  });
});

describe('TRUSTED_PROXIES', () => {
  let server: ReturnType<typeof serve>;
  let origin: string;
  let trusted: string[] = [];

  beforeAll(async () => {
    const app = new Hono().get('/who', (c) => c.text(clientAddress(c, trusted)));
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => (server as Server).once('listening', resolve));
    origin = `http://127.0.0.1:${((server as Server).address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server as Server).close(() => resolve())));

  const who = async (forwarded?: string) => (await fetch(`${origin}/who`, { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } })).text();

  it('keys on the socket address while no proxy is trusted, whatever X-Forwarded-For claims', async () => {
    trusted = [];
    expect(await who('203.0.113.7')).toBe('127.0.0.1');
  });

  it('keys on the nearest address that is not a trusted proxy when the peer is one (nginx)', async () => {
    trusted = ['127.0.0.1', '10.0.0.2'];
    expect(await who('203.0.113.7')).toBe('203.0.113.7');
    // A client's own claim comes first; nginx appends the address it saw, and that one counts.
    expect(await who('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await who('198.51.100.1, 203.0.113.7, 10.0.0.2')).toBe('203.0.113.7');
    expect(await who()).toBe('127.0.0.1');
  });
});
