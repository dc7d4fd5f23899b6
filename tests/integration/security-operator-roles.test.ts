/**
 * Roles only for proven addresses, on SQLite and PostgreSQL, with the mail sent over real SMTP: an account signed up
 * with an ADMIN_EMAILS address but not confirmed gets 403 from every operator route and page and is not shown as an
 * operator; opening the mailed confirmation link lets it in. API tokens and Pro grants made while an account was
 * unproven (state left by versions that gave the role to any address) stop working once the address is proven by the
 * link, by an emailed sign-in link, or the account is taken back by a password reset.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/server/api';
import { createApp } from '../../src/server/app';
import { CONFIRM_FIRST } from '../../src/server/auth/session';
import { DemoProvider } from '../../src/server/providers/demo';
import { operatorPages } from '../../src/server/routes/pages';
import { AlertStore } from '../../src/storage/alerts';
import { API_TOKEN_PREFIX } from '../../src/storage/api-tokens';
import { migrateOwnTables, nowText } from '../../src/storage/db';
import { testAccounts } from '../fixtures/accounts';
import { cookiesOf, DATABASES, SITE } from '../fixtures/account-server';
import { OPERATOR_ROUTES } from '../fixtures/operator-routes';
import { linkIn, type SmtpCatcher, startSmtp } from '../fixtures/smtp';

/** Every route and page only an operator may use: /api/admin/*, the company-information writes, /upload and /admin. */
const EVERY_OPERATOR_ROUTE: readonly (readonly [string, string])[] = [
  ...OPERATOR_ROUTES,
  ['POST', '/api/save-company-name'],
  ['POST', '/api/polygon/sync-company-info'],
  ['GET', '/api/polygon/sync-company-info'],
  ['GET', '/upload'],
  ['GET', '/admin'],
];
const BODIES: Record<string, string> = {
  '/api/admin/users/pro': JSON.stringify({ email: 'reader@example.com', pro: true }),
  '/api/admin/tokens': JSON.stringify({ label: 'nightly push' }),
  '/api/save-company-name': JSON.stringify({ ticker: 'AAPL', companyName: 'Apple Inc.' }),
};
const PASSWORD = 'correct horse battery';

describe.each(DATABASES)('operator roles need a confirmed address on $name', ({ url }) => {
  let smtp: SmtpCatcher;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let server: ServerType;
  let origin: string;
  let work: string;

  const request = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });
  const call = (method: string, path: string, cookie: string) =>
    request(path, { method, headers: { origin: SITE, cookie, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : (BODIES[path] ?? '{}') });
  const post = (path: string, body: unknown, cookie?: string) =>
    request(path, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  /** The path of a mailed link (it names SITE_URL; the test server answers it on its own origin). */
  const pathOf = (link: string) => {
    const address = new URL(link);
    expect(address.origin).toBe(SITE);
    return `${address.pathname}${address.search}`;
  };
  async function signUp(email: string): Promise<string> {
    expect((await post('/api/auth/sign-up/email', { email, password: PASSWORD, name: '' })).status).toBe(200);
    // Sign-up never signs in (it answers a known address as a new one): the session comes from signing in.
    const signedIn = await post('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    return cookiesOf(signedIn);
  }
  const userId = async (email: string) => (await accounts.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  /** A token and a Pro grant as an older version let an unconfirmed account make them: written straight into the tables. */
  async function legacyTokenAndGrant(maker: string, grantee: string): Promise<{ token: string; id: string }> {
    const db = accounts.database.db;
    const token = `${API_TOKEN_PREFIX}${randomUUID().replace(/-/g, '')}legacy`;
    const id = randomUUID();
    await db
      .insertInto('api_token')
      .values({ id, token_hash: createHash('sha256').update(token).digest('hex'), label: 'made unconfirmed', created_by: maker, created_by_id: await userId(maker), created_at: nowText(Date.now() - 60_000), last_used_at: null, revoked_at: null })
      .execute();
    await db.insertInto('plan_grant').values({ user_id: await userId(grantee), plan: 'pro', granted_at: nowText(Date.now() - 60_000), granted_by: await userId(maker) }).execute();
    return { token, id };
  }
  /** The Bearer route's answer: 401 refused; anything else got past the token check (503: this server has no daily job). */
  const bearer = (token: string) => request('/api/admin/jobs/any', { headers: { authorization: `Bearer ${token}` } });
  const granted = async (email: string) => (await accounts.database.db.selectFrom('plan_grant').select('user_id').where('user_id', '=', await userId(email)).executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    smtp = await startSmtp();
    accounts = await testAccounts({
      databaseUrl: await url(),
      mail: { smtpUrl: smtp.url, from: 'C-Score Signals <no-reply@signals.example>' },
      adminEmails: ['ops@example.com', 'owner@example.com', 'boss@example.com', 'chief@example.com'],
    });
    work = await mkdtemp(join(tmpdir(), 'roles-'));
    const distDir = join(work, 'dist');
    for (const page of ['upload', 'admin']) {
      await mkdir(join(distDir, 'client', page), { recursive: true });
      await writeFile(join(distDir, 'client', page, 'index.html'), `<!doctype html><title>${page}</title><div data-${page}-page></div>`);
    }
    const api = createApi({ accounts, distDir, archiveDir: join(work, 'archive'), companyInfoFile: join(work, 'companies.json'), provider: new DemoProvider({ universe: [] }), siteUrl: SITE });
    const app = createApp({ distDir, api, operatorPages: operatorPages(accounts.session, distDir) });
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await signUp('reader@example.com');
  }, 120_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await accounts?.dispose();
    await smtp?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('an ADMIN_EMAILS address signed up unconfirmed gets 403 from every operator route and page; the mailed link lets it in', async () => {
    const cookie = await signUp('ops@example.com');
    for (const [method, path] of EVERY_OPERATOR_ROUTE) {
      const response = await call(method, path, cookie);
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 403`);
      const text = await response.text();
      if (path.startsWith('/api/')) expect(JSON.parse(text)).toEqual({ error: CONFIRM_FIRST });
      else expect(text).not.toContain(`data-${path.slice(1)}-page`);
    }
    const account = await (await request('/api/account', { headers: { cookie } })).json();
    expect(account).toMatchObject({ email: 'ops@example.com', isOperator: false });
    expect(await (await request('/api/auth/user', { headers: { cookie } })).json()).toEqual({ isAuthenticated: true, user: { username: 'ops', email: 'ops@example.com', isPremium: false } });
    // Nothing was made: no token, no grant.
    expect(await accounts.database.db.selectFrom('api_token').selectAll().execute()).toEqual([]);
    expect(await granted('reader@example.com')).toBe(false);

    const mail = await smtp.next('ops@example.com');
    expect(mail.subject).toBe('Confirm your email for C-Score Signals');
    const confirmed = await request(pathOf(linkIn(mail)));
    expect(confirmed.status).toBe(302);
    for (const session of [cookie, cookiesOf(confirmed)]) {
      expect(((await (await request('/api/account', { headers: { cookie: session } })).json()) as { isOperator: boolean }).isOperator).toBe(true);
      for (const [method, path] of EVERY_OPERATOR_ROUTE) {
        const response = await call(method, path, session);
        expect(`${method} ${path} ${[401, 403].includes(response.status) ? 'refused' : 'in'}`).toBe(`${method} ${path} in`);
      }
    }
    expect((await request('/admin', { headers: { cookie } })).status).toBe(200);
    // Made now, by the confirmed operator: the grant and the token hold, and the token opens the Bearer route.
    expect(await granted('reader@example.com')).toBe(true);
    const made = await post('/api/admin/tokens', { label: 'after confirming' }, cookie);
    expect(made.status).toBe(201);
    expect((await bearer(((await made.json()) as { token: string }).token)).status).toBe(503);
    await accounts.database.db.deleteFrom('plan_grant').execute();
  });

  it('a token and a grant made while unconfirmed are revoked when the owner confirms the address by the mailed link', async () => {
    const attacker = await signUp('boss@example.com');
    const confirmMail = await smtp.next('boss@example.com');
    const legacy = await legacyTokenAndGrant('boss@example.com', 'reader@example.com');
    // Unconfirmed, the token's creator holds no role: refused even before anything is revoked.
    expect((await bearer(legacy.token)).status).toBe(401);
    expect((await call('GET', '/api/admin/status', attacker)).status).toBe(403);

    expect((await request(pathOf(linkIn(confirmMail)))).status).toBe(302);
    const row = await accounts.database.db.selectFrom('api_token').select('revoked_at').where('id', '=', legacy.id).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect((await bearer(legacy.token)).status).toBe(401);
    expect(await granted('reader@example.com')).toBe(false);
  });

  it('a token made before the proof is refused by the Bearer route even when nothing revoked it', async () => {
    // A confirmed operator, and a token dated before the proof whose revocation never ran (as a crash could leave it).
    const { token, id } = await legacyTokenAndGrant('ops@example.com', 'reader@example.com');
    await accounts.database.db.updateTable('api_token').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
    expect((await bearer(token)).status).toBe(401);
    await accounts.database.db.deleteFrom('plan_grant').execute();
  });

  it('the real owner taking the account back by a password reset revokes what it made unconfirmed, and its sessions', async () => {
    const attacker = await signUp('owner@example.com');
    await smtp.next('owner@example.com');
    const legacy = await legacyTokenAndGrant('owner@example.com', 'reader@example.com');
    expect((await post('/api/auth/request-password-reset', { email: 'owner@example.com', redirectTo: '/login' })).status).toBe(200);
    const reset = await smtp.next('owner@example.com');
    expect(reset.subject).toBe('Reset your C-Score Signals password');
    const link = await request(pathOf(linkIn(reset)));
    const token = new URL(link.headers.get('location')!, SITE).searchParams.get('token')!;
    expect((await post('/api/auth/reset-password', { token, newPassword: 'the owner\'s own password' })).status).toBe(200);

    expect((await accounts.database.db.selectFrom('api_token').select('revoked_at').where('id', '=', legacy.id).executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
    expect(await granted('reader@example.com')).toBe(false);
    expect(await (await request('/api/auth/user', { headers: { cookie: attacker } })).json()).toEqual({ isAuthenticated: false, user: null });
    // Still unconfirmed after the reset: the role waits for the proof, and the old token stays dead after it.
    const owner = cookiesOf(await post('/api/auth/sign-in/email', { email: 'owner@example.com', password: 'the owner\'s own password' }));
    expect((await call('GET', '/api/admin/status', owner)).status).toBe(403);
    expect((await post('/api/auth/sign-in/magic-link', { email: 'owner@example.com', callbackURL: '/admin' })).status).toBe(200);
    const signedIn = await request(pathOf(linkIn(await smtp.next('owner@example.com'))));
    expect(signedIn.headers.get('location')).toBe(`${SITE}/admin`);
    expect((await call('GET', '/api/admin/status', cookiesOf(signedIn))).status).toBe(200);
    expect((await bearer(legacy.token)).status).toBe(401);
  });

  it('an emailed sign-in link to an unconfirmed account proves it and revokes what the account made before', async () => {
    const db = accounts.database.db;
    const attacker = await signUp('chief@example.com');
    await smtp.next('chief@example.com');
    const legacy = await legacyTokenAndGrant('chief@example.com', 'reader@example.com');
    expect((await post('/api/auth/sign-in/magic-link', { email: 'chief@example.com', callbackURL: '/' })).status).toBe(200);
    const signedIn = await request(pathOf(linkIn(await smtp.next('chief@example.com'))));
    expect(signedIn.status).toBe(302);
    expect((await db.selectFrom('api_token').select('revoked_at').where('id', '=', legacy.id).executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
    expect(await granted('reader@example.com')).toBe(false);
    expect((await bearer(legacy.token)).status).toBe(401);
    // Better Auth ends the squatter's sessions and drops its password; the owner's new session is an operator's.
    expect(await (await request('/api/auth/user', { headers: { cookie: attacker } })).json()).toEqual({ isAuthenticated: false, user: null });
    expect((await call('GET', '/api/admin/status', cookiesOf(signedIn))).status).toBe(200);
  });
});

describe.each(DATABASES)('the migration on an existing $name database', ({ url }) => {
  it('dates the proof of each confirmed account at its last change, none for an unconfirmed one, names each token\'s creator, and leaves saved digest addresses unconfirmed', async () => {
    const accounts = await testAccounts({ databaseUrl: await url() });
    try {
      const db = accounts.database.db;
      // Back to the schema before the migration, as a database of the previous version has it.
      await db.schema.dropTable('email_proof').execute();
      await db.schema.alterTable('api_token').dropColumn('created_by_id').execute();
      await db.schema.alterTable('plan_grant').dropColumn('granted_by').execute();
      await db.schema.dropIndex('alert_settings_address_token').execute();
      for (const column of ['address_confirmed_at', 'address_token_hash', 'address_token_sent_at']) await db.schema.alterTable('alert_settings').dropColumn(column).execute();
      // The migrations named after these are undone too: a previous version's database has none of them.
      for (const column of ['delta_score', 'market_score', 'accuracy_score', 'relevance_score']) await db.schema.alterTable('ledger_entry').dropColumn(column).execute();
      await (db as unknown as import('kysely').Kysely<{ app_migration: { name: string } }>).deleteFrom('app_migration').where('name', '>=', '2026-11-29-security-').execute();
      const at = (iso: string) => (accounts.database.type === 'postgres' ? new Date(iso) : iso);
      const user = (id: string, email: string, verified: boolean) => ({ id, email, name: '', emailVerified: accounts.database.type === 'postgres' ? verified : Number(verified), image: null, createdAt: at('2026-11-01T00:00:00.000Z'), updatedAt: at('2026-11-10T00:00:00.000Z') });
      await db.insertInto('user').values([user('u-confirmed', 'ops@example.com', true), user('u-squatter', 'boss@example.com', false)]).execute();
      const token = (id: string, email: string) => ({ id, token_hash: id, label: 'old', created_by: email, created_at: '2026-11-05T00:00:00.000Z', last_used_at: null, revoked_at: null });
      await (db as unknown as import('kysely').Kysely<{ api_token: ReturnType<typeof token> }>).insertInto('api_token').values([token('t1', 'ops@example.com'), token('t2', 'boss@example.com'), token('t3', 'gone@example.com')]).execute();
      const alerts = { user_id: 'u-confirmed', enabled: 1, kinds: 'entered', address: 'typed@elsewhere.example', unsubscribe_token: 'u1', feed_token_hash: null, updated_at: '2026-11-05T00:00:00.000Z' };
      await (db as unknown as import('kysely').Kysely<{ alert_settings: typeof alerts }>).insertInto('alert_settings').values(alerts).execute();

      await migrateOwnTables(db);
      expect(await db.selectFrom('email_proof').selectAll().execute()).toEqual([{ user_id: 'u-confirmed', proven_at: '2026-11-10T00:00:00.000Z' }]);
      const tokens = await db.selectFrom('api_token').select(['id', 'created_by_id']).orderBy('id').execute();
      expect(tokens).toEqual([{ id: 't1', created_by_id: 'u-confirmed' }, { id: 't2', created_by_id: 'u-squatter' }, { id: 't3', created_by_id: null }]);
      // A digest address saved by the previous version waits for its owner's confirmation (the account page offers the link).
      expect(await new AlertStore(db).settings('u-confirmed')).toMatchObject({ address: 'typed@elsewhere.example', addressConfirmed: false, accountEmailConfirmed: true, digestTo: null });
    } finally {
      await accounts.dispose();
    }
  });
});
