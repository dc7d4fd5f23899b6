/** Account routes until accounts get their own issue: always signed out; login and logout only redirect back. */
import type { Context, Hono } from 'hono';
import { loginReturnPath, logoutReturnPath } from '../../lib/domain/return-path';
import { jsonError, type ApiContext } from './context';

/** Mounts /auth/user, /auth/login and /auth/logout on the API router. */
export function authRoutes(api: Hono, context: ApiContext): void {
  api.get('/auth/user', () => jsonError(401, 'Not signed in: accounts are not available yet, so every visitor uses the site signed out.'));

  api.get('/auth/login', (c) => redirect(c, loginReturnPath(c.req.query('returnTo'))));

  api.get('/auth/logout', (c) => {
    const own = new URL(c.req.url).origin;
    return redirect(c, logoutReturnPath(c.req.query('returnTo'), [own, ...context.siteOrigins]));
  });
}

function redirect(c: Context, path: string): Response {
  c.header('Cache-Control', 'no-store');
  return c.redirect(path, 302);
}
