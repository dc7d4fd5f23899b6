/**
 * /api/auth: the spec's own routes first (user, login, logout), then Better Auth's handler for everything else
 * under /api/auth/* (sign-up, sign-in, magic link, password reset, sessions, the Stripe plugin's endpoints).
 */
import { clientAddress } from '../upstream';
import { Hono } from 'hono';
import { z } from 'zod';
import { loginReturnPath, logoutReturnPath } from '../../lib/domain/return-path';
import { CLIENT_IP_HEADER } from '../auth';
import { type SessionEnv, sessionUser } from '../auth/session';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const ReturnQuery = z.object({ returnTo: z.string().optional() });

/** The spec's user fields: the name shown in the menu is the account's name, else the email's local part. */
export function usernameOf(user: { name: string; email: string }): string {
  return user.name.trim() || user.email.split('@')[0]!;
}

/** /user, /login, /logout and Better Auth's handler, mounted at /api/auth. */
export function authRoutes(context: ApiContext): Hono {
  const { auth, session } = context.accounts;
  return (
    new Hono<SessionEnv>()
      // Signed out is said with 200 and isAuthenticated false rather than a 401, which every browser logs as an error
      // on every page; the client takes either as signed out.
      .get('/user', sessionUser(session), (c) => {
        const user = c.var.user;
        return c.json(
          user === null
            ? { isAuthenticated: false, user: null }
            : { isAuthenticated: true, user: { username: usernameOf(user), email: user.email, isPremium: user.isPremium } },
          200,
          NO_STORE,
        );
      })
      .get('/login', validate('query', ReturnQuery), (c) => {
        c.header('Cache-Control', 'no-store');
        const returnTo = loginReturnPath(c.req.valid('query').returnTo);
        return c.redirect(`/login?returnTo=${encodeURIComponent(returnTo)}`, 302);
      })
      .get('/logout', validate('query', ReturnQuery), async (c) => {
        const own = new URL(c.req.url).origin;
        const target = logoutReturnPath(c.req.valid('query').returnTo, [own, ...context.siteOrigins]);
        const headers = new Headers(NO_STORE);
        headers.set('Location', target);
        if (session.token(c.req.header('cookie')) !== null) {
          // Better Auth deletes the session row and answers with the cookies that clear it.
          const answer = await auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
          for (const cookie of answer.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
        }
        return new Response(null, { status: 302, headers });
      })
      .on(['GET', 'POST'], '/*', (c) => {
        // Rate limits count per client: the socket's address, written over whatever the request claimed.
        c.req.raw.headers.set(CLIENT_IP_HEADER, clientAddress(c, context.trustedProxies));
        return auth.handler(c.req.raw);
      })
  ) as unknown as Hono;
}
