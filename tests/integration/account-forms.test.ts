/**
 * The plain-HTML account forms (src/server/routes/forms.ts) over real HTTP on loopback, against a real Better Auth
 * (its memory adapter: the forms do not touch the database themselves), posted as a browser posts a form.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES, outcomeId } from '../../src/lib/domain/accounts/account-forms';
import { formRoutes } from '../../src/server/routes/forms';
import { type AccountServer, cookiesOf, DATABASES, SITE, startAccountServer } from '../fixtures/account-server';

let server: ServerType;
let base = '';
const resetLinks: string[] = [];

function startAuth(origin: string) {
  return betterAuth({
    baseURL: origin,
    basePath: '/api/auth',
    secret: 'forms-test-secret-forms-test-secret-0123',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 10,
      sendResetPassword: async ({ url }) => {
        resetLinks.push(url);
      },
    },
    user: { deleteUser: { enabled: true } },
    // Better Auth skips its origin checks under NODE_ENV=test, which vitest sets: on, as in production.
    advanced: { disableOriginCheck: false },
    telemetry: { enabled: false },
  });
}

beforeAll(async () => {
  const app = new Hono();
  let handler: ((request: Request) => Promise<Response>) | undefined;
  app.route('/api/forms', formRoutes((request) => handler!(request)));
  app.on(['GET', 'POST'], '/api/auth/*', (c) => handler!(c.req.raw));
  app.get('/api/who', async (c) => c.json(await auth.api.getSession({ headers: c.req.raw.headers })));
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  auth = startAuth(base);
  handler = auth.handler;
});
let auth: ReturnType<typeof startAuth>;

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Posts a form as a browser on this site does: urlencoded, with its Origin, not following the redirect. */
async function post(path: string, fields: Record<string, string>, cookie = '') {
  const response = await fetch(`${base}/api/forms${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get('location') ?? '', cookies: response.headers.getSetCookie() };
}

const cookieOf = (cookies: string[]) => cookies.map((c) => c.split(';')[0]).join('; ');

describe('account forms without accounts configured', () => {
  it('say on the page that accounts are not set up', async () => {
    const app = new Hono().route('/f', formRoutes(undefined));
    const response = await app.request('/f/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com&password=0123456789',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/login?returnTo=%2Faccount&email=a%40example.com#${outcomeId('sign-in', 'unavailable')}`);
  });
});

describe('account forms against Better Auth', () => {
  const email = 'reader@example.com';
  const password = 'correct horse battery';

  it('refuses a password under 10 characters on sign-up, naming the password field', async () => {
    const answer = await post('/sign-up', { email, password: 'short-pw', returnTo: '/learn' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/login?returnTo=%2Flearn&email=reader%40example.com#sign-up-short');
    expect(OUTCOMES['sign-up'].short).toMatchObject({ field: 'password', text: 'Use at least 10 characters for your password.' });
  });

  it('signs up, says to check the inbox (keeping the return path), then signs in with a real session', async () => {
    const answer = await post('/sign-up', { email, password, returnTo: '/learn' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/login?returnTo=%2Flearn#sign-up-sent');
    expect(OUTCOMES['sign-up'].sent.text).toMatch(/^Check your inbox to confirm your address/);
    const signedIn = await post('/sign-in', { email, password, returnTo: '/learn' });
    expect(signedIn.location).toBe('/learn');
    const cookie = cookieOf(signedIn.cookies);
    expect(cookie).toContain('better-auth.session_token=');
    const who = (await (await fetch(`${base}/api/who`, { headers: { cookie } })).json()) as { user: { email: string } };
    expect(who.user.email).toBe(email);
  });

  it('never redirects off the site: an absolute returnTo becomes /', async () => {
    const answer = await post('/sign-in', { email, password, returnTo: 'https://evil.example/' });
    expect(answer.location).toBe('/');
  });

  it('sends a wrong password back to /login with the error tied to the password field', async () => {
    const answer = await post('/sign-in', { email, password: 'not the password', returnTo: '/archives' });
    // The email typed comes back for the page to put in the box again; the password never does.
    expect(answer.location).toBe('/login?returnTo=%2Farchives&email=reader%40example.com#sign-in-invalid');
    expect(answer.cookies).toEqual([]);
    expect(OUTCOMES['sign-in'].invalid.field).toBe('password');
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const answer = await post('/sign-in', { email: 'nobody@example.com', password: 'not the password', returnTo: '/archives' });
    expect(answer.location).toBe('/login?returnTo=%2Farchives&email=nobody%40example.com#sign-in-invalid');
  });

  it('is refused by Better Auth\'s origin check when posted from another site', async () => {
    const signedIn = cookieOf((await post('/sign-in', { email, password })).cookies);
    const response = await fetch(`${base}/api/forms/change-password`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie: signedIn },
      body: new URLSearchParams({ currentPassword: password, newPassword: 'another long password' }),
    });
    expect(response.headers.get('location')).toBe('/account#change-password-refused');
  });

  it('changes the password only with the current one, then signs in with the new one', async () => {
    const cookie = cookieOf((await post('/sign-in', { email, password })).cookies);
    expect((await post('/change-password', { currentPassword: 'wrong password!', newPassword: 'a new password here' }, cookie)).location).toBe(
      '/account#change-password-wrong',
    );
    expect((await post('/change-password', { currentPassword: password, newPassword: 'tiny' }, cookie)).location).toBe('/account#change-password-short');
    const changed = await post('/change-password', { currentPassword: password, newPassword: 'a new password here' }, cookie);
    expect(changed.location).toBe('/account#change-password-done');
    expect((await post('/sign-in', { email, password: 'a new password here' })).location).toBe('/account');
  });

  it('resets a forgotten password through the emailed link, with no script on the page', async () => {
    expect((await post('/forgot-password', { email })).location).toBe('/login#forgot-password-sent');
    expect((await post('/forgot-password', { email: 'nobody@example.com' })).location).toBe('/login#forgot-password-sent');
    expect(resetLinks).toHaveLength(1);
    // The emailed link: Better Auth checks the token and sends the browser to the form route with it.
    const landing = await fetch(resetLinks[0]!, { redirect: 'manual' });
    const toForms = new URL(landing.headers.get('location')!, base);
    expect(toForms.pathname).toBe('/api/forms/reset-password');
    const ready = await fetch(toForms, { redirect: 'manual' });
    expect(ready.headers.get('location')).toBe('/login#reset-password-ready');
    const tokenCookie = cookieOf(ready.headers.getSetCookie());
    expect(ready.headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    const done = await post('/reset-password', { newPassword: 'reset password value' }, tokenCookie);
    expect(done.location).toBe('/login#reset-password-done');
    expect((await post('/sign-in', { email, password: 'reset password value' })).location).toBe('/account');
    // The token works once.
    expect((await post('/reset-password', { newPassword: 'yet another password' }, tokenCookie)).location).toBe('/login#reset-password-expired');
  });

  it('says email sign-in links are not set up when the magic-link plugin is absent', async () => {
    expect((await post('/magic-link', { email })).location).toBe('/login?returnTo=%2Faccount&email=reader%40example.com#magic-link-unavailable');
  });

  it('says online payment is not set up when Stripe is absent', async () => {
    const cookie = cookieOf((await post('/sign-in', { email, password: 'reset password value' })).cookies);
    expect((await post('/upgrade', { plan: 'monthly' }, cookie)).location).toBe('/account#upgrade-unavailable');
  });

  it('deletes the account only with DELETE typed and the right password', async () => {
    const cookie = cookieOf((await post('/sign-in', { email, password: 'reset password value' })).cookies);
    expect((await post('/delete-account', { password: 'reset password value', confirm: 'delete' }, cookie)).location).toBe('/account#delete-account-confirm');
    expect((await post('/delete-account', { password: 'wrong password!!', confirm: 'DELETE' }, cookie)).location).toBe('/account#delete-account-wrong');
    expect((await post('/delete-account', { password: 'reset password value', confirm: 'DELETE' }, cookie)).location).toBe('/');
    expect((await post('/sign-in', { email, password: 'reset password value' })).location).toBe('/login?returnTo=%2Faccount&email=reader%40example.com#sign-in-invalid');
  });
});

describe.each(DATABASES)('account forms through the app on $name', ({ url }) => {
  let app: AccountServer;
  beforeAll(async () => {
    app = await startAccountServer(await url());
  });
  afterAll(() => app.close());

  const form = (path: string, fields: Record<string, string>, cookie = '') =>
    app.request(`/api/forms${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    });

  it('signs up, then resets a forgotten password from the emailed link, and signs in with it', async () => {
    const email = 'forms@example.com';
    const signedUp = await form('/sign-up', { email, password: 'first long password', returnTo: '/learn' });
    expect([signedUp.status, signedUp.headers.get('location')]).toEqual([303, '/login?returnTo=%2Flearn#sign-up-sent']);
    // The confirmation link signs in and returns to the page the visitor came from.
    const confirmed = await followMail(email, /^Confirm your email for /);
    expect(confirmed.headers.get('location')).toBe('/learn');
    const user = (await (await app.request('/api/auth/user', { headers: { cookie: cookiesOf(confirmed) } })).json()) as { user: { email: string } };
    expect(user.user.email).toBe(email);

    expect((await form('/forgot-password', { email })).headers.get('location')).toBe('/login#forgot-password-sent');
    // The emailed link names SITE_URL; this server listens on loopback.
    const link = new URL(app.sent.at(-1)!.link);
    const toForms = new URL((await app.request(`${link.pathname}${link.search}`)).headers.get('location')!, app.origin);
    const ready = await app.request(`${toForms.pathname}${toForms.search}`);
    expect(ready.headers.get('location')).toBe('/login#reset-password-ready');
    const reset = await form('/reset-password', { newPassword: 'second long password' }, cookiesOf(ready));
    expect(reset.headers.get('location')).toBe('/login#reset-password-done');
    expect((await form('/sign-in', { email, password: 'first long password' })).headers.get('location')).toBe(`/login?returnTo=%2Faccount&email=${encodeURIComponent(email)}#sign-in-invalid`);
    expect((await form('/sign-in', { email, password: 'second long password' })).headers.get('location')).toBe('/account');
  });

  /** Follows the newest emailed link to `email` whose subject matches (the link names SITE_URL; the app is on loopback). */
  async function followMail(email: string, subject: RegExp): Promise<Response> {
    const mail = app.sent.filter((m) => m.to === email && subject.test(m.subject)).at(-1);
    expect(mail, `a mail to ${email} matching ${subject}`).toBeDefined();
    const link = new URL(mail!.link!);
    return app.request(`${link.pathname}${link.search}`);
  }

  it('keeps the password of a confirmed address when its owner later signs in by emailed link', async () => {
    const email = 'confirmed@example.com';
    expect((await form('/sign-up', { email, password: 'kept long password' })).status).toBe(303);
    const confirmed = await followMail(email, /^Confirm your email for /);
    expect(confirmed.status).toBe(302);
    expect((await form('/magic-link', { email })).headers.get('location')).toBe('/login?returnTo=%2Faccount#magic-link-sent');
    const byLink = await followMail(email, /sign-in link/);
    expect([byLink.status, byLink.headers.get('location')]).toEqual([302, `${SITE}/account`]);
    expect((await form('/sign-in', { email, password: 'kept long password' })).headers.get('location')).toBe('/account');
  });

  it('says how to set a password again when a link signed in an unconfirmed account and removed its password', async () => {
    const email = 'unconfirmed@example.com';
    await form('/sign-up', { email, password: 'lost long password' });
    await form('/magic-link', { email });
    const cookie = cookiesOf(await followMail(email, /sign-in link/));
    const change = await form('/change-password', { currentPassword: 'lost long password', newPassword: 'another long password' }, cookie);
    expect(change.headers.get('location')).toBe(`/account#${outcomeId('change-password', 'no-password')}`);
    expect(OUTCOMES['change-password']['no-password'].text).toContain('"Forgotten your password?"');
    const api = await app.request('/api/account/password', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE, cookie },
      body: JSON.stringify({ currentPassword: 'lost long password', newPassword: 'another long password' }),
    });
    expect(api.status).toBe(400);
    expect(((await api.json()) as { error: string }).error).toBe(OUTCOMES['change-password']['no-password'].text);
    // The forgotten-password link gives the account a password again.
    await form('/forgot-password', { email });
    const toForms = new URL((await followMail(email, /^Reset your /)).headers.get('location')!, app.origin);
    const ready = await app.request(`${toForms.pathname}${toForms.search}`);
    expect((await form('/reset-password', { newPassword: 'restored long password' }, cookiesOf(ready))).headers.get('location')).toBe('/login#reset-password-done');
    expect((await form('/sign-in', { email, password: 'restored long password' })).headers.get('location')).toBe('/account');
  });
});
