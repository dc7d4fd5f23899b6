import { describe, expect, it } from 'vitest';
import { RateBudget, TtlCache } from '../../src/server/cache';
import { errorBodyText } from '../../src/server/providers/polygon';
import { demoClose } from '../../src/lib/domain/market-data/demo-prices';
import { DemoProvider } from '../../src/server/providers/demo';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TtlCache', () => {
  it('serves a value for its window, then loads again', async () => {
    const time = clock();
    const cache = new TtlCache<number>({ now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', 1000, load)).toEqual({ value: 1, stale: false });
    time.advance(999);
    expect(await cache.get('k', 1000, load)).toEqual({ value: 1, stale: false });
    expect(cache.peek('k')).toBe(1);
    time.advance(1);
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', 1000, load)).toEqual({ value: 2, stale: false });
  });

  it('merges loads in flight', async () => {
    const cache = new TtlCache<string>();
    let loads = 0;
    let release: (value: string) => void = () => undefined;
    const load = () => {
      loads += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const all = Promise.all([cache.get('k', 1000, load), cache.get('k', 1000, load), cache.get('k', 1000, load)]);
    release('v');
    expect((await all).map((r) => r.value)).toEqual(['v', 'v', 'v']);
    expect(loads).toBe(1);
    expect(cache.stats.merged).toBe(2);
  });

  it('serves the last value as stale when a refresh fails, waits before retrying, and throws with nothing to serve', async () => {
    const time = clock();
    const cache = new TtlCache<string>({ now: time.now, retryAfterFailureMs: 5000 });
    await cache.get('k', 1000, async () => 'good');
    time.advance(2000);
    let attempts = 0;
    const failing = async () => {
      attempts += 1;
      throw new Error('down');
    };
    expect(await cache.get('k', 1000, failing)).toEqual({ value: 'good', stale: true });
    expect(await cache.get('k', 1000, failing)).toEqual({ value: 'good', stale: true });
    expect(attempts).toBe(1);
    time.advance(5000);
    await cache.get('k', 1000, failing);
    expect(attempts).toBe(2);
  });

  it('throws a failure with nothing to serve, and throws it again without loading until the retry time', async () => {
    const time = clock();
    const cache = new TtlCache<string>({ now: time.now, retryAfterFailureMs: 5000 });
    let attempts = 0;
    const failing = async () => {
      attempts += 1;
      throw new Error('down');
    };
    await expect(cache.get('k', 1000, failing)).rejects.toThrow('down');
    await expect(cache.get('k', 1000, failing)).rejects.toThrow('down');
    expect(attempts).toBe(1);
    time.advance(5000);
    expect(await cache.get('k', 1000, async () => 'back')).toEqual({ value: 'back', stale: false });
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new TtlCache<number>({ maxEntries: 2 });
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    cache.set('c', 3, 1000);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([undefined, 2, 3]);
  });
});

describe('RateBudget', () => {
  it('allows perMinute takes in any 60 s window', () => {
    const time = clock();
    const budget = new RateBudget(5, time.now);
    expect(Array.from({ length: 6 }, () => budget.tryTake())).toEqual([true, true, true, true, true, false]);
    expect(budget.remaining()).toBe(0);
    time.advance(59_999);
    expect(budget.tryTake()).toBe(false);
    time.advance(1);
    expect(budget.remaining()).toBe(5);
    expect(budget.tryTake()).toBe(true);
  });
});

describe('errorBodyText: the three error body styles', () => {
  it.each([
    ['{"status":"ERROR","request_id":"x","error":"Unknown API Key"}', 'Unknown API Key'],
    ['{"status":"NOT_AUTHORIZED","message":"You are not entitled to this data."}', 'You are not entitled to this data.'],
    ['{"status":"ERROR"}', 'ERROR'],
    ['<html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><h1>Bad Gateway</h1></body></html>', '502 Bad Gateway Bad Gateway'],
    ['', ''],
    ['plain words', 'plain words'],
  ])('%j -> %j', (body, expected) => {
    expect(errorBodyText(body)).toBe(expected);
  });
});

describe('the demo provider', () => {
  const day = Date.parse('2026-11-20T15:00:00Z');
  const provider = new DemoProvider({ universe: [], now: () => day });

  it('is deterministic per ticker and day, flags demo prices and invents no fundamentals', async () => {
    const a = await provider.quote('AAPL');
    const b = await new DemoProvider({ universe: [], now: () => day + 3_600_000 }).quote('AAPL');
    expect({ ...a, fetchedAt: '' }).toEqual({ ...b, fetchedAt: '' });
    expect(a).toMatchObject({ symbol: 'AAPL', isDemo: true });
    for (const absent of ['marketCap', 'trailingPE', 'eps', 'dividendYield', 'beta']) expect(a).not.toHaveProperty(absent);
    expect(a!.regularMarketPreviousClose).toBe(demoClose('AAPL', '2026-11-19'));
    expect((await provider.quote('MSFT'))!.regularMarketPrice).not.toBe(a!.regularMarketPrice);
  });

  it('answers the empty states and weekday bars only', async () => {
    expect(await provider.news()).toEqual([]);
    expect(await provider.earnings()).toEqual({ earningsAvailable: false, earningsDate: null, nextEarningsDate: null });
    expect(await provider.logo()).toBeNull();
    expect(await provider.tickerDetails('AAPL')).toBeNull();
    const bars = await provider.dailyBars('AAPL', '2026-11-09', '2026-11-22');
    // Monday 9 to Friday 20: ten weekdays; the 21st and 22nd are after 'now'.
    expect(bars).toHaveLength(10);
  });
});
