/**
 * The AI rate limiter (src/server/ai/limiter.ts) on a real redis-server: API processes count one caller together,
 * and while Redis is away each counts alone instead of failing the request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTPException } from 'hono/http-exception';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiRateLimiter } from '../../src/server/ai/limiter';
import { openRedis } from '../../src/storage/redis';
import { startRedis, type Started } from '../fixtures/deploy';

/** What a consume answers: admitted, or the refusal's status. */
async function outcome(limiter: AiRateLimiter, key: string): Promise<'ok' | number> {
  try {
    await limiter.consume(key);
    return 'ok';
  } catch (error) {
    if (error instanceof HTTPException) return error.status;
    throw error;
  }
}

describe('the AI rate limiter on Redis', () => {
  let work: string;
  let redis: Started & { url: string };
  const clients: Redis[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'ai-limiter-'));
    redis = await startRedis(join(work, 'redis'));
    for (let i = 0; i < 2; i++) clients.push(openRedis(redis.url, () => {}));
    // Until a connection is ready the limiter counts in the process (rejectIfRedisNotReady).
    await Promise.all(clients.map((client) => (client.status === 'ready' ? undefined : new Promise((resolve) => client.once('ready', resolve)))));
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await redis?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('counts a caller across processes, then each process alone while Redis is down', async () => {
    // Two API processes, each with its own connection to the one Redis.
    const first = new AiRateLimiter(3, clients[0]!);
    const second = new AiRateLimiter(3, clients[1]!);
    expect([await outcome(first, 'user:a'), await outcome(second, 'user:a'), await outcome(first, 'user:a')]).toEqual(['ok', 'ok', 'ok']);
    expect([await outcome(second, 'user:a'), await outcome(first, 'user:a')]).toEqual([429, 429]);
    expect(await outcome(second, 'user:b')).toBe('ok');

    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counted = [];
    for (let i = 0; i < 4; i++) counted.push(await outcome(first, 'user:c'));
    expect(counted).toEqual(['ok', 'ok', 'ok', 429]);
    expect(await outcome(second, 'user:c')).toBe('ok');
  });
});
