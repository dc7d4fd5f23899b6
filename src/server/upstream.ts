/**
 * Who is spending the market-data budget (docs/limits-and-gates.md): the routes that may call upstream run their
 * handler inside `spendsUpstream`, so the provider knows the client and the call's priority; the quote, the hot
 * route, hands the provider a `CallerOf` instead, which it reads only when it really calls upstream. A call made
 * outside any route (the daily job, an operator's sync) has no caller and may use the whole budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { REDIS_PREFIX } from '../storage/redis';

/** A quote may use the reserved share of the budget; a page's other calls may not. */
export type UpstreamPriority = 'quote' | 'page';

/** The client a provider call is made for, and its priority. */
export interface UpstreamCaller {
  client: string;
  priority: UpstreamPriority;
}

/** Who a provider call is for, asked only when the provider is about to call upstream. */
export type CallerOf = () => UpstreamCaller | undefined;

const callers = new AsyncLocalStorage<UpstreamCaller>();

/** The caller of the provider call being made now, or undefined outside a route (the daily job, an operator's sync). */
export function currentCaller(): UpstreamCaller | undefined {
  return callers.getStore();
}

/** An IPv4 address as Node may give it on a dual-stack socket (`::ffff:127.0.0.1`) written the short way. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

/**
 * The client's address: the socket's peer, or, when that peer is one of `trustedProxies` (TRUSTED_PROXIES: nginx's
 * address), the nearest address in X-Forwarded-For that is not a trusted proxy. A header from any other peer is
 * ignored, so a client cannot name itself someone else. `unknown` outside Node.
 */
export function clientAddress(c: Context, trustedProxies: readonly string[] = []): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return 'unknown';
  }
  if (peer === undefined) return 'unknown';
  const trusted = (address: string) => trustedProxies.includes(plainAddress(address));
  if (trustedProxies.length === 0 || !trusted(peer)) return plainAddress(peer);
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted(hops[i]!)) return plainAddress(hops[i]!);
  return plainAddress(hops[0] ?? peer);
}

/** Middleware: the route's provider calls are made for this client (see clientAddress), at this priority. */
export function spendsUpstream(priority: UpstreamPriority, trustedProxies: readonly string[] = []): MiddlewareHandler {
  return (c, next) => callers.run({ client: clientAddress(c, trustedProxies), priority }, next);
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

/**
 * Per-client allowance of upstream calls a minute (rate-limiter-flexible): in memory, or in Redis when given, so N
 * processes count one client together (with a memory limiter as insurance while Redis cannot be reached).
 */
export class ClientAllowance {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    readonly perMinute: number,
    redis: Redis | null = null,
  ) {
    const memory = new RateLimiterMemory({ points: perMinute, duration: 60 });
    this.limiter =
      redis === null
        ? memory
        : new RateLimiterRedis({ storeClient: redis, keyPrefix: `${REDIS_PREFIX}client`, points: perMinute, duration: 60, insuranceLimiter: memory });
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
