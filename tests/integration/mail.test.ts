/**
 * Mail: the server sends real messages over SMTP_URL, read here from an in-process SMTP server,
 * and their links work, once; without SMTP_URL in development the log carries the link. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail';
import { type AccountServer, cookiesOf, DATABASES, postJson, SITE, startAccountServer } from '../fixtures/account-server';
import { linkIn, type SmtpCatcher, startSmtp } from '../fixtures/smtp';

/** The path and query of a mail's link, which names SITE_URL: the test server answers it on its own origin. */
const pathOf = (link: string) => {
  const url = new URL(link);
  expect(url.origin).toBe(SITE);
  return `${url.pathname}${url.search}`;
};

describe.each(DATABASES)('mail on $name', ({ url }) => {
  let server: AccountServer;
  let smtp: SmtpCatcher;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startAccountServer(await url(), { mail: { smtpUrl: smtp.url, from: 'C-Score Signals <no-reply@signals.example>' } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('mails a magic link that signs in once, and expires', async () => {
    const asked = await postJson(server, '/api/auth/sign-in/magic-link', { email: 'magic@example.com', callbackURL: '/watchlist' });
    expect(asked.status).toBe(200);
    const mail = await smtp.next('magic@example.com');
    expect(mail.subject).toBe('Your C-Score Signals sign-in link');
    expect(mail.from).toContain('no-reply@signals.example');
    expect(mail.text).toContain('It works once, within 10 minutes');
    const path = pathOf(linkIn(mail));
    expect(path).toMatch(/^\/api\/auth\/magic-link\/verify\?token=/);
    const first = await server.request(path);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`${SITE}/watchlist`);
    const cookie = cookiesOf(first);
    const me = (await (await server.request('/api/auth/user', { headers: { cookie } })).json()) as { isAuthenticated: boolean; user: { email: string } };
    expect(me).toMatchObject({ isAuthenticated: true, user: { email: 'magic@example.com' } });
    // The same link again: refused, no session.
    const again = await server.request(path);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toMatch(/error=/);
    expect(cookiesOf(again)).not.toMatch(/session_token/);

    // A link older than 10 minutes: its verification row's expiry is moved into the past, as time would.
    await postJson(server, '/api/auth/sign-in/magic-link', { email: 'late@example.com', callbackURL: '/' });
    const late = pathOf(linkIn(await smtp.next('late@example.com')));
    const db = server.accounts.database.db as unknown as import('kysely').Kysely<{ verification: { expiresAt: unknown } }>;
    const stored = (await db.selectFrom('verification').select('expiresAt').executeTakeFirstOrThrow()).expiresAt;
    const past = new Date(Date.now() - 1000);
    // Written in the form the driver stored (a Date on PostgreSQL; text or a number on SQLite).
    const value = typeof stored === 'string' ? past.toISOString() : typeof stored === 'number' ? past.getTime() : past;
    await db.updateTable('verification').set({ expiresAt: value }).execute();
    const expired = await server.request(late);
    expect(expired.headers.get('location')).toMatch(/error=EXPIRED_TOKEN|error=INVALID_TOKEN/);
    expect(cookiesOf(expired)).not.toMatch(/session_token/);
  });

  it('mails a password reset whose link sets a new password, once', async () => {
    const signUp = await postJson(server, '/api/auth/sign-up/email', { email: 'forgetful@example.com', password: 'the old password', name: '' });
    expect(signUp.status).toBe(200);
    // Sign-up mails a link that confirms the address first.
    expect((await smtp.next('forgetful@example.com')).subject).toBe('Confirm your email for C-Score Signals');
    expect((await postJson(server, '/api/auth/request-password-reset', { email: 'forgetful@example.com', redirectTo: '/login' })).status).toBe(200);
    const mail = await smtp.next('forgetful@example.com');
    expect(mail.subject).toBe('Reset your C-Score Signals password');
    const link = await server.request(pathOf(linkIn(mail)));
    expect(link.status).toBe(302);
    const token = new URL(link.headers.get('location')!, SITE).searchParams.get('token')!;
    expect(token).toBeTruthy();
    expect((await postJson(server, '/api/auth/reset-password', { token, newPassword: 'the new password' })).status).toBe(200);
    expect((await postJson(server, '/api/auth/reset-password', { token, newPassword: 'another password' })).status).toBe(400);
    expect((await postJson(server, '/api/auth/sign-in/email', { email: 'forgetful@example.com', password: 'the new password' })).status).toBe(200);
  });
});

describe('without SMTP_URL', () => {
  it('logs each link with a line saying mail is not configured', async () => {
    const lines: string[] = [];
    const mailer = createMailer({ smtpUrl: null, from: 'x@example.com' }, (line) => lines.push(line));
    expect(mailer.configured).toBe(false);
    await mailer.send({ to: 'dev@example.com', subject: 'Your C-Score Signals sign-in link', text: '...', link: 'http://localhost:4321/api/auth/magic-link/verify?token=abc' });
    expect(lines).toEqual([
      'Mail is not configured (set SMTP_URL): "Your C-Score Signals sign-in link" for dev@example.com was not sent. Its link: http://localhost:4321/api/auth/magic-link/verify?token=abc',
    ]);
  });
});
