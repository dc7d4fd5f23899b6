/**
 * The open API's keys in the accounts database (SQLite or PostgreSQL). A key is 32 random bytes: only its SHA-256 is
 * stored, which is enough at that entropy (no guess list to run through, unlike a password) and costs a microsecond
 * per request, where a slow password hash would cost milliseconds on every keyed request. The database alone never
 * lets anyone in. Without REDIS_URL the daily counts are kept here too, one row per key and day.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { API_KEY_PREFIX, KEY_START_LENGTH, MAX_KEYS_PER_ACCOUNT, type ApiKeyEntry } from '../lib/domain/accounts/api-keys';
import type { Redis } from 'ioredis';
import { asBoolean, type AppDatabase, type Database, nowText } from './db';
import { REDIS_PREFIX } from './redis';

/** The SHA-256 of a key, as stored and looked up. */
export const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Thrown when an account already holds MAX_KEYS_PER_ACCOUNT keys. */
export class TooManyKeysError extends Error {
  constructor() {
    super(`keys: an account may hold ${MAX_KEYS_PER_ACCOUNT} keys at once; revoke one you no longer use first.`);
  }
}

/** Makes a key for a user; the answer is the only time its text exists outside the caller. */
export async function createApiKey(db: Kysely<Database>, userId: string, label: string, now = Date.now()): Promise<{ key: string; entry: ApiKeyEntry }> {
  const held = await db.selectFrom('api_key').select(db.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(held?.n ?? 0) >= MAX_KEYS_PER_ACCOUNT) throw new TooManyKeysError();
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const entry: ApiKeyEntry = { id: randomUUID(), label, start: key.slice(0, KEY_START_LENGTH), createdAt: nowText(now), usedToday: 0 };
  await db
    .insertInto('api_key')
    .values({ id: entry.id, user_id: userId, label, key_hash: keyHash(key), key_start: entry.start, created_at: entry.createdAt, revoked_at: null })
    .execute();
  return { key, entry };
}

/** A user's live keys, newest first; `usedToday` from `counts` (key id to today's requests). */
export async function listApiKeys(db: Kysely<Database>, userId: string, counts: (ids: string[]) => Promise<Map<string, number>>): Promise<ApiKeyEntry[]> {
  const rows = await db.selectFrom('api_key').select(['id', 'label', 'key_start', 'created_at']).where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
  const used = await counts(rows.map((row) => row.id));
  return rows.map((row) => ({ id: row.id, label: row.label, start: row.key_start, createdAt: row.created_at, usedToday: used.get(row.id) ?? 0 }));
}

/** Revokes one of a user's keys; false when the user has no such live key. */
export async function revokeApiKey(db: Kysely<Database>, userId: string, id: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_key').set({ revoked_at: nowText(now) }).where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Today's counts of some keys, from the database. */
export async function databaseCounts(db: Kysely<Database>, ids: string[], day: string): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('api_key_usage').select(['key_id', 'count']).where('key_id', 'in', ids).where('day', '=', day).execute();
  return new Map(rows.map((row) => [row.key_id, Number(row.count)]));
}

/** A live key as the server checks it: its id, its owner and whether the owner has Pro. */
export interface KeyHolder {
  id: string;
  userId: string;
  isPro: boolean;
}

interface HolderRow {
  id: string;
  user_id: string;
  granted: number | boolean | string;
  subscribed: number | boolean | string;
}

/**
 * The queries of keyed requests, compiled once (each call only binds its values): the live key by its hash, and the
 * day's count raised by some requests, which counts only while the key is live.
 */
export class KeyQueries {
  readonly #database: AppDatabase;
  readonly #holder: CompiledQuery<HolderRow>;
  readonly #add: CompiledQuery<{ count: number }>;

  constructor(database: AppDatabase, stripe: boolean) {
    this.#database = database;
    const db = database.db;
    const subscribed = stripe
      ? sql<number>`exists (select 1 from ${sql.table('subscription')} as b where b.${sql.ref('referenceId')} = k.user_id and b.status in ('active', 'trialing'))`
      : sql<number>`0`;
    this.#holder = db
      .selectFrom('api_key as k')
      .select(['k.id', 'k.user_id', sql<number>`exists (select 1 from plan_grant as g where g.user_id = k.user_id)`.as('granted'), subscribed.as('subscribed')])
      .where('k.key_hash', '=', '')
      .where('k.revoked_at', 'is', null)
      .compile() as CompiledQuery<HolderRow>;
    // INSERT ... SELECT: nothing is counted (and nothing returned) once the key is revoked or gone.
    this.#add = sql<{ count: number }>`insert into api_key_usage (key_id, day, count)
      select id, ${''}, cast(${0} as integer) from api_key where id = ${''} and revoked_at is null
      on conflict (key_id, day) do update set count = api_key_usage.count + excluded.count
      returning count`.compile(db);
  }

  /** The live key with this hash, or null. */
  async holder(hash: string): Promise<KeyHolder | null> {
    const { rows } = await this.#database.db.executeQuery(CompiledQuery.raw(this.#holder.sql, [hash]) as CompiledQuery<HolderRow>);
    const row = rows[0];
    return row === undefined ? null : { id: row.id, userId: row.user_id, isPro: asBoolean(row.granted) || asBoolean(row.subscribed) };
  }

  /** Adds `requests` to a key's count of `day`: the day's count with them, or null when the key is revoked or gone. */
  async add(id: string, day: string, requests: number): Promise<number | null> {
    const { rows } = await this.#database.db.executeQuery(CompiledQuery.raw(this.#add.sql, [day, requests, id]) as CompiledQuery<{ count: number }>);
    return rows[0] === undefined ? null : Number(rows[0].count);
  }
}

// Refuses (-1) a key whose revocation marker is set, else counts the request: the day's count with it. The counter
// lives two days, so a window's last requests never find it gone.
const COUNT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
return n
`;

/** How long a revocation marker is kept: longer than any process keeps a key in its cache. */
const REVOKED_MARKER_SECONDS = 2 * 86_400;
const COUNTER_SECONDS = 2 * 86_400;

/** With REDIS_URL: every process counts a key's requests in one Redis counter a day, and sees a revocation at once. */
export class RedisKeyCounter {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  #counter(id: string, day: string): string {
    return `${REDIS_PREFIX}api-key:count:${id}:${day}`;
  }

  #marker(id: string): string {
    return `${REDIS_PREFIX}api-key:revoked:${id}`;
  }

  /** Counts one request: the day's count with it, or null when the key was revoked. */
  async count(id: string, day: string): Promise<number | null> {
    const n = Number(await this.#redis.eval(COUNT_SCRIPT, 2, this.#marker(id), this.#counter(id, day), COUNTER_SECONDS));
    return n < 0 ? null : n;
  }

  /** Marks a key revoked for every process. */
  async revoked(id: string): Promise<void> {
    await this.#redis.set(this.#marker(id), '1', 'EX', REVOKED_MARKER_SECONDS);
  }

  /** Today's counts of some keys. */
  async counts(ids: string[], day: string): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const values = await this.#redis.mget(ids.map((id) => this.#counter(id, day)));
    return new Map(ids.map((id, i) => [id, Number(values[i] ?? 0)]));
  }
}
