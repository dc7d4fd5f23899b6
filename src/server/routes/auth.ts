/**
 * /api/auth: the spec's own routes first (user, login, logout), then Better Auth's handler for everything else
 * under /api/auth/* (sign-up, sign-in, magic link, password reset, sessions, the Stripe plugin's endpoints).
 * Signing out is a POST from the site (its menu posts a form); a GET signs out only when the browser says it came
 * from the site's own page (`Sec-Fetch-Site: same-origin`), so a link on another site cannot sign anyone out.
 */
import { clientAddress } from '../upstream';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { loginReturnPath, logoutReturnPath } from '../../lib/domain/accounts/return-path';
import { CLIENT_IP_HEADER } from '../auth';
import { trustedOrigin } from '../auth/origin';
import { type SessionEnv, sessionUser } from '../auth/session';
import { escapeHtml } from '../../lib/domain/text/text';
import { htmlAnswer, smallPage } from '../small-page';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const ReturnQuery = z.object({ returnTo: z.string().optional() });

/** The spec's user fields: the name shown in the menu is the account's name, else the email's local part. */
export function usernameOf(user: { name: string; email: string }): string {
  return user.name.trim() || user.email.split('@')[0]!;
}

/** /user, /login, /logout and Better Auth's handler, mounted at /api/auth. */
export function authRoutes(context: ApiContext) {
  const { auth, session } = context.accounts;
  const returnTarget = (c: Context, returnTo: string | undefined) => logoutReturnPath(returnTo, [new URL(c.req.url).origin, ...context.siteOrigins]);
  /** Signs out (when signed in) and sends the browser to `target`. */
  const signOut = async (c: Context, target: string, status: 302 | 303) => {
    const headers = new Headers(NO_STORE);
    headers.set('Location', target);
    if (session.token(c.req.header('cookie')) !== null) {
      // Better Auth deletes the session row and answers with the cookies that clear it.
      const answer = await auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
      for (const cookie of answer.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
    }
    return new Response(null, { status, headers });
  };
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
        const target = returnTarget(c, c.req.valid('query').returnTo);
        if (session.token(c.req.header('cookie')) !== null && c.req.header('sec-fetch-site') !== 'same-origin') {
          // Another site's link, a mail or an old browser: a button that posts, so nobody is signed out by a link.
          return htmlAnswer(
            smallPage(
              'Sign out?',
              `<p>Do you want to sign out of ${escapeHtml(context.siteName)}?</p><form method="post" action="/api/auth/logout"><input type="hidden" name="returnTo" value="${escapeHtml(target)}"><button type="submit">Sign out</button></form><p><a href="/">Stay signed in</a></p>`,
            ),
          );
        }
        return signOut(c, target, 302);
      })
      .post('/logout', trustedOrigin(context.siteOrigins), async (c) => {
        const form = /^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(c.req.header('content-type') ?? '') ? await c.req.parseBody().catch(() => ({})) : {};
        const returnTo = (form as Record<string, unknown>).returnTo ?? c.req.query('returnTo');
        return signOut(c, returnTarget(c, typeof returnTo === 'string' ? returnTo : undefined), 303);
      })
      .on(['GET', 'POST'], '/*', (c) => {
        // Rate limits count per client: the socket's address, written over whatever the request claimed.
        c.req.raw.headers.set(CLIENT_IP_HEADER, clientAddress(c, context.trustedProxies));
        return auth.handler(c.req.raw);
      })
  );
}
