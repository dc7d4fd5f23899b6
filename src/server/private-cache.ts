/**
 * Answers that depend on the session never reach a shared cache: a route that read the session (c.var.user set,
 * signed in or not), an answer that sets a cookie, and an answer with no Cache-Control or a bare no-store to a
 * request with a cookie (Better Auth's own, such as get-session) are sent `private, no-store`, unless the route
 * declared a public variant itself (`Vary: Cookie`, routes/context.ts callerCache). The safety net under every live
 * route.
 */
import type { MiddlewareHandler } from 'hono';
import { PRIVATE_NO_STORE } from './routes/context';

export const privateSessionAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  const readSession = (c.var as { user?: unknown }).user !== undefined;
  // Better Auth's answers say nothing, or a bare no-store: with a cookie they are the session's.
  const cache = res.headers.get('cache-control');
  const unsaidWithCookie = (cache === null || cache === 'no-store') && c.req.header('cookie') !== undefined;
  if (!readSession && !unsaidWithCookie && !res.headers.has('set-cookie')) return;
  if (/\bcookie\b/i.test(res.headers.get('vary') ?? '') && !res.headers.has('set-cookie')) return;
  try {
    res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  } catch {
    // A response with immutable headers (a fetch Response passed through): copied with the header set.
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
    c.res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  }
};
