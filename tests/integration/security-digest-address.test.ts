/**
 * Confirmed digest addresses, on SQLite and PostgreSQL, every mail over real SMTP: an address typed into the alert
 * settings gets a confirmation link (24 hours, only its hash stored) and no digest until the link's button is
 * pressed; the account's own email counts once the account is confirmed; the account page's "send again" works.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDigests } from '../../src/ingest/alerts';
import { signalEvents } from '../../src/lib/domain/alerts/alerts';
import { createDigestSender } from '../../src/server/mail';
import { AlertStore } from '../../src/storage/alerts';
import { nowText } from '../../src/storage/db';
import { type AccountServer, cookiesOf, DATABASES, SITE, startAccountServer } from '../fixtures/account-server';
import { signalRecord } from '../fixtures/records';
import { linkIn, type SmtpCatcher, startSmtp } from '../fixtures/smtp';

describe.each(DATABASES)('digest addresses on $name', ({ url }) => {
  let smtp: SmtpCatcher;
  let server: AccountServer;
  let store: AlertStore;
  let clock = Date.parse('2026-11-19T13:00:00Z');
  let day = 19;

  const json = (path: string, method: string, body: unknown, cookie: string) =>
    server.request(path, { method, headers: { 'content-type': 'application/json', origin: SITE, cookie }, body: JSON.stringify(body) });
  const pathOf = (link: string) => {
    const address = new URL(link);
    expect(address.origin).toBe(SITE);
    return `${address.pathname}${address.search}`;
  };
  const settingsOf = async (cookie: string) =>
    (await (await server.request('/api/alerts/settings', { headers: { cookie } })).json()) as { address: string | null; addressConfirmed: boolean; accountEmailConfirmed: boolean; digestTo: string | null };
  const digestsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address) && m.subject.includes('signal alert'));

  /** A user watching AAPL with alerts on (and `address`, when given); the account's own email left unconfirmed. */
  async function subscriber(email: string, address?: string): Promise<string> {
    const response = await server.request('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password: 'correct horse battery', name: '' }) });
    expect(response.status).toBe(200);
    // Sign-up never signs in: the session comes from signing in.
    const signedIn = await server.request('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password: 'correct horse battery' }) });
    expect(signedIn.status).toBe(200);
    const cookie = cookiesOf(signedIn);
    expect((await json('/api/watchlist', 'PUT', { tickers: ['AAPL'] }, cookie)).status).toBe(200);
    expect((await json('/api/alerts/settings', 'PUT', { enabled: true, ...(address ? { address } : {}) }, cookie)).status).toBe(200);
    return cookie;
  }

  /** The next report (a day later), on which AAPL qualifies: its digests queued and sent; the queue's notes. */
  async function publishReport(): Promise<string[]> {
    day += 1;
    clock += 24 * 60 * 60 * 1000;
    const reportDate = `2026-11-${day}`;
    const history = { dates: ['2026-11-01', reportDate], latest: [signalRecord('AAPL', { cScore: 70, reportDate })], scores: { AAPL: [60, 70] } };
    await store.saveEvents(signalEvents(history));
    const queued = await store.enqueueDigests({ reportDate, siteUrl: SITE, siteName: 'C-Score Signals', paywall: false });
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'alerts@signals.example', siteUrl: SITE });
    const run = await sendDigests({ store, send: sender.send, siteUrl: SITE });
    sender.close();
    return [`queued ${queued.queued}, address unconfirmed ${queued.addressUnconfirmed}`, `sent ${run.sent}`];
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startAccountServer(await url(), { mail: { smtpUrl: smtp.url, from: 'C-Score Signals <no-reply@signals.example>' } });
    store = new AlertStore(server.accounts.database.db, () => clock);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('a typed address gets a confirmation link and no digest until its button is pressed; then the digests go there', async () => {
    const cookie = await subscriber('ann@example.com', 'Ann.Box@Other.example');
    // The account itself is confirmed: only the typed address waits.
    expect((await server.request(pathOf(linkIn(await smtp.next('ann@example.com'))))).status).toBe(302);
    const mail = await smtp.next('ann.box@other.example');
    expect(mail.subject).toBe('Confirm your alert address for C-Score Signals');
    expect(mail.text).toContain('it works within 24 hours');
    const link = linkIn(mail);
    expect(link).toMatch(/^https:\/\/signals\.example\/api\/alerts\/confirm\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link).searchParams.get('token')!;
    const row = await server.accounts.database.db.selectFrom('alert_settings').selectAll().executeTakeFirstOrThrow();
    expect(row.address_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await settingsOf(cookie)).toMatchObject({ address: 'ann.box@other.example', addressConfirmed: false, accountEmailConfirmed: true, digestTo: null });

    expect(await publishReport()).toEqual(['queued 0, address unconfirmed 1', 'sent 0']);
    expect(digestsTo('ann.box@other.example')).toEqual([]);
    expect(digestsTo('ann@example.com')).toEqual([]);

    // Opening the link (as a mail scanner would) shows a button and confirms nothing yet.
    const page = await server.request(pathOf(link));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Send the daily alert emails of C-Score Signals to <strong>ann.box@other.example</strong>?');
    expect(html).toContain(`<form method="post" action="/api/alerts/confirm?token=${token}"><button type="submit">Confirm this address</button></form>`);
    expect((await settingsOf(cookie)).addressConfirmed).toBe(false);
    const confirmed = await server.request(pathOf(link), { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('<h1>Your alert address is confirmed</h1>');
    expect(await settingsOf(cookie)).toMatchObject({ addressConfirmed: true, digestTo: 'ann.box@other.example' });
    // The link works once.
    expect((await server.request(pathOf(link), { method: 'POST' })).status).toBe(404);

    expect(await publishReport()).toEqual(['queued 1, address unconfirmed 0', 'sent 1']);
    expect(digestsTo('ann.box@other.example')).toHaveLength(1);
    expect(digestsTo('ann@example.com')).toEqual([]);
  });

  it('the account\'s own email gets digests only once the account is confirmed; "send again" mails its link', async () => {
    const cookie = await subscriber('bob@example.com');
    await smtp.next('bob@example.com');
    expect(await settingsOf(cookie)).toMatchObject({ address: null, accountEmailConfirmed: false, digestTo: null });
    expect(await publishReport()).toEqual(['queued 1, address unconfirmed 1', 'sent 1']);
    expect(digestsTo('bob@example.com')).toEqual([]);

    // The account page's plain "Send the confirmation link again" form.
    const again = await server.request('/api/alerts/confirmation', { method: 'POST', headers: { origin: SITE, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect([again.status, again.headers.get('location')]).toEqual([303, '/account#alerts-link-sent']);
    const resent = await smtp.next('bob@example.com');
    expect(resent.subject).toBe('Confirm your email for C-Score Signals');
    const wait = await server.request('/api/alerts/confirmation', { method: 'POST', headers: { origin: SITE, cookie } });
    expect(wait.status).toBe(429);
    expect(((await wait.json()) as { error: string }).error).toBe('A confirmation link was sent less than a minute ago: wait a minute, then ask again.');
    expect((await server.request(pathOf(linkIn(resent)))).status).toBe(302);
    expect((await settingsOf(cookie)).digestTo).toBe('bob@example.com');

    expect(await publishReport()).toEqual(['queued 2, address unconfirmed 0', 'sent 2']);
    expect(digestsTo('bob@example.com')).toHaveLength(1);
  });

  it('a changed address needs its own confirmation (the old link stops working); a link older than 24 hours has expired', async () => {
    const db = server.accounts.database.db;
    const cookie = await subscriber('cat@example.com', 'first@cat.example');
    const first = linkIn(await smtp.next('first@cat.example'));
    // A second address within the minute: saved, awaiting, its link sent by "send again" once the minute is over.
    expect((await json('/api/alerts/settings', 'PUT', { address: 'second@cat.example' }, cookie)).status).toBe(200);
    expect((await server.request(pathOf(first))).status).toBe(404);
    expect((await server.request(pathOf(first), { method: 'POST' })).status).toBe(404);
    expect((await server.request('/api/alerts/confirmation', { method: 'POST', headers: { origin: SITE, cookie } })).status).toBe(429);
    await db.updateTable('alert_settings').set({ address_token_sent_at: nowText(Date.now() - 61_000) }).where('address', '=', 'second@cat.example').execute();
    const again = await server.request('/api/alerts/confirmation', { method: 'POST', headers: { origin: SITE, cookie } });
    expect(await again.json()).toEqual({ outcome: 'sent' });
    const second = linkIn(await smtp.next('second@cat.example'));

    // 25 hours later the link is refused with what to do.
    await db.updateTable('alert_settings').set({ address_token_sent_at: nowText(Date.now() - 25 * 60 * 60 * 1000) }).where('address', '=', 'second@cat.example').execute();
    for (const method of ['GET', 'POST']) {
      const expired = await server.request(pathOf(second), { method });
      expect(expired.status).toBe(410);
      expect(await expired.text()).toContain('It worked for 24 hours. Send a new one from <a href="/account#alerts">your account</a>.');
    }
    expect((await settingsOf(cookie)).digestTo).toBeNull();
    // Typing the account's own confirmed email needs no link.
    expect((await server.request(pathOf(linkIn(await smtp.next('cat@example.com'))))).status).toBe(302);
    const own = await json('/api/alerts/settings', 'PUT', { address: 'cat@example.com' }, cookie);
    expect(await own.json()).toMatchObject({ addressConfirmed: true, digestTo: 'cat@example.com', confirmationSent: false });
    expect((await server.request('/api/alerts/confirm?token=not-a-token')).status).toBe(404);
  });
});
