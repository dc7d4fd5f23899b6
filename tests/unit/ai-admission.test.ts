/**
 * The AI route's checks without HTTP (src/server/ai/): who may ask and how often (the Free allowance, its reset at
 * UTC midnight, Pro), the site's daily token budget, the per-caller rate limit, the answer cache and the merging of
 * concurrent generations. The counts live in the real AI tables (SQLite); the clock is the test's.
 */
import { HTTPException } from 'hono/http-exception';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AiAdmission, type AiCaller, callerKey } from '../../src/server/ai/admission';
import { AnswerCache, InFlight } from '../../src/server/ai/answer-cache';
import { DailyBudget } from '../../src/server/ai/budget';
import { AiRateLimiter, RATE_WINDOW_SECONDS } from '../../src/server/ai/limiter';
import type { SessionUser } from '../../src/server/auth/session';
import { allowanceMessage, budgetMessage, FREE_AI_ALLOWANCE, rateMessage } from '../../src/lib/domain/ai/rules';
import { AiStore } from '../../src/storage/ai-store';
import { testAccounts } from '../fixtures/accounts';

/** The defaults of LLM_DAILY_TOKEN_LIMIT and LLM_RATE_PER_MIN (src/config.ts). */
const DAILY_TOKENS = 2_000_000;
const PER_MINUTE = 10;

function user(id: string, isPremium = false): SessionUser {
  return { id, email: `${id}@example.com`, name: '', emailVerified: true, isPremium, isOperator: false } as SessionUser;
}

function caller(who: SessionUser | null, address = '203.0.113.7'): AiCaller {
  return { user: who, key: callerKey(who, address) };
}

/** The refusal a promise ends in: its status, message and Retry-After. */
async function refused(promise: Promise<unknown>): Promise<{ status: number; message: string; retryAfter: string | null }> {
  const error = await promise.then(
    () => {
      throw new Error('expected a refusal, the request was admitted');
    },
    (e: unknown) => e,
  );
  if (!(error instanceof HTTPException)) throw error;
  return { status: error.status, message: error.message, retryAfter: error.res?.headers.get('Retry-After') ?? null };
}

let accounts: Awaited<ReturnType<typeof testAccounts>>;
let store: AiStore;

beforeAll(async () => {
  accounts = await testAccounts();
  store = new AiStore(accounts.database.db);
}, 60_000);

afterAll(async () => {
  await accounts?.dispose();
});

afterEach(() => {
  vi.useRealTimers();
});

/** An admission on the real tables with the test's clock; each test counts its own callers. */
function setup({ paywall = true, perMinute = 10_000, dailyTokens = DAILY_TOKENS } = {}) {
  const clock = { now: Date.parse('2026-11-20T12:00:00Z') };
  const budget = new DailyBudget(store, dailyTokens);
  return { clock, budget, admission: new AiAdmission({ uses: store, budget, limiter: new AiRateLimiter(perMinute), paywall, now: () => clock.now }) };
}

describe('admission', () => {
  it(`gives Free ${FREE_AI_ALLOWANCE.analysis} analyses a UTC day, refuses the next until midnight, then starts again`, async () => {
    const { clock, admission } = setup();
    const free = caller(user('free-analyses'));
    for (let i = 0; i < FREE_AI_ALLOWANCE.analysis; i++) await admission.admit(free, 'analysis');
    expect(await admission.allowance(free, 'analysis')).toEqual({ limit: FREE_AI_ALLOWANCE.analysis, used: FREE_AI_ALLOWANCE.analysis });
    clock.now = Date.parse('2026-11-20T23:59:59.500Z');
    expect(await refused(admission.admit(free, 'analysis'))).toEqual({
      status: 429,
      message: allowanceMessage('analysis', FREE_AI_ALLOWANCE.analysis, Date.parse('2026-11-21T00:00:00Z')),
      retryAfter: '1',
    });
    // A refused request is not counted.
    expect(await admission.allowance(free, 'analysis')).toEqual({ limit: 3, used: 3 });
    clock.now = Date.parse('2026-11-21T00:00:00Z');
    expect(await admission.allowance(free, 'analysis')).toEqual({ limit: 3, used: 0 });
    await admission.admit(free, 'analysis');
    expect(await admission.allowance(free, 'analysis')).toEqual({ limit: 3, used: 1 });
  });

  it(`counts Free's ${FREE_AI_ALLOWANCE.chat} chat messages apart from its analyses, per account`, async () => {
    const { admission } = setup();
    const free = caller(user('free-chat'));
    await admission.admit(free, 'analysis');
    for (let i = 0; i < FREE_AI_ALLOWANCE.chat; i++) await admission.admit(free, 'chat');
    const refusal = await refused(admission.admit(free, 'chat'));
    expect(refusal.status).toBe(429);
    expect(refusal.message).toContain("the Free plan's 20 AI chat messages");
    expect(refusal.retryAfter).toBe(String(12 * 3600));
    // The same address signed in as another account has its own count.
    await admission.admit(caller(user('free-chat-other')), 'chat');
  });

  it('leaves Pro unlimited, and asks an anonymous caller to sign in when PAYWALL=on', async () => {
    const { admission } = setup();
    const pro = caller(user('pro', true));
    for (let i = 0; i < FREE_AI_ALLOWANCE.analysis * 3; i++) await admission.admit(pro, 'analysis');
    expect(await admission.allowance(pro, 'analysis')).toEqual({ limit: null, used: 9 });
    const anonymous = caller(null);
    expect(await refused(admission.admit(anonymous, 'analysis'))).toEqual({
      status: 401,
      message: 'Sign in to ask for an AI analysis: on this site AI answers need an account (Free has 3 analyses and 20 chat messages a day, Pro is unlimited).',
      retryAfter: null,
    });
    expect((await refused(admission.admit(anonymous, 'chat'))).message).toMatch(/^Sign in to chat with the AI: /);
    expect(await admission.allowance(anonymous, 'chat')).toEqual({ signIn: true });
    expect(() => admission.readGate(anonymous, 'read the AI brief')).toThrow(/^Sign in to read the AI brief: /);
    expect(() => admission.readGate(pro, 'read the AI brief')).not.toThrow();
  });

  it('with PAYWALL=off gives an anonymous address the Free allowance, counted by address', async () => {
    const { admission } = setup({ paywall: false });
    const visitor = caller(null, '198.51.100.9');
    expect(visitor.key).toBe('address:198.51.100.9');
    for (let i = 0; i < FREE_AI_ALLOWANCE.analysis; i++) await admission.admit(visitor, 'analysis');
    expect((await refused(admission.admit(visitor, 'analysis'))).status).toBe(429);
    await admission.admit(caller(null, '198.51.100.10'), 'analysis');
    expect(() => admission.readGate(visitor, 'read the AI brief')).not.toThrow();
  });
});

describe('the daily budget', () => {
  it('refuses every caller, Pro too, once the day has spent its tokens, until UTC midnight', async () => {
    const { clock, budget, admission } = setup({ dailyTokens: 1000 });
    const pro = caller(user('pro-budget', true));
    const usage = await admission.admit(pro, 'chat');
    await store.addTokens(usage, 999);
    expect(await budget.status(clock.now)).toEqual({ exhausted: false, resetAt: '2026-11-21T00:00:00.000Z' });
    await store.addTokens(usage, 1);
    expect(await budget.status(clock.now)).toEqual({ exhausted: true, resetAt: '2026-11-21T00:00:00.000Z' });
    const reset = Date.parse('2026-11-21T00:00:00Z');
    expect(await refused(admission.admit(pro, 'chat'))).toEqual({ status: 429, message: budgetMessage(1000, reset), retryAfter: String(12 * 3600) });
    // The brief's check names the same budget without a Retry-After.
    expect(await refused(budget.check(clock.now, { retryAfter: false }))).toEqual({ status: 429, message: budgetMessage(1000, reset), retryAfter: null });
    clock.now = reset;
    await admission.admit(pro, 'chat');
  });

  it(`names the default budget of ${DAILY_TOKENS.toLocaleString('en-US')} tokens`, () => {
    expect(budgetMessage(DAILY_TOKENS, Date.parse('2026-11-21T00:00:00Z'))).toBe(
      'This site has used its daily AI budget of 2,000,000 tokens. AI answers start again at 2026-11-21T00:00:00Z (midnight UTC); the facts stay available.',
    );
  });
});

describe('the rate limiter', () => {
  it(`allows ${PER_MINUTE} requests a caller in a ${RATE_WINDOW_SECONDS}-second window, refuses the next with Retry-After, and opens again after the window`, async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-20T12:00:00Z') });
    const limiter = new AiRateLimiter(PER_MINUTE);
    for (let i = 0; i < PER_MINUTE; i++) await limiter.consume('user:a');
    expect(await refused(limiter.consume('user:a'))).toEqual({ status: 429, message: rateMessage(PER_MINUTE, 60), retryAfter: '60' });
    // Another caller has a window of its own.
    await limiter.consume('user:b');
    vi.advanceTimersByTime(45_000);
    expect(await refused(limiter.consume('user:a'))).toEqual({ status: 429, message: 'Too many AI requests: the limit is 10 a minute. Try again in 15 seconds.', retryAfter: '15' });
    vi.advanceTimersByTime(15_001);
    for (let i = 0; i < PER_MINUTE; i++) await limiter.consume('user:a');
    expect((await refused(limiter.consume('user:a'))).status).toBe(429);
  });

  it('is checked before the allowance: a request it refuses spends none', async () => {
    const { admission } = setup({ perMinute: 2 });
    const free = caller(user('free-rate'));
    await admission.admit(free, 'analysis');
    await admission.admit(free, 'analysis');
    expect((await refused(admission.admit(free, 'analysis'))).message).toMatch(/^Too many AI requests: the limit is 2 a minute/);
    expect(await admission.allowance(free, 'analysis')).toEqual({ limit: 3, used: 2 });
  });
});

describe('the answer cache', () => {
  it('keeps an answer by report date and ticker; a new report misses', () => {
    const cache = new AnswerCache<string>(3);
    cache.set('2026-11-20', 'XOM', '{"ticker":"XOM"}');
    expect(cache.get('2026-11-20', 'XOM')).toBe('{"ticker":"XOM"}');
    expect(cache.get('2026-11-21', 'XOM')).toBeUndefined();
    expect(cache.get('2026-11-20', 'CVX')).toBeUndefined();
  });

  it('drops the oldest answer past its capacity, and replacing an answer drops nothing', () => {
    const cache = new AnswerCache<string>(2);
    cache.set('d', 'A', 'a');
    cache.set('d', 'B', 'b');
    cache.set('d', 'B', 'b2');
    expect([cache.get('d', 'A'), cache.get('d', 'B'), cache.size]).toEqual(['a', 'b2', 2]);
    cache.set('d', 'C', 'c');
    expect([cache.get('d', 'A'), cache.get('d', 'B'), cache.get('d', 'C'), cache.size]).toEqual([undefined, 'b2', 'c', 2]);
    expect(() => new AnswerCache(0)).toThrow('An answer cache keeps at least one answer: got a capacity of 0.');
  });
});

describe('in-flight merging', () => {
  it('runs one generation for two concurrent asks of the same key, and a new one once it ended', async () => {
    const generations = new InFlight<string>();
    let runs = 0;
    let finish!: (text: string) => void;
    const work = () => {
      runs++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = generations.run('2026-11-20:brief', work);
    const second = generations.run('2026-11-20:brief', work);
    const other = generations.run('2026-11-20:brief:free', () => Promise.resolve('free'));
    expect(runs).toBe(1);
    finish('the brief');
    expect(await Promise.all([first, second, other])).toEqual(['the brief', 'the brief', 'free']);
    expect(generations.size).toBe(0);
    await generations.run('2026-11-20:brief', () => Promise.resolve('again'));
    expect(runs).toBe(1);
  });

  it('hands a failure to every waiting ask, and the next ask tries again', async () => {
    const generations = new InFlight<string>();
    let runs = 0;
    const failing = () => {
      runs++;
      return new Promise<string>((_, reject) => setTimeout(() => reject(new Error('The AI brief could not be written')), 5));
    };
    const results = await Promise.allSettled([generations.run('k', failing), generations.run('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    expect(await generations.run('k', () => Promise.resolve('written'))).toBe('written');
  });
});
