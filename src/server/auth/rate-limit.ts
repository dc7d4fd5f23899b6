/**
 * Better Auth's sign-in, sign-up and mail limits kept in Redis: with REDIS_URL every API process counts
 * against the same window, so N processes behind nginx allow what one does, not N times as much. While Redis cannot
 * be reached each process counts in its own memory instead, so sign-in keeps working under the same per-process rule.
 */
import type { BetterAuthRateLimitStorage } from '@better-auth/core';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { REDIS_PREFIX } from '../../storage/redis';

/** A Better Auth rate-limit storage in Redis: one fixed-window counter per rule (window and max) and key. */
export function redisAuthLimits(redis: Redis): BetterAuthRateLimitStorage {
  const limiters = new Map<string, RateLimiterRedis>();
  const limiterFor = (window: number, max: number) => {
    const name = `${window}:${max}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${REDIS_PREFIX}auth:${name}`,
        points: max,
        duration: window,
        // Redis away (not connected, or a command failing): this process's memory counts, at once, never a 500.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points: max, duration: window }),
      });
      limiters.set(name, limiter);
    }
    return limiter;
  };
  return {
    async consume(key, { window, max }) {
      try {
        await limiterFor(window, max).consume(key);
        return { allowed: true, retryAfter: null };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
      }
    },
  };
}
