/** How the server says no: an HTTPException carries the status, the message and any header the answer needs. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SECURITY_HEADERS } from './security';
import { ClientLimitError } from './upstream';

/** An HTTPException answered as `{"error": message}` (plain text outside /api), with headers such as Allow or Retry-After. */
export function refusal(status: ContentfulStatusCode, message: string, headers?: Record<string, string>): HTTPException {
  return new HTTPException(status, { message, res: headers === undefined ? undefined : new Response(null, { headers }) });
}

/** Whether a path is under /api, where every answer is JSON. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** The app's onError: a refusal as its status, message and headers (never cached); anything else logged, and a 500 that shows no detail. */
export function answerError(error: Error, c: Context): Response {
  const json = isApiPath(c.req.path);
  if (error instanceof ClientLimitError) return answerError(refusal(429, error.message, { 'Retry-After': String(error.retryAfterSeconds) }), c);
  if (error instanceof HTTPException) {
    const headers = { ...SECURITY_HEADERS, ...Object.fromEntries(error.res?.headers ?? []), 'Cache-Control': 'no-store' };
    return json ? c.json({ error: error.message }, error.status, headers) : c.text(error.message, error.status, headers);
  }
  // The request's own logger (operations.ts) when the process has one, so the line carries the request id.
  const log = (c.var as { requestLog?: { error(fields: object, message: string): void } }).requestLog;
  if (log === undefined) console.error(`Request ${c.req.method} ${c.req.path} failed:`, error);
  else log.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
  const message = 'Internal server error; the server log has the details.';
  return json ? c.json({ error: message }, 500, SECURITY_HEADERS) : c.text(message, 500, SECURITY_HEADERS);
}
