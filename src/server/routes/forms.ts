/**
 * The plain-HTML forms of /login and /account, mounted at /api/forms: each takes the browser's
 * urlencoded post, asks Better Auth's own endpoint (through its handler, with the browser's Origin and cookies, so its
 * origin checks and rate limits apply as to any other call) and answers with a 303: on success to the return path
 * (lib/domain/accounts/return-path's rules) with Better Auth's cookies, on failure back to the page with the outcome as the
 * URL fragment, whose message the static page shows by CSS `:target` (lib/domain/accounts/account-forms.ts).
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  failureOutcome,
  MIN_PASSWORD_LENGTH,
  type Outcome,
  OUTCOMES,
  outcomeId,
  type AccountForm,
  type OutcomeOf,
} from '../../lib/domain/accounts/account-forms';
import { loginReturnPath } from '../../lib/domain/accounts/return-path';
import { CLIENT_IP_HEADER } from '../auth';
import { clientAddress } from '../upstream';

/** Better Auth's request handler (`auth.handler`), serving its endpoints under /api/auth. */
export type AuthHandler = (request: Request) => Promise<Response>;

/** The cookie carrying a password-reset token from the emailed link to the reset form (never seen by script). */
const RESET_COOKIE = 'reset-token';
/** Better Auth's reset tokens live an hour. */
const RESET_COOKIE_SECONDS = 60 * 60;
const AUTH_BASE = '/api/auth';
/** The request headers Better Auth reads: its origin check and the session cookie (the client address is set apart). */
const FORWARDED = ['origin', 'cookie', 'user-agent', 'referer'];
/** Where the account page's plan, billing and export live. */
const ACCOUNT_PAGE = '/account';
const LOGIN_PAGE = '/login';

interface AuthAnswer {
  response: Response;
  body: Record<string, unknown>;
}

/**
 * The form routes; without a handler (accounts not configured) every form says so on its page. `trustedProxies`
 * (TRUSTED_PROXIES) decides the client's address for Better Auth's per-client limits, as on /api/auth. A form
 * refused for its origin is logged with `siteUrl` (SITE_URL), so the operator learns which setting to fix.
 */
export function formRoutes(
  handler: AuthHandler | undefined,
  trustedProxies: readonly string[] = [],
  siteUrl?: string,
  log: (line: string) => void = (line) => console.warn(line),
): Hono {
  const ask = async (c: Context, path: string, body: Record<string, unknown>): Promise<AuthAnswer | null> => {
    if (handler === undefined) return null;
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const name of FORWARDED) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    // Without it every visitor would share one bucket of Better Auth's limits.
    headers.set(CLIENT_IP_HEADER, clientAddress(c, trustedProxies));
    const response = await handler(new Request(new URL(`${AUTH_BASE}${path}`, c.req.url), { method: 'POST', headers, body: JSON.stringify(body) }));
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { response, body: parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {} };
  };

  /** A 303 to `location`, carrying Better Auth's cookies when it set any. */
  const redirect = (c: Context, location: string, answer?: AuthAnswer | null): Response => {
    const response = c.redirect(location, 303);
    response.headers.set('Cache-Control', 'no-store');
    for (const cookie of answer?.response.headers.getSetCookie() ?? []) response.headers.append('Set-Cookie', cookie);
    return response;
  };

  /**
   * Back to the form's page with one of its outcomes, keeping the return path and, after a failure, the email typed
   * (the page puts it back in the box; never the password).
   */
  const back = <F extends AccountForm>(c: Context, page: string, form: F, outcome: OutcomeOf<F>, returnTo?: string, email?: string): Response => {
    const query: string[] = [];
    if (returnTo !== undefined && returnTo !== '/') query.push(`returnTo=${encodeURIComponent(returnTo)}`);
    if (email?.trim() && (OUTCOMES[form] as Record<string, Outcome>)[outcome]?.ok === false) query.push(`email=${encodeURIComponent(email.trim())}`);
    if (outcome === 'refused') {
      const origin = c.req.header('origin') ?? c.req.header('referer') ?? 'a request without Origin or Referer';
      log(`Refused the ${form} form from ${origin}: this server trusts SITE_URL=${siteUrl ?? '(unset)'} only. If visitors reach the site at ${origin}, set SITE_URL to it (docs/environment.md).`);
    }
    const search = query.length > 0 ? `?${query.join('&')}` : '';
    return redirect(c, `${page}${search}#${outcomeId(form, outcome)}`);
  };

  /** The outcome of a failed answer (or of no accounts at all). */
  const failed = <F extends AccountForm>(form: F, answer: AuthAnswer | null): OutcomeOf<F> => {
    if (answer === null) return 'unavailable' as OutcomeOf<F>;
    const code = typeof answer.body.code === 'string' ? answer.body.code : undefined;
    return failureOutcome(form, { status: answer.response.status, code }) as OutcomeOf<F>;
  };

  const fields = async (c: Context): Promise<Record<string, string>> => {
    const out: Record<string, string> = {};
    try {
      const form = await c.req.parseBody();
      for (const [name, value] of Object.entries(form)) if (typeof value === 'string') out[name] = value;
    } catch {
      // A body that is not a form is a form with no fields: each route then says what is missing.
    }
    return out;
  };

  return new Hono()
    .post('/sign-in', async (c) => {
      const { email = '', password = '', returnTo } = await fields(c);
      const target = loginReturnPath(returnTo || ACCOUNT_PAGE);
      if (!email.trim() || !password) return back(c, LOGIN_PAGE, 'sign-in', 'missing', target, email);
      const answer = await ask(c, '/sign-in/email', { email: email.trim(), password, rememberMe: true });
      if (answer?.response.ok) return redirect(c, target, answer);
      return back(c, LOGIN_PAGE, 'sign-in', failed('sign-in', answer), target, email);
    })
    .post('/sign-up', async (c) => {
      const { email = '', password = '', name = '', returnTo } = await fields(c);
      const target = loginReturnPath(returnTo || ACCOUNT_PAGE);
      if (!email.includes('@')) return back(c, LOGIN_PAGE, 'sign-up', 'email', target, email);
      if (password.length < MIN_PASSWORD_LENGTH) return back(c, LOGIN_PAGE, 'sign-up', 'short', target, email);
      // The same answer whether or not the address has an account: the confirmation link (or, for an address that
      // has one, a note to its owner) is in the mail, and the link signs in and returns to `target`.
      const answer = await ask(c, '/sign-up/email', { email: email.trim(), password, name: name.trim() || email.trim().split('@')[0], callbackURL: target });
      return back(c, LOGIN_PAGE, 'sign-up', answer?.response.ok ? 'sent' : failed('sign-up', answer), target, email);
    })
    .post('/magic-link', async (c) => {
      const { email = '', returnTo } = await fields(c);
      const target = loginReturnPath(returnTo || ACCOUNT_PAGE);
      if (!email.includes('@')) return back(c, LOGIN_PAGE, 'magic-link', 'email', target, email);
      const answer = await ask(c, '/sign-in/magic-link', { email: email.trim(), callbackURL: target });
      const outcome = answer?.response.ok ? 'sent' : failed('magic-link', answer);
      return back(c, LOGIN_PAGE, 'magic-link', outcome, target, email);
    })
    .post('/forgot-password', async (c) => {
      const { email = '' } = await fields(c);
      if (!email.includes('@')) return back(c, LOGIN_PAGE, 'forgot-password', 'email', undefined, email);
      const answer = await ask(c, '/request-password-reset', { email: email.trim(), redirectTo: '/api/forms/reset-password' });
      return back(c, LOGIN_PAGE, 'forgot-password', answer?.response.ok ? 'sent' : failed('forgot-password', answer), undefined, email);
    })
    // The emailed reset link lands here (through Better Auth's /reset-password/:token): the token goes into an
    // HttpOnly cookie for the form, so the static page needs no script to carry it.
    .get('/reset-password', (c) => {
      const token = c.req.query('token');
      if (!token || c.req.query('error')) return back(c, LOGIN_PAGE, 'reset-password', 'expired');
      setCookie(c, RESET_COOKIE, token, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/api/forms',
        maxAge: RESET_COOKIE_SECONDS,
        secure: new URL(c.req.url).protocol === 'https:',
      });
      return back(c, LOGIN_PAGE, 'reset-password', 'ready');
    })
    .post('/reset-password', async (c) => {
      const { newPassword = '' } = await fields(c);
      const token = getCookie(c, RESET_COOKIE);
      if (!token) return back(c, LOGIN_PAGE, 'reset-password', 'expired');
      if (newPassword.length < MIN_PASSWORD_LENGTH) return back(c, LOGIN_PAGE, 'reset-password', 'short');
      const answer = await ask(c, '/reset-password', { newPassword, token });
      const outcome = answer?.response.ok ? 'done' : failed('reset-password', answer);
      if (outcome === 'done' || outcome === 'expired') deleteCookie(c, RESET_COOKIE, { path: '/api/forms' });
      return back(c, LOGIN_PAGE, 'reset-password', outcome);
    })
    .post('/change-password', async (c) => {
      const { currentPassword = '', newPassword = '' } = await fields(c);
      if (!currentPassword) return back(c, ACCOUNT_PAGE, 'change-password', 'wrong');
      if (newPassword.length < MIN_PASSWORD_LENGTH) return back(c, ACCOUNT_PAGE, 'change-password', 'short');
      const answer = await ask(c, '/change-password', { currentPassword, newPassword, revokeOtherSessions: true });
      if (answer?.response.ok) return redirect(c, `${ACCOUNT_PAGE}#${outcomeId('change-password', 'done')}`, answer);
      return back(c, ACCOUNT_PAGE, 'change-password', failed('change-password', answer));
    })
    .post('/sign-out', async (c) => {
      const { returnTo } = await fields(c);
      const answer = await ask(c, '/sign-out', {});
      return redirect(c, loginReturnPath(returnTo), answer);
    })
    .post('/delete-account', async (c) => {
      const { password = '', confirm = '' } = await fields(c);
      if (confirm !== 'DELETE') return back(c, ACCOUNT_PAGE, 'delete-account', 'confirm');
      // No password: Better Auth accepts a session signed in within the last 10 minutes (an account without one).
      const answer = await ask(c, '/delete-user', password ? { password } : {});
      if (answer?.response.ok) return redirect(c, '/', answer);
      return back(c, ACCOUNT_PAGE, 'delete-account', failed('delete-account', answer));
    })
    .post('/billing', async (c) => {
      const answer = await ask(c, '/subscription/billing-portal', { returnUrl: ACCOUNT_PAGE });
      const url = answer?.body.url;
      if (answer?.response.ok && typeof url === 'string') return redirect(c, url, answer);
      if (answer?.response.status === 400 || (answer?.response.status === 404 && answer.body.code === 'SUBSCRIPTION_NOT_FOUND')) {
        return back(c, ACCOUNT_PAGE, 'billing', 'none');
      }
      return back(c, ACCOUNT_PAGE, 'billing', failed('billing', answer));
    })
    .post('/upgrade', async (c) => {
      const { plan } = await fields(c);
      const answer = await ask(c, '/subscription/upgrade', {
        plan: 'pro',
        annual: plan === 'annual',
        successUrl: ACCOUNT_PAGE,
        cancelUrl: ACCOUNT_PAGE,
      });
      const url = answer?.body.url;
      if (answer?.response.ok && typeof url === 'string') return redirect(c, url, answer);
      if (answer?.response.status === 401) return redirect(c, `${LOGIN_PAGE}?returnTo=${encodeURIComponent(ACCOUNT_PAGE)}`);
      return back(c, ACCOUNT_PAGE, 'upgrade', failed('upgrade', answer));
    });
}
