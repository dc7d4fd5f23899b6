/** Account routes until accounts get their own issue: always signed out; login and logout only redirect back. */
import { Hono } from 'hono';
import { z } from 'zod';
import { loginReturnPath, logoutReturnPath } from '../../lib/domain/return-path';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const ReturnQuery = z.object({ returnTo: z.string().optional() });

/** /user, /login and /logout, mounted at /api/auth. */
export function authRoutes(context: ApiContext): Hono {
  return (
    new Hono()
      // Every visitor is signed out. Said with 200 and isAuthenticated false (spec section 3's user fields) rather
      // than a 401, which every browser logs as an error on every page; the client takes either as signed out.
      .get('/user', (c) => c.json({ isAuthenticated: false, isPremium: false, username: '', email: '' }, 200, NO_STORE))
      .get('/login', validate('query', ReturnQuery), (c) => {
        c.header('Cache-Control', 'no-store');
        return c.redirect(loginReturnPath(c.req.valid('query').returnTo), 302);
      })
      .get('/logout', validate('query', ReturnQuery), (c) => {
        c.header('Cache-Control', 'no-store');
        const own = new URL(c.req.url).origin;
        return c.redirect(logoutReturnPath(c.req.valid('query').returnTo, [own, ...context.siteOrigins]), 302);
      })
  );
}
