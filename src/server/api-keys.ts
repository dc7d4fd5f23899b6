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

/**
 * How long a process trusts a key it looked up (its owner and plan). A revocation or a deleted account never waits
 * for it: the process that makes the change forgets the key at once, and tells the others (Redis's marker, or without
 * Redis the database's refusal of the next count it writes).
 */
const HOLDER_CACHE_MS = 60_000;
/** Keys a process keeps in its cache before it starts afresh. */
const HOLDER_CACHE_SIZE = 10_000;
/** Without REDIS_URL: how often a process adds the keyed requests it counted to the database's counts. */
const FLUSH_MS = 1_000;

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
  /** Tells every process that an account and its keys (`ids`) are gone. */
  accountDeleted(userId: string, ids: readonly string[]): Promise<void>;
}

/**
 * Without REDIS_URL: each process counts its keyed requests in memory and adds them to the database's count once a
 * second; the count it decides on is the database's total at its last write plus its own since. A write per request
 * would put a database commit on every keyed request (on SQLite, a WAL frame and now and then a checkpoint's fsync, on
 * the one thread). A key's first request of the day in a process is written at once, which also reads the total so
 * far. One process counts exactly; N processes on one database may pass the allowance by what the others counted in
 * their last second (REDIS_URL counts exactly across processes).
 */
class WriteBehindCounts {
  readonly #queries: KeyQueries;
  readonly #counts = new Map<string, { day: string; base: number; writing: number; pending: number }>();
  #flushing = false;

  readonly #gone: (id: string) => void;

  /** `gone` is told of a key the database no longer counts (revoked, or its account deleted, by another process). */
  constructor(queries: KeyQueries, gone: (id: string) => void) {
    this.#queries = queries;
    this.#gone = gone;
    setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Counts one request: the day's count with it, or null when the key is revoked or gone. */
  async count(id: string, day: string): Promise<number | null> {
    const entry = this.#counts.get(id);
    if (entry !== undefined && entry.day === day) return entry.base + entry.writing + (entry.pending += 1);
    const total = await this.#queries.add(id, day, 1);
    if (total === null) return null;
    // Another first request of the day may have been written meanwhile: the larger total has both.
    const now = this.#counts.get(id);
    const same = now !== undefined && now.day === day;
    this.#counts.set(id, { day, base: Math.max(total, same ? now.base : 0), writing: same ? now.writing : 0, pending: same ? now.pending : 0 });
    return total + (same ? now.writing + now.pending : 0);
  }

  /** What this process counted and has not written yet, by key. */
  pending(id: string, day: string): number {
    const entry = this.#counts.get(id);
    return entry !== undefined && entry.day === day ? entry.writing + entry.pending : 0;
  }

  /** Adds each key's requests counted since the last write to the database, and takes the totals back. */
  async flush(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      for (const [id, entry] of this.#counts) {
        if (entry.pending === 0) {
          this.#counts.delete(id);
          continue;
        }
        // Still counted while they are written: base + writing + pending is the count throughout.
        const requests = (entry.writing = entry.pending);
        entry.pending = 0;
        const total = await this.#queries.add(id, entry.day, requests).catch(() => undefined);
        entry.writing = 0;
        if (total === undefined) entry.pending += requests;
        else if (total === null) {
          this.#counts.delete(id);
          this.#gone(id);
        } else entry.base = total;
      }
    } finally {
      this.#flushing = false;
    }
  }

  forget(id: string): void {
    this.#counts.delete(id);
  }
}

/**
 * The keyed-request check over the accounts database: a process keeps each key's lookup a minute (HOLDER_CACHE_MS).
 * Without `redis` it counts in the process (WriteBehindCounts); with `redis` each request is one Redis script that
 * counts it unless the key's revocation marker is set.
 */
export function keyedRequests(accounts: Accounts, redis: Redis | null, now: () => number): KeyedRequests {
  const queries = new KeyQueries(accounts.database, accounts.stripe !== null);
  const counter = redis === null ? null : new RedisKeyCounter(redis);
  const cache = new Map<string, { holder: KeyHolder; until: number }>();
  const forget = (drop: (holder: KeyHolder) => boolean) => {
    for (const [hash, entry] of cache) if (drop(entry.holder)) cache.delete(hash);
  };
  const local = counter === null ? new WriteBehindCounts(queries, (id) => forget((holder) => holder.id === id)) : null;

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
    const used = counter === null ? await local!.count(holder.id, day) : await counter.count(holder.id, day);
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
      forget((holder) => holder.id === id);
      local?.forget(id);
      await counter?.revoked(id);
    },
    async accountDeleted(userId, ids) {
      forget((holder) => holder.userId === userId);
      for (const id of ids) {
        local?.forget(id);
        await counter?.revoked(id);
      }
    },
    async countsToday(ids) {
      const { day } = keyWindow(now());
      if (counter !== null) return counter.counts(ids, day);
      const stored = await databaseCounts(accounts.database.db, ids, day);
      return new Map(ids.map((id) => [id, (stored.get(id) ?? 0) + local!.pending(id, day)]));
    },
  };
}
