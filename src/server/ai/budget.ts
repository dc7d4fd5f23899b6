/** The site's daily AI token budget: once the day's generations have used it, nothing more is generated until UTC midnight. */
import { budgetMessage, nextUtcMidnight, utcDay } from '../../lib/domain/ai/rules';
import { refusal } from '../errors';

/** Where the day's spent tokens are counted (AiStore in the app). */
export interface TokenCounts {
  tokensToday(day: string): Promise<number>;
}

/** Seconds until the next UTC midnight, at least one: the Retry-After of every refusal that lasts the day. */
export function secondsToMidnight(now: number): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
}

export class DailyBudget {
  constructor(
    private readonly counts: TokenCounts,
    /** LLM_DAILY_TOKENS: the tokens the site may spend in one UTC day. */
    readonly limit: number,
  ) {}

  /** Whether the day of `now` has spent its tokens. */
  async exhausted(now: number): Promise<boolean> {
    return (await this.counts.tokensToday(utcDay(now))) >= this.limit;
  }

  /** Throws the 429 that names the limit and the reset once the day's tokens are spent (with Retry-After unless `retryAfter` is false). */
  async check(now: number, { retryAfter = true } = {}): Promise<void> {
    if (!(await this.exhausted(now))) return;
    const resetAt = nextUtcMidnight(now);
    throw refusal(429, budgetMessage(this.limit, resetAt), retryAfter ? { 'Retry-After': String(secondsToMidnight(now)) } : undefined);
  }

  /** What /api/ai/status shows of the budget. */
  async status(now: number): Promise<{ exhausted: boolean; resetAt: string }> {
    return { exhausted: await this.exhausted(now), resetAt: new Date(nextUtcMidnight(now)).toISOString() };
  }
}
