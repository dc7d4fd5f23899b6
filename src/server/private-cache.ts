/**
 * Answers that depend on the session never reach a shared cache: a route that read the session (c.var.user set,
 * signed in or not) or an answer that sets a cookie is sent `private, no-store`, unless the route declared a public
 * variant itself (`Vary: Cookie`, routes/context.ts callerCache). The safety net under every live route.
 */
import type { MiddlewareHandler } from 'hono';
import { PRIVATE_NO_STORE } from './routes/context';

export const privateSessionAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  const readSession = (c.var as { user?: unknown }).user !== undefined;
  if (!readSession && !res.headers.has('set-cookie')) return;
  if (/\bcookie\b/i.test(res.headers.get('vary') ?? '') && !res.headers.has('set-cookie')) return;
  try {
    res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  } catch {
    // A response with immutable headers (a fetch Response passed through): copied with the header set.
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
    c.res.headers.set('Cache-Control', PRIVATE_NO_STORE);
  }
};
