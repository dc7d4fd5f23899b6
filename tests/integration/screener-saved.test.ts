/**
 * Saved screens on the real server, on SQLite and PostgreSQL: save, list, rename, alert off, delete; the origin check
 * and the session; bad names and queries refused naming the field; with PAYWALL=on a Free account keeps 1 screen and
 * a Pro account 50. Then the daily job: a stock newly entering an alerting saved screen on a published report reaches
 * the account's digest over real SMTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { createDigestSender } from '../../src/server/mail';
import { AlertStore } from '../../src/storage/alerts';
import { grantPro } from '../../src/storage/plan-grants';
import { type AccountServer, DATABASES, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';
import { confirmEmail, keepingMailer, testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';
import { type SmtpCatcher, startSmtp } from '../fixtures/smtp';

describe.each(DATABASES)('saved screens on $name', { timeout: 120_000 }, (database) => {
  let server: AccountServer;
  let paywalled: AccountServer;

  beforeAll(async () => {
    server = await startAccountServer(await database.url());
    paywalled = await startAccountServer(await database.url(), { paywall: true });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await paywalled?.close();
  });

  const call = (s: AccountServer, path: string, method: string, cookie: string, body?: unknown) =>
    body === undefined ? s.request(path, { method, headers: { origin: SITE, cookie } }) : postJson(s, path, body, cookie, method);

  it('saves, lists, renames, turns the alert off and deletes; another account sees none of them', async () => {
    const ann = await signUp(server, 'ann@example.com');
    const bob = await signUp(server, 'bob@example.com');
    const created = await call(server, '/api/screens', 'POST', ann, { name: '  Strong   bulls ', query: '?signal=bullish&cscore=80..' });
    expect(created.status).toBe(201);
    const screen = (await created.json()) as { id: string; name: string; query: string; alert: boolean };
    // Stored canonical: the page's own order of keys.
    expect(screen).toMatchObject({ name: 'Strong bulls', query: 'cscore=80..&signal=bullish', alert: true });
    expect(await (await call(server, '/api/screens', 'GET', ann)).json()).toEqual({ screens: [expect.objectContaining({ id: screen.id, name: 'Strong bulls' })], limit: 50 });
    expect(await (await call(server, '/api/screens', 'GET', bob)).json()).toEqual({ screens: [], limit: 50 });

    const renamed = await call(server, `/api/screens/${screen.id}`, 'PATCH', ann, { name: 'Bulls 80+', alert: false });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: screen.id, name: 'Bulls 80+', alert: false });
    // Bob can neither rename nor delete Ann's screen.
    expect((await call(server, `/api/screens/${screen.id}`, 'PATCH', bob, { name: 'Mine' })).status).toBe(404);
    expect((await call(server, `/api/screens/${screen.id}`, 'DELETE', bob)).status).toBe(404);
    expect((await call(server, `/api/screens/${screen.id}`, 'DELETE', ann)).status).toBe(204);
    expect(await (await call(server, '/api/screens', 'GET', ann)).json()).toEqual({ screens: [], limit: 50 });
  });

  it('the account export holds the saved screens; deleting the account deletes them', async () => {
    const eve = await signUp(server, 'eve@example.com');
    expect((await call(server, '/api/screens', 'POST', eve, { name: 'Risers', query: 'change=15..' })).status).toBe(201);
    const exported = (await (await call(server, '/api/account/export', 'GET', eve)).json()) as { savedScreens: unknown };
    expect(exported.savedScreens).toEqual([{ name: 'Risers', query: 'change=15..', alert: true, createdAt: expect.any(String) }]);
    const { db } = server.accounts.database;
    const id = (await db.selectFrom('user').select('id').where('email', '=', 'eve@example.com').executeTakeFirstOrThrow()).id;
    expect((await call(server, '/api/account/delete', 'POST', eve, { password: 'correct horse battery' })).status).toBe(200);
    expect(await db.selectFrom('saved_screen').select('id').where('user_id', '=', id).execute()).toEqual([]);
  });

  it('refuses bad names and queries naming the field, a foreign origin and a missing session', async () => {
    const cat = await signUp(server, 'cat@example.com');
    const refused = async (body: unknown) => {
      const response = await call(server, '/api/screens', 'POST', cat, body);
      return { status: response.status, error: ((await response.json()) as { error: string }).error };
    };
    expect(await refused({ name: '', query: 'cscore=65..' })).toEqual({ status: 400, error: 'name: give the screen a name' });
    expect(await refused({ name: 'x'.repeat(61), query: 'cscore=65..' })).toEqual({ status: 400, error: 'name: at most 60 characters' });
    expect(await refused({ name: 'Bad', query: 'cscore=90..10' })).toEqual({ status: 400, error: 'query: cscore: the minimum 90 is above the maximum 10' });
    expect(await refused({ name: 'Bad', query: 'colour=red' })).toEqual({ status: 400, error: 'query: colour: not a screener key' });
    expect(await refused({ name: 'Empty', query: '' })).toEqual({ status: 400, error: 'query: the screen filters nothing; set at least one range or choice' });
    const foreign = await server.request('/api/screens', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: cat }, body: JSON.stringify({ name: 'A', query: 'top=1' }) });
    expect(foreign.status).toBe(403);
    expect((await postJson(server, '/api/screens', { name: 'A', query: 'top=1' })).status).toBe(401);
  });

  it('with PAYWALL=on a Free account keeps 1 saved screen and a Pro account 50', async () => {
    const free = await signUp(paywalled, 'free@example.com');
    expect((await call(paywalled, '/api/screens', 'POST', free, { name: 'One', query: 'top=1' })).status).toBe(201);
    const second = await call(paywalled, '/api/screens', 'POST', free, { name: 'Two', query: 'new=1' });
    expect(second.status).toBe(403);
    expect(((await second.json()) as { error: string }).error).toBe('screens: a Free account keeps 1 saved screen; delete it or upgrade to Pro to keep up to 50');
    expect(((await (await call(paywalled, '/api/screens', 'GET', free)).json()) as { limit: number }).limit).toBe(1);

    await signUp(paywalled, 'pro@example.com');
    expect(await grantPro(paywalled.accounts.database.db, 'pro@example.com')).toBe('granted');
    const pro = await signUp(paywalled, 'pro@example.com').catch(async () => {
      const signedIn = await postJson(paywalled, '/api/auth/sign-in/email', { email: 'pro@example.com', password: 'correct horse battery' });
      return signedIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    });
    for (let i = 1; i <= 50; i += 1) expect((await call(paywalled, '/api/screens', 'POST', pro, { name: `Screen ${i}`, query: `cscore=${i}..` })).status).toBe(201);
    const fiftyFirst = await call(paywalled, '/api/screens', 'POST', pro, { name: 'One too many', query: 'top=1' });
    expect(fiftyFirst.status).toBe(403);
    expect(((await fiftyFirst.json()) as { error: string }).error).toBe('screens: at most 50 saved screens; delete one first');
  });
});

/** A day's export: `scores` by ticker. */
function dayCsv(date: string, scores: Record<string, number>): string {
  const names: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil', NVDA: 'Nvidia' };
  return exportCsv(Object.entries(scores).map(([ticker, score]) => exportRow(ticker, names[ticker]!, date, score)));
}

describe('a saved screen\'s new entries reach the digest after a publish', { timeout: 300_000 }, () => {
  let work: string;
  let server: ServerType;
  let origin: string;
  let smtp: SmtpCatcher;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let daily: DailyConfig;

  const request = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });
  const json = (path: string, method: string, body: unknown, cookie: string) =>
    request(path, { method, headers: { 'content-type': 'application/json', origin: SITE, cookie }, body: JSON.stringify(body) });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'screener-digest-'));
    await writeExports(join(work, 'source'), { 'signals-2026-11-18.csv': dayCsv('2026-11-18', { AAPL: 70, MSFT: 10, XOM: 50, NVDA: 20 }) });
    smtp = await startSmtp();
    accounts = await testAccounts({ mail: keepingMailer() });
    daily = dailyIn(work);
    expect((await runDaily(daily)).status).toBe('published');
    ({ server, origin } = await serveDaily(daily, accounts, { siteUrl: SITE }));
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'C-Score Signals <alerts@signals.example>', siteUrl: origin });
    daily.alerts = { store: new AlertStore(accounts.database.db, () => Date.parse('2026-11-19T13:00:00Z')), send: sender.send, siteUrl: origin, retry: { firstDelayMs: 10 } };
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await smtp?.close();
    await accounts?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  it('a stock newly in an alerting saved screen is in the mailed digest; a screen with its alert off and the stocks already in it are not', async () => {
    const email = 'dan@example.com';
    const password = 'correct horse battery';
    expect((await request('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password, name: '' }) })).status).toBe(200);
    await confirmEmail(accounts, email);
    const signedIn = await request('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password }) });
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    expect((await json('/api/alerts/settings', 'PUT', { enabled: true }, cookie)).status).toBe(200);
    // Saved on the 11-18 report, when AAPL is in it already.
    expect((await json('/api/screens', 'POST', { name: 'Bulls', query: 'cscore=60..' }, cookie)).status).toBe(201);
    expect((await json('/api/screens', 'POST', { name: 'Quiet', query: 'cscore=0..', alert: false }, cookie)).status).toBe(201);

    // On 11-19 XOM and NVDA enter "Bulls" (XOM crosses +65 too: a watched-ticker event it is not, since nothing is watched).
    await writeExports(join(work, 'source'), { 'signals-2026-11-19.csv': dayCsv('2026-11-19', { AAPL: 72, MSFT: 12, XOM: 66, NVDA: 61 }) });
    const summary = await runDaily(daily);
    expect(summary.status).toBe('published');
    expect(summary.alerts).toContain('2 stocks newly in 1 alerting saved screens');
    const mails = smtp.messages.filter((mail) => mail.to.includes(email));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('C-Score Signals: 2 signal alerts for Nov 19, 2026');
    expect(mail.text).toContain(`New in your screen "Bulls" (${origin}/screener?cscore=60..):\n- XOM\n  ${origin}/signal/XOM\n- NVDA\n  ${origin}/signal/NVDA\n`);
    expect(mail.text).not.toContain('AAPL');
    expect(mail.text).not.toContain('Quiet');
    expect(mail.html).toContain(`<a href="${origin}/signal/XOM">XOM</a>`);

    // The same report published again tells nothing twice.
    const before = smtp.messages.length;
    expect((await runDaily({ ...daily, force: true })).status).toBe('published');
    expect(smtp.messages.length).toBe(before);
  });
});
