/** Account routes until accounts get their own issue: always signed out; login and logout only redirect back. */
import type { Context, Hono } from 'hono';
import { loginReturnPath, logoutReturnPath } from '../../lib/domain/return-path';
import type { ApiContext } from './context';

/** Mounts /auth/user, /auth/login and /auth/logout on the API router. */
export function authRoutes(api: Hono, context: ApiContext): void {
  // Every visitor is signed out. Said with 200 and isAuthenticated false (spec section 3's user fields) rather than
  // a 401, which every browser logs as an error on every page; the client takes either as signed out.
  api.get('/auth/user', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ isAuthenticated: false, isPremium: false, username: '', email: '' });
  });

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
