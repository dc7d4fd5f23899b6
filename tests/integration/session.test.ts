/**
 * The session contract (src/server/auth/session.ts) against the real Better Auth handler and a real database:
 * sessionUser reads Better Auth's signed cookie, refuses a forged or signed-out one, and tells Pro and operators.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionEnv, requireOperator, requirePro, requireUser, sessionUser } from '../../src/server/auth/session';
import { nowText } from '../../src/storage/db';
import { confirmEmail, testAccounts } from '../fixtures/accounts';

const ORIGIN = 'https://signals.example';

describe('sessionUser on SQLite', () => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let app: Hono<SessionEnv>;

  beforeAll(async () => {
    accounts = await testAccounts({ adminEmails: ['ops@example.com'] });
    app = new Hono<SessionEnv>()
      .on(['GET', 'POST'], '/api/auth/*', (c) => accounts.auth.handler(c.req.raw))
      .use('/me/*', sessionUser(accounts.session))
      .get('/me/any', (c) => c.json({ user: c.var.user }))
      .get('/me/user', requireUser, (c) => c.json({ ok: true }))
      .get('/me/pro', requirePro, (c) => c.json({ ok: true }))
      .get('/me/operator', requireOperator, (c) => c.json({ ok: true }));
  });
  afterAll(() => accounts?.dispose());

  async function signUp(email: string): Promise<string> {
    const response = await app.request(`${ORIGIN}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ email, password: 'correct horse battery', name: '' }),
    });
    expect(response.status).toBe(200);
    // Sign-up never signs in: the session comes from signing in.
    const signedIn = await app.request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('__Secure-better-auth.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/);
    return cookie.split(';')[0]!;
  }

  const get = (path: string, cookie?: string) => app.request(`${ORIGIN}${path}`, { headers: cookie ? { cookie } : {} });

  it('sets c.var.user from the session cookie, and null without one', async () => {
    const cookie = await signUp('reader@example.com');
    const body = (await (await get('/me/any', cookie)).json()) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({ email: 'reader@example.com', isPremium: false, isOperator: false });
    expect(typeof body.user.id).toBe('string');
    expect(await (await get('/me/any')).json()).toEqual({ user: null });
  });

  it('refuses a cookie whose signature is not the secret\'s', async () => {
    const cookie = await signUp('forger@example.com');
    const [name, value] = cookie.split('=') as [string, string];
    const token = decodeURIComponent(value).split('.')[0]!;
    const forged = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`;
    expect(await (await get('/me/any', forged)).json()).toEqual({ user: null });
    expect((await get('/me/user', forged)).status).toBe(401);
  });

  it('answers 401 signed out, 403 without Pro or the operator role, and lets each through once they hold', async () => {
    expect(await (await get('/me/user')).json()).toEqual({ error: 'Sign in first.' });
    const cookie = await signUp('ops@example.com');
    expect((await get('/me/user', cookie)).status).toBe(200);
    // An operator's address holds the role only once confirmed.
    expect((await get('/me/operator', cookie)).status).toBe(403);
    await confirmEmail(accounts, 'ops@example.com');
    expect((await get('/me/operator', cookie)).status).toBe(200);
    const pro = await get('/me/pro', cookie);
    expect(pro.status).toBe(403);
    expect(await pro.json()).toEqual({ error: 'This needs a Pro plan.' });
    const user = await accounts.database.db.selectFrom('user').select('id').where('email', '=', 'ops@example.com').executeTakeFirstOrThrow();
    await accounts.database.db.insertInto('plan_grant').values({ user_id: user.id, plan: 'pro', granted_at: nowText() }).execute();
    expect((await get('/me/pro', cookie)).status).toBe(200);
    const someone = await signUp('someone@example.com');
    await confirmEmail(accounts, 'someone@example.com');
    expect((await get('/me/operator', someone)).status).toBe(403);
  });

  it('refuses the session once signed out through Better Auth', async () => {
    const cookie = await signUp('leaver@example.com');
    expect((await get('/me/user', cookie)).status).toBe(200);
    const out = await app.request(`${ORIGIN}/api/auth/sign-out`, { method: 'POST', headers: { cookie, origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect((await get('/me/user', cookie)).status).toBe(401);
  });
});
