/** The per-caller AI rate limit: so many generating requests a minute, counted across processes through Redis when there is one. */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateMessage } from '../../lib/domain/ai/rules';
import { REDIS_PREFIX } from '../../storage/redis';
import { refusal } from '../errors';

/** The window of the limit, in seconds. */
export const RATE_WINDOW_SECONDS = 60;

export class AiRateLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    /** LLM_RATE_PER_MINUTE: requests a caller may make in one window. */
    readonly perMinute: number,
    redis: Redis | null = null,
  ) {
    const rate = { points: perMinute, duration: RATE_WINDOW_SECONDS };
    // While Redis is away each process counts alone (the insurance limiter), never a 500.
    this.limiter = redis
      ? new RateLimiterRedis({ ...rate, storeClient: redis, keyPrefix: `${REDIS_PREFIX}ai-rate`, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(rate) })
      : new RateLimiterMemory(rate);
  }

  /** Counts one request of `key`; past the limit throws the 429 that says when to try again (its Retry-After). */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw refusal(429, rateMessage(this.perMinute, seconds), { 'Retry-After': String(seconds) });
    }
  }
}
