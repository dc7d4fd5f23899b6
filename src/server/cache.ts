/** What a cache lookup found: the value, and whether it is past its window (served because a refresh failed). */
export interface CacheResult<T> {
  value: T;
  stale: boolean;
}

/** Settings of a TtlCache; `now` is injectable so tests move time instead of waiting. */
export interface TtlCacheOptions {
  now?: () => number;
  /** Most entries kept; the oldest stored goes first. Default 10,000. */
  maxEntries?: number;
  /** After a failed load, the stale value (or, with none, the failure) is served without retrying for this long. Default 15 s. */
  retryAfterFailureMs?: number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
  retryAt: number;
}

interface Failure {
  error: unknown;
  retryAt: number;
}

/** How often the cache answered, loaded, merged and served stale. */
export interface CacheStats {
  hits: number;
  loads: number;
  merged: number;
  staleServed: number;
}

/**
 * A time-window cache that merges identical loads in flight and, when a refresh fails, keeps serving the last
 * good value (spec section 9 windows; DESIGN.md "serve stale on 429/5xx/timeout"). A load that fails with nothing
 * to fall back on is remembered for a while too, so a failing upstream is not asked again on every request.
 */
export class TtlCache<T> {
  readonly stats: CacheStats = { hits: 0, loads: 0, merged: 0, staleServed: 0 };
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<CacheResult<T>>>();
  private readonly failures = new Map<string, Failure>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly retryAfterFailureMs: number;

  constructor(options: TtlCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? 15_000;
  }

  /** The value when it is still fresh, else undefined; synchronous, for hot paths. */
  peek(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= this.now()) return undefined;
    this.stats.hits += 1;
    return entry.value;
  }

  /** Whether get(key) would call its loader now: no fresh value, no load in flight, no stale value or failure being held. */
  wouldLoad(key: string): boolean {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry !== undefined && (entry.expiresAt > now || entry.retryAt > now)) return false;
    if (this.pending.has(key)) return false;
    const failure = this.failures.get(key);
    return failure === undefined || failure.retryAt <= now;
  }

  /** Stores a value for `ttlMs`. */
  set(key: string, value: T, ttlMs: number): void {
    this.failures.delete(key);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs, retryAt: 0 });
    dropOldest(this.entries, this.maxEntries);
  }

  /**
   * The fresh value, else the result of `load` (one load per key at a time), stored for `ttlMs`. When `load`
   * fails, the last value is served as stale if there is one; otherwise the error is thrown, and thrown again
   * without loading until `retryAfterFailureMs` has passed.
   */
  get(key: string, ttlMs: number, load: () => Promise<T>): Promise<CacheResult<T>> {
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry !== undefined) {
      if (entry.expiresAt > now) {
        this.stats.hits += 1;
        return Promise.resolve({ value: entry.value, stale: false });
      }
      if (entry.retryAt > now) {
        this.stats.staleServed += 1;
        return Promise.resolve({ value: entry.value, stale: true });
      }
    }
    const failure = this.failures.get(key);
    if (failure !== undefined && failure.retryAt > now) return Promise.reject(failure.error);
    const inFlight = this.pending.get(key);
    if (inFlight !== undefined) {
      this.stats.merged += 1;
      return inFlight;
    }
    this.stats.loads += 1;
    const promise = load()
      .then(
        (value): CacheResult<T> => {
          this.set(key, value, ttlMs);
          return { value, stale: false };
        },
        (error: unknown): CacheResult<T> => {
          const last = this.entries.get(key);
          if (last === undefined) {
            this.failures.delete(key);
            this.failures.set(key, { error, retryAt: this.now() + this.retryAfterFailureMs });
            dropOldest(this.failures, this.maxEntries);
            throw error;
          }
          last.retryAt = this.now() + this.retryAfterFailureMs;
          this.stats.staleServed += 1;
          return { value: last.value, stale: true };
        },
      )
      .finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }
}

function dropOldest(map: Map<string, unknown>, maxEntries: number): void {
  if (map.size <= maxEntries) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

/** A per-minute request budget: at most `perMinute` takes in any 60 s window. */
export class RateBudget {
  private readonly taken: number[] = [];

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request from the budget, leaving `reserved` of the minute's requests untouched; false when it cannot. */
  tryTake(reserved = 0): boolean {
    const now = this.now();
    while (this.taken.length > 0 && this.taken[0]! <= now - 60_000) this.taken.shift();
    if (this.taken.length >= this.perMinute - reserved) return false;
    this.taken.push(now);
    return true;
  }

  /** Milliseconds until a request may be taken (0 when one is free now). */
  msUntilFree(): number {
    const now = this.now();
    const inWindow = this.taken.filter((t) => t > now - 60_000);
    if (inWindow.length < this.perMinute) return 0;
    return inWindow[inWindow.length - this.perMinute]! + 60_000 - now;
  }

  /** Requests left in the current window. */
  remaining(): number {
    const now = this.now();
    return Math.max(0, this.perMinute - this.taken.filter((t) => t > now - 60_000).length);
  }
}
