/**
 * Who may make the model write, and how often: the plans' allowances (sign-in with PAYWALL=on, Free's daily
 * counts, Pro unlimited), the site's daily budget and the per-caller rate limit, checked in that order before a
 * generating request spends anything.
 */
import { aiAllowance, allowanceMessage, type AiUse, FREE_AI_ALLOWANCE, nextUtcMidnight, utcDay } from '../../lib/domain/ai/rules';
import type { SessionUser } from '../auth/session';
import { refusal } from '../errors';
import { type DailyBudget, secondsToMidnight } from './budget';
import type { AiRateLimiter } from './limiter';

/** Where the day's uses are counted and recorded (AiStore in the app). */
export interface UseCounts {
  usedToday(day: string, userKey: string, use: AiUse): Promise<number>;
  recordUse(day: string, userKey: string, use: AiUse, now: number): Promise<string>;
}

/** Who asks: the signed-in user, if any, and the key their uses are counted under. */
export interface AiCaller {
  user: SessionUser | null;
  /** `user:ID` when signed in, else `address:IP`. */
  key: string;
}

/** A caller's allowance of one use as /api/ai/status shows it. */
export type AllowanceStatus = { signIn: true } | { limit: number | null; used: number };

/** The counting key of a caller: the account when signed in, else the client's address. */
export function callerKey(user: SessionUser | null, address: string): string {
  return user ? `user:${user.id}` : `address:${address}`;
}

/** The 401 that says AI needs an account and what Free and Pro get. */
export function signInRefusal(what: string) {
  return refusal(401, `Sign in to ${what}: on this site AI answers need an account (Free has ${FREE_AI_ALLOWANCE.analysis} analyses and ${FREE_AI_ALLOWANCE.chat} chat messages a day, Pro is unlimited).`);
}

export interface AdmissionDeps {
  uses: UseCounts;
  budget: DailyBudget;
  limiter: AiRateLimiter;
  /** PAYWALL=on: AI needs an account. */
  paywall: boolean;
  /** The clock (ms since the epoch). */
  now: () => number;
}

export class AiAdmission {
  constructor(private readonly deps: AdmissionDeps) {}

  private rule(caller: AiCaller, use: AiUse) {
    return aiAllowance({ paywall: this.deps.paywall, signedIn: caller.user !== null, isPro: caller.user?.isPremium ?? false }, use);
  }

  /** Refuses a caller who must sign in to read stored AI texts (PAYWALL=on, anonymous). */
  readGate(caller: AiCaller, what: string): void {
    if (this.deps.paywall && caller.user === null) throw signInRefusal(what);
  }

  /**
   * Admits a request that will call the model, or throws its refusal: sign-in (401), the budget, the rate limit,
   * then the allowance (429, each with Retry-After). Records the use and answers its id, for the tokens it spends.
   */
  async admit(caller: AiCaller, use: AiUse): Promise<string> {
    const now = this.deps.now();
    const day = utcDay(now);
    const allowance = this.rule(caller, use);
    if ('signIn' in allowance) throw signInRefusal(use === 'analysis' ? 'ask for an AI analysis' : 'chat with the AI');
    await this.deps.budget.check(now);
    await this.deps.limiter.consume(caller.key);
    if (allowance.limit !== null && (await this.deps.uses.usedToday(day, caller.key, use)) >= allowance.limit) {
      throw refusal(429, allowanceMessage(use, allowance.limit, nextUtcMidnight(now)), { 'Retry-After': String(secondsToMidnight(now)) });
    }
    return this.deps.uses.recordUse(day, caller.key, use, now);
  }

  /** The caller's allowance of `use` today; `counted` false (AI not configured) shows none used. */
  async allowance(caller: AiCaller, use: AiUse, counted = true): Promise<AllowanceStatus> {
    const rule = this.rule(caller, use);
    if ('signIn' in rule) return { signIn: true };
    return { limit: rule.limit, used: counted ? await this.deps.uses.usedToday(utcDay(this.deps.now()), caller.key, use) : 0 };
  }
}
