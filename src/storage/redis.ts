/**
 * What N API processes and two hosts' daily jobs share when REDIS_URL is set (docs/deploy.md): the market-data
 * cache, the per-minute upstream budget and the daily job's lock. Each is a few atomic Redis commands or a short Lua
 * script, so two processes never both take the last call of a minute or both hold the lock. Without REDIS_URL none of
 * this is used and each process keeps its own (src/server/cache.ts, proper-lockfile).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** Every key this product writes starts with this, so one Redis can serve other things too. */
export const REDIS_PREFIX = 'c-score-signals:';

/**
 * A connection for the shared state: commands fail fast (one retry) instead of queueing while Redis is away, and a
 * lost connection is told to `log` once per different error (ioredis keeps reconnecting meanwhile).
 */
export function openRedis(url: string, log: (line: string) => void = (line) => console.warn(line)): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true, connectionName: 'c-score-signals' });
  let last = '';
  redis.on('error', (error: Error) => {
    if (error.message === last) return;
    last = error.message;
    log(`Redis at ${new URL(url).host} cannot be reached (${error.message}); the shared budget, cache and lock wait for it.`);
  });
  redis.on('ready', () => (last = ''));
  return redis;
}

/** Whether Redis is connected and answers a PING within `timeoutMs` (/api/health); never waits for a reconnect. */
export async function redisAnswers(redis: Redis, timeoutMs = 1000): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([redis.ping().then((answer) => answer === 'PONG', () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

// A sliding minute by Redis's own clock (two hosts' clocks never agree exactly): drop the calls older than the
// window, refuse past the limit, else record this one. Returns {taken (0 or 1), calls in the window}.
const TAKE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - tonumber(ARGV[1]))
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[2]) then return {0, n} end
redis.call('ZADD', KEYS[1], ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return {1, n + 1}
`;

// Milliseconds until a call may be taken: 0 below the limit, else until the oldest call of the window leaves it.
const WAIT = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - tonumber(ARGV[1]))
local n = redis.call('ZCARD', KEYS[1])
if n < tonumber(ARGV[2]) then return 0 end
local oldest = redis.call('ZRANGE', KEYS[1], n - tonumber(ARGV[2]), n - tonumber(ARGV[2]), 'WITHSCORES')
return tonumber(oldest[2]) + tonumber(ARGV[1]) - ms
`;

const WINDOW_MS = 60_000;

/**
 * The per-minute market-data budget shared by every process (the same sliding minute as RateBudget). When Redis cannot
 * be reached no call is taken: the routes serve their cache or the empty answer, as with a spent budget.
 */
export class SharedBudget {
  private left: number;
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    readonly perMinute: number,
    name = 'polygon',
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.key = `${REDIS_PREFIX}budget:${name}`;
    this.left = perMinute;
  }

  /** Takes one call from the shared minute, leaving `reserved` of its calls untouched; false when it cannot. */
  async tryTake(reserved = 0): Promise<boolean> {
    try {
      const [taken, count] = (await this.redis.eval(TAKE, 1, this.key, WINDOW_MS, this.perMinute - reserved, randomUUID())) as [number, number];
      this.left = Math.max(0, this.perMinute - count);
      return taken === 1;
    } catch (error) {
      this.log(`The shared market-data budget in Redis cannot be read (${(error as Error).message}); no upstream call is made.`);
      return false;
    }
  }

  /** Milliseconds until a call may be taken (the daily job's bulk fetch waits this long). */
  async msUntilFree(): Promise<number> {
    return Math.max(0, Number(await this.redis.eval(WAIT, 1, this.key, WINDOW_MS, this.perMinute)));
  }

  /** Calls left in the minute as this process last saw it (the health answer; exact at the last take). */
  remaining(): number {
    return this.left;
  }
}

/** A value another process stored, with the milliseconds it stays fresh. */
export interface SharedEntry {
  value: unknown;
  ttlMs: number;
}

/** The market-data answers every process shares: JSON under a key, expiring with its cache window. */
export class SharedCache {
  constructor(
    private readonly redis: Redis,
    private readonly name = 'polygon',
  ) {}

  private key(key: string): string {
    return `${REDIS_PREFIX}cache:${this.name}:${key}`;
  }

  /** The stored value and its time left, or undefined when none is fresh (or Redis cannot be read). */
  async get(key: string): Promise<SharedEntry | undefined> {
    try {
      const result = await this.redis.multi().get(this.key(key)).pttl(this.key(key)).exec();
      const text = result?.[0]?.[1];
      const ttlMs = Number(result?.[1]?.[1]);
      if (typeof text !== 'string' || !(ttlMs > 0)) return undefined;
      return { value: JSON.parse(text) as unknown, ttlMs };
    } catch {
      return undefined;
    }
  }

  /** Stores a value for `ttlMs`; a failed write only costs the other processes a call. */
  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(key), JSON.stringify(value), 'PX', Math.max(1, Math.round(ttlMs))).catch(() => undefined);
  }
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** The lock is held by another process: how long until it expires unless renewed. */
export class LockHeldError extends Error {
  constructor(
    readonly key: string,
    readonly msLeft: number,
  ) {
    super(`The lock ${key} is held by another process (${Math.ceil(msLeft / 1000)} s left unless it is renewed).`);
    this.name = 'LockHeldError';
  }
}

/**
 * Runs `work` holding the Redis lock `name` (SET NX with a token, renewed every quarter of `staleMs` by compare and
 * expire, released by compare and delete). A holder that dies stops renewing, and the lock expires `staleMs` later.
 * Throws LockHeldError at once when another process holds it.
 */
export async function withRedisLock<T>(redis: Redis, name: string, staleMs: number, work: () => Promise<T>, log: (line: string) => void = () => undefined): Promise<T> {
  const key = `${REDIS_PREFIX}lock:${name}`;
  const token = randomUUID();
  const taken = await redis.set(key, token, 'PX', staleMs, 'NX');
  if (taken !== 'OK') throw new LockHeldError(key, await redis.pttl(key));
  const renew = setInterval(() => {
    redis.eval(RENEW, 1, key, token, staleMs).then(
      (renewed) => {
        if (Number(renewed) !== 1) log(`The daily job's lock ${key} was lost (it expired or was taken over); another run may start.`);
      },
      (error: Error) => log(`The daily job's lock ${key} could not be renewed (${error.message}); another run may take it over.`),
    );
  }, Math.max(1000, staleMs / 4));
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}
