/**
 * The request body limit of every route (docs/limits-and-gates.md), checked before a body is read: by its
 * Content-Length, or while a chunked body streams in. A larger body is a 413 naming the limit.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { refusal } from './errors';

const KIB = 1024;

/**
 * The most bytes a request body may have, by path prefix, the first match winning; the last row is every other path.
 * `null`: the route holds the body to its own limit, with its own message (the export uploads: 10 files of 25 MB and
 * the form around them, src/server/uploads.ts).
 */
export const BODY_LIMITS: readonly (readonly [prefix: string, bytes: number | null])[] = [
  // Stripe's signed events: a few KB, well under this.
  ['/api/auth/stripe/webhook', 1024 * KIB],
  ['/api/admin/uploads', null],
  ['/api/admin/exports', null],
  // 500 tickers of 10 characters as JSON.
  ['/api/polygon/company-names', 32 * KIB],
  // An AI chat request: the conversation's last 40 messages of text (MAX_CHAT_TOTAL_CHARS) with the tool answers they carry.
  ['/api/ai/chat', 256 * KIB],
  // Forms, sign-in, account and watchlist bodies: a few hundred bytes.
  ['/api/', 16 * KIB],
  ['/', 16 * KIB],
];

/** Middleware holding each request's body to its path's limit (methods without a body pass at once). */
export function requestBodyLimits(limits = BODY_LIMITS): MiddlewareHandler {
  const checks = limits.map(([prefix, bytes]) => {
    if (bytes === null) return [prefix, null] as const;
    const limit = bytes.toLocaleString('en-US');
    const check = bodyLimit({
      maxSize: bytes,
      onError: (c) => {
        throw refusal(413, `The request body is larger than ${limit} bytes, the most ${c.req.method} ${c.req.path} accepts.`);
      },
    });
    return [prefix, check] as const;
  });
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const path = c.req.path;
    const [, check] = checks.find(([prefix]) => path.startsWith(prefix))!;
    return check === null ? next() : check(c, next);
  };
}
