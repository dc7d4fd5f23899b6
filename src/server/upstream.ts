/**
 * Who is spending the market-data budget (README "Limits and gates"): the routes that may call upstream run their
 * handler inside `spendsUpstream`, so the provider knows the client and the call's priority. A call made outside any
 * route (the daily job, an operator's sync) has no caller and may use the whole budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** A quote may use the reserved share of the budget; a page's other calls may not. */
export type UpstreamPriority = 'quote' | 'page';

/** The client a provider call is made for, and its priority. */
export interface UpstreamCaller {
  client: string;
  priority: UpstreamPriority;
}

const callers = new AsyncLocalStorage<UpstreamCaller>();

/** The caller of the provider call being made now, or undefined outside a route (the daily job, an operator's sync). */
export function currentCaller(): UpstreamCaller | undefined {
  return callers.getStore();
}

/** The peer's address (the Node server's socket, never a header a client can write); `unknown` outside Node. */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Middleware: the route's provider calls are made for this client, at this priority. */
export function spendsUpstream(priority: UpstreamPriority): MiddlewareHandler {
  return (c, next) => callers.run({ client: clientAddress(c), priority }, next);
}

/** A client asked for more upstream calls than its share of the budget: answered 429 with Retry-After. */
export class ClientLimitError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ClientLimitError';
  }
}

/** Per-client allowance of upstream calls a minute (rate-limiter-flexible's memory limiter). */
export class ClientAllowance {
  private readonly limiter: RateLimiterMemory;

  constructor(readonly perMinute: number) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** Spends one of the client's calls, or throws ClientLimitError when its minute's share is used. */
  async spend(client: string): Promise<void> {
    try {
      await this.limiter.consume(client);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new ClientLimitError(
        `This client has used its ${this.perMinute} market-data calls a minute; the answer is not cached yet. Try again in ${seconds} s.`,
        seconds,
      );
    }
  }
}
