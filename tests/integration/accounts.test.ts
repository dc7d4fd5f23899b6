/**
 * Accounts end to end over real HTTP, on SQLite and on PostgreSQL: the spec's /api/auth routes, the account API,
 * the watchlist, operator grants (`npm run admin`), and one user's data out of another's reach.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantPro, revokePro } from '../../src/storage/plan-grants';
import { type AccountServer, cookiesOf, DATABASES, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');

describe.each(DATABASES)('accounts on $name', ({ url }) => {
  let server: AccountServer;
  let databaseUrl: string | null;

  beforeAll(async () => {
    databaseUrl = await url();
    server = await startAccountServer(databaseUrl);
  }, 120_000);
  afterAll(() => server?.close());

  const get = async (path: string, cookie?: string) => {
    const response = await server.request(path, { headers: cookie ? { cookie } : {} });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, response };
  };

  it('answers /api/auth/user with the spec\'s shape, signed out and signed in', async () => {
    expect((await get('/api/auth/user')).body).toEqual({ isAuthenticated: false, user: null });
    const cookie = await signUp(server, 'Ada.Lovelace@Example.com');
    const me = await get('/api/auth/user', cookie);
    expect(me.body).toEqual({ isAuthenticated: true, user: { username: 'ada.lovelace', email: 'ada.lovelace@example.com', isPremium: false } });
    expect(me.response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('signs in with the password, and logout signs out and returns by the open-redirect rule', async () => {
    await signUp(server, 'grace@example.com');
    const wrong = await postJson(server, '/api/auth/sign-in/email', { email: 'grace@example.com', password: 'not the password' });
    expect(wrong.status).toBe(401);
    const signIn = await postJson(server, '/api/auth/sign-in/email', { email: 'grace@example.com', password: 'correct horse battery' });
    expect(signIn.status).toBe(200);
    const cookie = cookiesOf(signIn);
    expect((await get('/api/auth/user', cookie)).body.isAuthenticated).toBe(true);
    // The site's own navigation (a cross-site GET signs nobody out: security-logout.test.ts).
    const out = await server.request('/api/auth/logout?returnTo=https%3A%2F%2Fevil.example%2Fx', { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(out.headers.getSetCookie().some((line) => line.startsWith('__Secure-better-auth.session_token=;') || /session_token=.*Max-Age=0/i.test(line))).toBe(true);
    expect((await get('/api/auth/user', cookie)).body).toEqual({ isAuthenticated: false, user: null });
    const back = await server.request(`/api/auth/logout?returnTo=${encodeURIComponent(`${SITE}/archives`)}`);
    expect(back.headers.get('location')).toBe('/archives');
  });

  it('tells the account and its plan, and changes the password through Better Auth', async () => {
    const cookie = await signUp(server, 'linus@example.com');
    const me = await get('/api/account', cookie);
    expect(me.body).toMatchObject({ email: 'linus@example.com', plan: 'free', isPremium: false, isOperator: false, grantedPro: null, billing: false });
    const short = await postJson(server, '/api/account/password', { currentPassword: 'correct horse battery', newPassword: 'short' }, cookie);
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: string }).error).toMatch(/newPassword: at least 10 characters/);
    const wrong = await postJson(server, '/api/account/password', { currentPassword: 'wrong password!', newPassword: 'a brand new secret' }, cookie);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toMatch(/password/i);
    const changed = await postJson(server, '/api/account/password', { currentPassword: 'correct horse battery', newPassword: 'a brand new secret' }, cookie);
    expect(changed.status).toBe(200);
    expect((await postJson(server, '/api/auth/sign-in/email', { email: 'linus@example.com', password: 'correct horse battery' })).status).toBe(401);
    expect((await postJson(server, '/api/auth/sign-in/email', { email: 'linus@example.com', password: 'a brand new secret' })).status).toBe(200);
  });

  it('keeps the watchlist on the account: replace, merge (union, upper-cased), checked, at most 200', async () => {
    const cookie = await signUp(server, 'watcher@example.com');
    expect((await get('/api/watchlist', cookie)).body).toEqual({ tickers: [] });
    const put = await postJson(server, '/api/watchlist', { tickers: ['msft', 'AAPL', 'msft'] }, cookie, 'PUT');
    expect(await put.json()).toEqual({ tickers: ['AAPL', 'MSFT'] });
    const merged = await postJson(server, '/api/watchlist/merge', { tickers: ['nvda', 'aapl', 'brk.b'] }, cookie);
    expect(((await merged.json()) as { tickers: string[] }).tickers.sort()).toEqual(['AAPL', 'BRK.B', 'MSFT', 'NVDA']);
    // Another browser: the same account sees the same list.
    const signIn = await postJson(server, '/api/auth/sign-in/email', { email: 'watcher@example.com', password: 'correct horse battery' });
    expect(((await get('/api/watchlist', cookiesOf(signIn))).body.tickers as string[]).sort()).toEqual(['AAPL', 'BRK.B', 'MSFT', 'NVDA']);
    const bad = await postJson(server, '/api/watchlist/merge', { tickers: ['<script>'] }, cookie);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('"<script>" is not a ticker: use 1 to 10 characters of A-Z, 0-9, "." or "-".');
    const many = Array.from({ length: 199 }, (_, i) => `T${i}`);
    const over = await postJson(server, '/api/watchlist/merge', { tickers: many }, cookie);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toBe('A watchlist holds at most 200 tickers; this one would hold 203.');
    expect(((await get('/api/watchlist', cookie)).body.tickers as string[]).length).toBe(4);
    const put2 = await postJson(server, '/api/watchlist', { tickers: ['JPM'] }, cookie, 'PUT');
    expect(await put2.json()).toEqual({ tickers: ['JPM'] });
    expect((await server.request('/api/watchlist')).status).toBe(401);
  });

  it('exports everything held on the user as JSON, and nothing of anyone else', async () => {
    const other = await signUp(server, 'other@example.com');
    await postJson(server, '/api/watchlist', { tickers: ['TSLA'] }, other, 'PUT');
    const cookie = await signUp(server, 'exporter@example.com');
    await postJson(server, '/api/watchlist', { tickers: ['AAPL'] }, cookie, 'PUT');
    const exported = await get('/api/account/export', cookie);
    expect(exported.response.headers.get('content-disposition')).toBe('attachment; filename="my-account.json"');
    expect(exported.body).toMatchObject({
      user: { email: 'exporter@example.com', emailVerified: false },
      plan: 'free',
      signInMethods: [{ method: 'password' }],
      watchlist: [{ ticker: 'AAPL' }],
      grantedPro: null,
    });
    expect((exported.body.sessions as unknown[]).length).toBe(1);
    const text = JSON.stringify(exported.body);
    expect(text).not.toContain('TSLA');
    expect(text).not.toContain('other@example.com');
    expect(text).not.toMatch(/token|password"\s*:|scrypt|\$/);
  });

  it('grants and revokes Pro for an operator: the user sees it at once', async () => {
    const cookie = await signUp(server, 'buyer@example.com');
    const { db } = server.accounts.database;
    expect(await grantPro(db, 'nobody@example.com')).toBe('unknown-email');
    expect(await grantPro(db, 'Buyer@Example.com')).toBe('granted');
    expect(await grantPro(db, 'buyer@example.com')).toBe('already-granted');
    expect(((await get('/api/auth/user', cookie)).body.user as { isPremium: boolean }).isPremium).toBe(true);
    expect((await get('/api/account', cookie)).body).toMatchObject({ plan: 'pro', grantedPro: { plan: 'pro' } });
    expect(await revokePro(db, 'buyer@example.com')).toBe('revoked');
    expect(await revokePro(db, 'buyer@example.com')).toBe('not-granted');
    expect(((await get('/api/auth/user', cookie)).body.user as { isPremium: boolean }).isPremium).toBe(false);
  });

  it('deletes the account with its password (or a fresh session), and everything with it', async () => {
    const cookie = await signUp(server, 'leaver@example.com');
    await postJson(server, '/api/watchlist', { tickers: ['AAPL'] }, cookie, 'PUT');
    await grantPro(server.accounts.database.db, 'leaver@example.com');
    const { id } = await server.accounts.database.db.selectFrom('user').select('id').where('email', '=', 'leaver@example.com').executeTakeFirstOrThrow();
    const wrong = await postJson(server, '/api/account/delete', { password: 'not my password' }, cookie);
    expect(wrong.status).toBe(400);
    const deleted = await postJson(server, '/api/account/delete', { password: 'correct horse battery' }, cookie);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    const { db } = server.accounts.database;
    expect(await db.selectFrom('user').select('id').where('email', '=', 'leaver@example.com').execute()).toEqual([]);
    expect((await get('/api/auth/user', cookie)).body.isAuthenticated).toBe(false);
    expect((await postJson(server, '/api/auth/sign-in/email', { email: 'leaver@example.com', password: 'correct horse battery' })).status).toBe(401);
    expect(await db.selectFrom('watchlist').select('ticker').where('user_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('plan_grant').select('plan').where('user_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('session').select('id').where('userId', '=', id).execute()).toEqual([]);
    // A session signed in just now is fresh: no password needed.
    const fresh = await signUp(server, 'quick@example.com');
    expect((await postJson(server, '/api/account/delete', {}, fresh)).status).toBe(200);
  });

  it('answers grant-pro and revoke-pro from the command line, with clear messages for unknown emails', async () => {
    const env = { ...process.env, NODE_ENV: 'development', ...(databaseUrl === null ? { DATABASE_FILE: server.accounts.database.where } : { DATABASE_URL: databaseUrl }) };
    await signUp(server, 'cli@example.com');
    const admin = (...args: string[]) => run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin.ts', ...args], { cwd: ROOT, env }).then(
      (out) => ({ code: 0, ...out }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
    const granted = await admin('grant-pro', 'CLI@example.com');
    expect([granted.code, granted.stdout.trim()]).toEqual([0, 'cli@example.com now has Pro (granted by an operator).']);
    const unknown = await admin('grant-pro', 'ghost@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the email ghost@example.com: the person must sign up first (check the spelling).');
    const revoked = await admin('revoke-pro', 'cli@example.com');
    expect([revoked.code, revoked.stdout.trim()]).toEqual([0, 'The Pro grant of cli@example.com is revoked (a Stripe subscription, if any, still counts).']);
    const usage = await admin('grant');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run admin -- grant-pro EMAIL | revoke-pro EMAIL');
  }, 120_000);
});
