/**
 * Keyed requests to the live routes: `Authorization: Bearer KEY` puts a request on its key's own daily allowance, with
 * the RateLimit header fields on every answer and a 429 with Retry-After past it. A request without the header is
 * answered as before. A keyed request carries no cookie and reads no session, so it needs no origin check; the routes
 * that make and revoke keys are the account's, behind the session and the origin check.
 */
import type { MiddlewareHandler } from 'hono';
import type { Redis } from 'ioredis';
import { bearerKey, keyAllowance, keyWindow, rateLimitHeaders } from '../lib/domain/accounts/api-keys';
import { databaseCounts, type KeyHolder, keyHash, KeyQueries, RedisKeyCounter } from '../storage/api-keys';
import type { Accounts } from './accounts';
import { refusal } from './errors';
import { PRIVATE_NO_STORE } from './routes/context';

/** How long a process trusts a key it looked up (its owner's plan); a revocation never waits for it. */
const HOLDER_CACHE_MS = 60_000;
/** Keys a process keeps in its cache before it starts afresh. */
const HOLDER_CACHE_SIZE = 10_000;

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };
const MALFORMED = 'The Authorization header must be "Bearer KEY" with a key made on /account (csk_ and 43 characters); or send no Authorization header to use the API without a key.';
const UNKNOWN = 'The API key is unknown or revoked: make a new one on /account and send it as "Authorization: Bearer KEY".';

/** The keyed-request check and what the account routes need of it. */
export interface KeyedRequests {
  /** The middleware in front of the live routes a key may call. */
  middleware: MiddlewareHandler;
  /** Tells every process that a key was revoked (this process's cache, and Redis's marker with REDIS_URL). */
  revoked(id: string): Promise<void>;
  /** Today's counts of some keys. */
  countsToday(ids: string[]): Promise<Map<string, number>>;
}

/** The keyed-request check over the accounts database, counting in Redis when there is one (`redis`), else in the database. */
export function keyedRequests(accounts: Accounts, redis: Redis | null, now: () => number): KeyedRequests {
  const queries = new KeyQueries(accounts.database, accounts.stripe !== null);
  const counter = redis === null ? null : new RedisKeyCounter(redis);
  const cache = new Map<string, { holder: KeyHolder; until: number }>();

  async function holderOf(hash: string, at: number): Promise<KeyHolder | null> {
    const cached = cache.get(hash);
    if (cached !== undefined && cached.until > at) return cached.holder;
    const holder = await queries.holder(hash);
    if (holder === null) {
      cache.delete(hash);
      return null;
    }
    if (cache.size >= HOLDER_CACHE_SIZE) cache.clear();
    cache.set(hash, { holder, until: at + HOLDER_CACHE_MS });
    return holder;
  }

  const middleware: MiddlewareHandler = async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) return next();
    const key = bearerKey(header);
    if (key === null) throw refusal(401, MALFORMED, CHALLENGE);
    const at = now();
    const hash = keyHash(key);
    const holder = await holderOf(hash, at);
    if (holder === null) throw refusal(401, UNKNOWN, CHALLENGE);
    const { day, resetSeconds } = keyWindow(at);
    const used = counter === null ? await queries.count(holder.id, day) : await counter.count(holder.id, day);
    if (used === null) {
      cache.delete(hash);
      throw refusal(401, UNKNOWN, CHALLENGE);
    }
    const limit = keyAllowance(holder.isPro, accounts.paywall);
    const headers = rateLimitHeaders(limit, used, resetSeconds);
    if (used > limit) {
      throw refusal(429, `This key has made its ${limit.toLocaleString('en-US')} requests of today (UTC); the allowance resets in ${resetSeconds} s. The static JSON needs no key.`, {
        ...headers,
        'Retry-After': String(resetSeconds),
        'Cache-Control': PRIVATE_NO_STORE,
      });
    }
    await next();
    // A keyed answer is the key's own (its count in the headers): no shared cache may keep it for another caller.
    const answer = c.res.headers;
    for (const name in headers) answer.set(name, headers[name]!);
    answer.set('Cache-Control', PRIVATE_NO_STORE);
  };

  return {
    middleware,
    async revoked(id) {
      for (const [hash, entry] of cache) if (entry.holder.id === id) cache.delete(hash);
      await counter?.revoked(id);
    },
    countsToday(ids) {
      const { day } = keyWindow(now());
      return counter === null ? databaseCounts(accounts.database.db, ids, day) : counter.counts(ids, day);
    },
  };
}
