/**
 * API keys for the open API, on SQLite and PostgreSQL: made and revoked on /account (origin-checked), shown once and
 * stored as a SHA-256; a keyed request gets its own daily allowance (1,000 Free, 50,000 Pro with PAYWALL=on), the
 * RateLimit fields on every answer, a 429 with Retry-After past it, and a 401 at once after a revocation. With
 * REDIS_URL two server processes share one count and see a revocation at once.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_KEY_ALLOWANCE, MAX_KEYS_PER_ACCOUNT } from '../../src/lib/domain/accounts/api-keys';
import { grantPro } from '../../src/storage/plan-grants';
import { openRedis } from '../../src/storage/redis';
import { type AccountServer, DATABASES, postJson, SITE, signUp, startAccountServer } from '../fixtures/account-server';
import { startRedis, type Started } from '../fixtures/deploy';

const KEY = /^csk_[A-Za-z0-9_-]{43}$/;

async function makeKey(server: AccountServer, cookie: string, label = 'my script'): Promise<{ key: string; id: string }> {
  const answer = await postJson(server, '/api/account/keys', { label }, cookie);
  expect(answer.status, await answer.clone().text()).toBe(201);
  const body = (await answer.json()) as { key: string; entry: { id: string } };
  return { key: body.key, id: body.entry.id };
}

const keyed = (server: AccountServer, key: string, path = '/api/stock-price/AAPL') => server.request(path, { headers: { authorization: `Bearer ${key}` } });
const rate = (answer: Response) => ({
  limit: answer.headers.get('ratelimit-limit'),
  remaining: answer.headers.get('ratelimit-remaining'),
});

describe.each(DATABASES)('API keys on $name', ({ url }) => {
  let server: AccountServer;
  let paying: AccountServer;

  beforeAll(async () => {
    const databaseUrl = await url();
    server = await startAccountServer(databaseUrl, {}, { published: true });
    paying = await startAccountServer(databaseUrl === null ? null : await url(), { paywall: true }, { published: true });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await paying?.close();
  });

  it('a key is made on /account and shown once; only its SHA-256 is stored; a request from another origin is refused', async () => {
    const cookie = await signUp(server, 'keys@example.com');
    const { key, id } = await makeKey(server, cookie);
    expect(key).toMatch(KEY);
    const list = (await (await server.request('/api/account/keys', { headers: { cookie } })).json()) as { keys: { id: string; start: string; usedToday: number }[]; allowance: number };
    expect(list.allowance).toBe(DAILY_KEY_ALLOWANCE.free);
    expect(list.keys).toEqual([expect.objectContaining({ id, start: key.slice(0, 10), usedToday: 0 })]);
    expect(JSON.stringify(list)).not.toContain(key);
    const rows = await server.accounts.database.db.selectFrom('api_key').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key.slice(10));

    // The cookie routes that make and revoke keys take the site's own origin only.
    const foreign = await server.request('/api/account/keys', { method: 'POST', headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{"label":"x"}' });
    expect(foreign.status).toBe(403);
    const foreignRevoke = await server.request(`/api/account/keys/${id}/revoke`, { method: 'POST', headers: { cookie, origin: 'https://evil.example' } });
    expect(foreignRevoke.status).toBe(403);
    expect((await server.request('/api/account/keys')).status).toBe(401);
    // The account's export names its keys, never their text or fingerprint.
    const exported = (await (await server.request('/api/account/export', { headers: { cookie } })).json()) as { apiKeys: { label: string; start: string }[] };
    expect(exported.apiKeys).toEqual([expect.objectContaining({ label: 'my script', start: key.slice(0, 10) })]);
    expect(JSON.stringify(exported)).not.toContain(rows[0]!.key_hash);
    // A key is not a session: it cannot list or make keys.
    expect((await server.request('/api/account/keys', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('a keyed request gets its own allowance with RateLimit fields; past 1,000 a 429 with Retry-After; revoked, a 401 at once', async () => {
    const cookie = await signUp(server, 'limits@example.com');
    const { key, id } = await makeKey(server, cookie);

    const first = await keyed(server, key);
    expect(first.status).toBe(200);
    expect(rate(first)).toEqual({ limit: '1000', remaining: '999' });
    const reset = Number(first.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(86_400);
    expect(first.headers.get('ratelimit-policy')).toBe('1000;w=86400');
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    // Every keyed route counts on the same allowance.
    const second = await keyed(server, key, '/api/company-info/AAPL');
    expect(second.status).toBe(200);
    expect(rate(second)).toEqual({ limit: '1000', remaining: '998' });
    // Without a key the live routes answer as before: no allowance of a key, no RateLimit fields.
    const open = await server.request('/api/stock-price/AAPL');
    expect(open.status).toBe(200);
    expect(open.headers.get('ratelimit-limit')).toBeNull();
    expect((await server.request('/api/health', { headers: { authorization: `Bearer ${key}` } })).headers.get('ratelimit-remaining')).toBe('997');
    // The static JSON stays open: no key is read there, a wrong one included, and nothing is counted.
    const file = await server.request('/api/stock/AAPL', { headers: { authorization: 'Bearer junk' } });
    expect(file.status).not.toBe(401);
    expect(file.headers.get('ratelimit-limit')).toBeNull();

    // The rest of the day's 1,000, one request at a time, each counted once.
    let last = await keyed(server, key);
    for (let made = 4; made < DAILY_KEY_ALLOWANCE.free; made++) {
      expect(rate(last).remaining, `request ${made}`).toBe(String(DAILY_KEY_ALLOWANCE.free - made));
      await last.arrayBuffer();
      last = await keyed(server, key);
    }
    expect(last.status).toBe(200);
    expect(rate(last)).toEqual({ limit: '1000', remaining: '0' });
    const refused = await keyed(server, key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(Number(refused.headers.get('ratelimit-reset')));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(rate(refused)).toEqual({ limit: '1000', remaining: '0' });
    expect(((await refused.json()) as { error: string }).error).toContain('1,000 requests of today');
    const list = (await (await server.request('/api/account/keys', { headers: { cookie } })).json()) as { keys: { usedToday: number }[] };
    expect(list.keys[0]!.usedToday).toBe(DAILY_KEY_ALLOWANCE.free + 1);

    // Revoked: the next request is refused, though this process had the key in its cache.
    const other = await makeKey(server, cookie, 'second');
    expect((await keyed(server, other.key)).status).toBe(200);
    const revoke = await server.request(`/api/account/keys/${other.id}/revoke`, { method: 'POST', headers: { cookie, origin: SITE } });
    expect(revoke.status).toBe(200);
    const after = await keyed(server, other.key);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await server.request(`/api/account/keys/${other.id}/revoke`, { method: 'POST', headers: { cookie, origin: SITE } })).status).toBe(404);
  });

  it('refuses a malformed or unknown key with 401 naming the form, and a sixth key with 409', async () => {
    const malformed = await server.request('/api/stock-price/AAPL', { headers: { authorization: 'Bearer not-a-key' } });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as { error: string }).error).toContain('Bearer KEY');
    const unknown = await keyed(server, `csk_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    const cookie = await signUp(server, 'many@example.com');
    for (let i = 0; i < MAX_KEYS_PER_ACCOUNT; i++) await makeKey(server, cookie, `key ${i}`);
    const sixth = await postJson(server, '/api/account/keys', { label: 'sixth' }, cookie);
    expect(sixth.status).toBe(409);
    expect(((await postJson(server, '/api/account/keys', { label: ' ' }, cookie)).status)).toBe(400);
  });

  it('a deleted account\'s keys stop at once', async () => {
    const cookie = await signUp(server, 'leaving@example.com');
    const { key } = await makeKey(server, cookie);
    expect((await keyed(server, key)).status).toBe(200);
    expect((await postJson(server, '/api/account/delete', {}, cookie)).status).toBe(200);
    expect((await keyed(server, key)).status).toBe(401);
    expect(await server.accounts.database.db.selectFrom('api_key').selectAll().where('key_hash', '=', createHash('sha256').update(key).digest('hex')).execute()).toEqual([]);
  });

  it('with PAYWALL=on a Pro account\'s key gets 50,000 a day, a Free one 1,000', async () => {
    const proCookie = await signUp(paying, 'pro@example.com');
    expect(await grantPro(paying.accounts.database.db, 'pro@example.com')).toBe('granted');
    const pro = await makeKey(paying, proCookie);
    expect(rate(await keyed(paying, pro.key))).toEqual({ limit: '50000', remaining: '49999' });
    const freeCookie = await signUp(paying, 'free@example.com');
    const free = await makeKey(paying, freeCookie);
    expect(rate(await keyed(paying, free.key))).toEqual({ limit: '1000', remaining: '999' });
  });
});

describe('API keys with REDIS_URL, two server processes', () => {
  let work: string;
  let redis: Started & { url: string };
  const clients: Redis[] = [];
  const servers: AccountServer[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'api-keys-redis-'));
    redis = await startRedis(join(work, 'redis'));
    const database = { url: null, file: join(work, 'app.db') };
    for (let i = 0; i < 2; i++) {
      const client = openRedis(redis.url, () => {});
      clients.push(client);
      if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
      // Both processes share one accounts database, as N processes behind nginx do.
      servers.push(await startAccountServer(null, { database }, { published: true, redis: client }));
    }
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const client of clients) client.disconnect();
    await redis?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('counts a key once across both processes, in Redis, and both refuse it at once when it is revoked', async () => {
    const [a, b] = servers as [AccountServer, AccountServer];
    const cookie = await signUp(a, 'shared@example.com');
    const { key, id } = await makeKey(a, cookie);
    const remaining = [];
    for (const server of [a, b, a, b]) remaining.push(rate(await keyed(server, key)).remaining);
    expect(remaining).toEqual(['999', '998', '997', '996']);
    // Redis counts, not the database.
    expect(await a.accounts.database.db.selectFrom('api_key_usage').selectAll().execute()).toEqual([]);
    const list = (await (await b.request('/api/account/keys', { headers: { cookie } })).json()) as { keys: { usedToday: number }[] };
    expect(list.keys[0]!.usedToday).toBe(4);

    // Both processes hold the key in their caches now; revoked on one, refused by the other on its next request.
    expect((await a.request(`/api/account/keys/${id}/revoke`, { method: 'POST', headers: { cookie, origin: SITE } })).status).toBe(200);
    expect((await keyed(b, key)).status).toBe(401);
    expect((await keyed(a, key)).status).toBe(401);
  });
});

describe('API keys without Redis, two server processes on one database', () => {
  let work: string;
  const servers: AccountServer[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'api-keys-shared-db-'));
    const database = { url: null, file: join(work, 'app.db') };
    for (let i = 0; i < 2; i++) servers.push(await startAccountServer(null, { database }, { published: true }));
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('count in the database for both (each adds its requests once a second), and a key revoked on one is refused by the other within a second', async () => {
    const [a, b] = servers as [AccountServer, AccountServer];
    const cookie = await signUp(a, 'shared-db@example.com');
    const { key, id } = await makeKey(a, cookie);
    const remaining = [];
    for (const server of [a, b, b, a]) remaining.push(rate(await keyed(server, key)).remaining);
    // Each process's first request of the day is written at once and reads the total; later ones count in the process.
    expect(remaining).toEqual(['999', '998', '997', '998']);
    const usedToday = async () => ((await (await a.request('/api/account/keys', { headers: { cookie } })).json()) as { keys: { usedToday: number }[] }).keys[0]!.usedToday;
    await expect.poll(usedToday, { timeout: 5_000 }).toBe(4);
    // The revocation is a's, and b holds the key in its cache: b refuses it within a second (its next write of counts).
    expect((await a.request(`/api/account/keys/${id}/revoke`, { method: 'POST', headers: { cookie, origin: SITE } })).status).toBe(200);
    expect((await keyed(a, key)).status).toBe(401);
    await expect.poll(async () => (await keyed(b, key)).status, { timeout: 3_000, interval: 200 }).toBe(401);
  });
});
