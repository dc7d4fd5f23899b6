/**
 * Alerts end to end: the real daily job publishes real export files, stores the report's signal events
 * and sends the digests over SMTP to the in-process catcher; the real server answers the settings, the private feed
 * and the unsubscribe link. Then the queue's own guarantees: retries with backoff, a crash resumed without a second
 * send, a refused address that stops nothing, Pro-only with PAYWALL=on.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendDigests, type AlertsStep } from '../../src/ingest/alerts';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { signalEvents } from '../../src/lib/domain/alerts/alerts';
import { createDigestSender } from '../../src/server/mail';
import { AlertStore } from '../../src/storage/alerts';
import { grantPro } from '../../src/storage/plan-grants';
import { RunLog } from '../../src/storage/run-log';
import { cookiesOf, DATABASES } from '../fixtures/account-server';
import { confirmEmail, keepingMailer, testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';
import { signalRecord } from '../fixtures/records';
import { type SmtpCatcher, startSmtp } from '../fixtures/smtp';
import { childrenNamed, childText, parseXml, type XmlElement } from '../fixtures/xml';


/** A day's export of AAPL, MSFT and XOM as CSV. */
function dayCsv(date: string, [aapl, msft, xom]: [number, number, number]): string {
  return exportCsv([exportRow('AAPL', 'Apple Inc.', date, aapl), exportRow('MSFT', 'Microsoft', date, msft), exportRow('XOM', 'Exxon Mobil', date, xom)]);
}

const PASSWORD = 'correct horse battery';
/** SITE_URL of the accounts: Better Auth and our routes trust requests from it. */
const SITE = 'https://signals.example';

describe('the daily job sends the digests of a published report', { timeout: 90_000 }, () => {
  let work: string;
  let server: ServerType;
  let origin: string;
  let smtp: SmtpCatcher;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let daily: DailyConfig;
  let clock = Date.parse('2026-11-19T13:00:00Z');
  const cookies: Record<string, string> = {};

  const request = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });
  const json = (path: string, method: string, body: unknown, cookie: string) =>
    request(path, { method, headers: { 'content-type': 'application/json', origin: SITE, cookie }, body: JSON.stringify(body) });

  async function user(email: string, watch: string[], settings: Record<string, unknown> | null): Promise<void> {
    const response = await request('/api/auth/sign-up/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password: PASSWORD, name: '' }) });
    expect(response.status).toBe(200);
    // Digests go only to confirmed addresses (security-digest-address.test.ts): each account confirms its own.
    await confirmEmail(accounts, email);
    // Sign-up never signs in: the session comes from signing in.
    const signedIn = await request('/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(signedIn.status).toBe(200);
    cookies[email] = cookiesOf(signedIn);
    expect((await json('/api/watchlist', 'PUT', { tickers: watch }, cookies[email])).status).toBe(200);
    if (settings !== null) expect((await json('/api/alerts/settings', 'PUT', settings, cookies[email])).status).toBe(200);
    if (typeof settings?.address === 'string') {
      const mail = (accounts.mailer as ReturnType<typeof keepingMailer>).sent.findLast((m) => m.to === (settings.address as string).toLowerCase());
      const link = new URL(mail!.link);
      expect((await request(`${link.pathname}${link.search}`, { method: 'POST' })).status).toBe(200);
    }
  }

  const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address));

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'alerts-'));
    // AAPL qualifies on 11-19; XOM crosses +65 by 0.4 on 11-19 and falls back by 0.2 on 11-20 (a borderline flicker).
    await writeExports(join(work, 'source'), {
      'signals-2026-11-18.csv': dayCsv('2026-11-18', [60, -40, 64.5]),
      'signals-2026-11-19.csv': dayCsv('2026-11-19', [70, -66, 65.4]),
    });
    smtp = await startSmtp({ rejectRecipients: ['nobody@bad.example'] });
    accounts = await testAccounts({ mail: keepingMailer() });
    daily = dailyIn(work, { runLog: { log: new RunLog(accounts.database.db), trigger: 'cli' } });
    ({ server, origin } = await serveDaily(daily, accounts, { siteUrl: SITE }));
    // The digests' links point at this server, so the test can follow them.
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'C-Score Signals <alerts@signals.example>', siteUrl: origin });
    daily.alerts = { store: new AlertStore(accounts.database.db, () => clock), send: sender.send, siteUrl: origin, retry: { firstDelayMs: 10 } };
    await user('ann@example.com', ['AAPL'], { enabled: true });
    await user('bob@example.com', ['MSFT'], null); // alerts never turned on
    await user('cat@example.com', ['XOM', 'AAPL'], { enabled: true, address: 'Cat.Alerts@example.com' });
    await user('eve@example.com', ['AAPL'], { enabled: true, address: 'nobody@bad.example' });
    await user('fay@example.com', ['MSFT'], { enabled: true, kinds: ['reversed'] }); // MSFT only enters
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await smtp?.close();
    await accounts?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  it('publishing a report in which a watched ticker qualifies sends exactly one digest, with the right events and working links', async () => {
    const summary = await runDaily(daily);
    expect(summary.status).toBe('published');
    expect(summary.alerts).toEqual([
      '3 signal events on 2026-11-19 (3 new)',
      '3 digests queued',
      '2 digests sent, 1 given up',
      expect.stringMatching(/^Given up: nobody@bad\.example: gave up after the mail server refused it: .*550/),
    ]);
    expect(mailsTo('ann@example.com')).toHaveLength(1);
    const [mail] = mailsTo('ann@example.com');
    expect(mail!.subject).toBe('C-Score Signals: 1 signal alert for Nov 19, 2026');
    expect(mail!.text).toContain(`- AAPL is a new bullish signal: C-Score 60.00 to 70.00\n  ${origin}/signal/AAPL`);
    expect(mail!.text).not.toContain('MSFT');
    expect(mail!.html).toContain(`<a href="${origin}/signal/AAPL/2026-11-19">AAPL</a>`);
    const unsubscribe = /Unsubscribe from these emails: (\S+)/.exec(mail!.text)![1]!;
    expect(mail!.headers['list-unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // The link opens the stock page the build wrote.
    const page = await request(new URL(`${origin}/signal/AAPL`).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Apple Inc.');

    // cat's digest goes to the address of her settings, with both events; bob (alerts off) and fay (other kinds) get none.
    const [catMail] = mailsTo('cat.alerts@example.com');
    expect(catMail!.text).toContain('- AAPL is a new bullish signal');
    expect(catMail!.text).toContain('- XOM is a new bullish signal: C-Score 64.50 to 65.40');
    expect(mailsTo('bob@example.com')).toEqual([]);
    expect(mailsTo('fay@example.com')).toEqual([]);
    // The refused address stopped nothing, and the run log has it.
    const [run] = await new RunLog(accounts.database.db).recent(1);
    expect(run!.notes.alerts).toContainEqual(expect.stringContaining('Given up: nobody@bad.example'));
  }, 300_000);

  it('publishing the same report again stores no event twice and sends nothing', async () => {
    const before = smtp.messages.length;
    const summary = await runDaily({ ...daily, force: true });
    expect(summary.status).toBe('published');
    expect(summary.alerts).toEqual(['3 signal events on 2026-11-19 (0 new)', '0 digests queued, 3 already queued for this report or today', '0 digests sent']);
    expect(smtp.messages.length).toBe(before);
    const store = new AlertStore(accounts.database.db);
    expect(await store.events({ reportDate: '2026-11-19' })).toHaveLength(3);
  }, 300_000);

  it('the private feed lists the watched tickers\' events at its token address; a new token kills the old one', async () => {
    const made = await request('/api/alerts/feed-token', { method: 'POST', headers: { origin: SITE, cookie: cookies['cat@example.com']! } });
    expect(made.status).toBe(201);
    const { atom, json: jsonUrl } = (await made.json()) as { atom: string; json: string };
    const path = (url: string) => new URL(url).pathname;
    const xml = await request(path(atom));
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const parsed = parseXml(await xml.text());
    expect(childrenNamed(parsed, 'entry').map((e) => childText(e, 'id'))).toEqual(['https://signals.example/signal/AAPL#2026-11-19-entered', 'https://signals.example/signal/XOM#2026-11-19-entered']);
    const feed = (await (await request(path(jsonUrl))).json()) as { version: string; title: string; items: { id: string }[] };
    expect(feed.version).toMatch(/^https:\/\/jsonfeed\.org\/version\//);
    expect(feed.items).toHaveLength(2);

    const again = await request('/api/alerts/feed-token', { method: 'POST', headers: { origin: SITE, cookie: cookies['cat@example.com']! } });
    const renewed = (await again.json()) as { atom: string };
    expect((await request(path(atom))).status).toBe(404);
    expect((await request(path(renewed.atom))).status).toBe(200);
    expect((await request('/api/alerts/feed/not-a-token.xml')).status).toBe(404);
    // Signed out, the token route is refused.
    expect((await request('/api/alerts/feed-token', { method: 'POST', headers: { origin: SITE } })).status).toBe(401);
  });

  it('the unsubscribe link works without signing in and stops the next digest; a borderline flicker is not sent as an exit', async () => {
    const unsubscribe = /Unsubscribe from these emails: (\S+)/.exec(mailsTo('ann@example.com')[0]!.text)![1]!;
    const link = new URL(unsubscribe);
    const shown = await request(link.pathname + link.search);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('<button type="submit">Unsubscribe</button>');
    // What a mail client sends for List-Unsubscribe-Post: no cookie, no Origin.
    const done = await request(link.pathname + link.search, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are unsubscribed');
    expect((await request('/api/alerts/unsubscribe?token=wrong', { method: 'POST' })).status).toBe(404);
    const settings = (await (await request('/api/alerts/settings', { headers: { cookie: cookies['ann@example.com']! } })).json()) as { enabled: boolean };
    expect(settings.enabled).toBe(false);

    // The next day: AAPL exits, XOM falls back 0.2 under +65 a report after crossing it by 0.4.
    clock = Date.parse('2026-11-20T13:00:00Z');
    await writeExports(join(work, 'source'), { 'signals-2026-11-20.csv': dayCsv('2026-11-20', [50, -70, 64.8]) });
    const summary = await runDaily(daily);
    expect(summary.alerts?.[0]).toBe('2 signal events on 2026-11-20 (2 new, 1 borderline)');
    expect(mailsTo('ann@example.com')).toHaveLength(1);
    const catMails = mailsTo('cat.alerts@example.com');
    expect(catMails).toHaveLength(2);
    expect(catMails[1]!.text).toContain('- AAPL is no longer a bullish signal: C-Score 70.00 to 50.00');
    expect(catMails[1]!.text).not.toContain('XOM');
    const stored = await new AlertStore(accounts.database.db).events({ reportDate: '2026-11-20' });
    expect(stored.find((e) => e.ticker === 'XOM')).toMatchObject({ kind: 'crossed', borderline: true, scoreBefore: 65.4, scoreAfter: 64.8 });
  }, 300_000);

  it('the public feeds are built with the site and linked from its pages', async () => {
    const atom = await readFile(join(work, 'dist/client/feeds/signals.xml'), 'utf8');
    // Atom's required elements (RFC 4287): the feed's id, title and updated, and each entry's id, title, updated and link.
    const parsed = parseXml(atom);
    expect(parsed.name).toBe('feed');
    expect(parsed.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(childText(parsed, 'id')).toMatch(/\/feeds\/signals\.xml$/);
    expect(childText(parsed, 'title')).toBe('C-Score Signals: new, exited and reversed signals');
    expect(Date.parse(childText(parsed, 'updated'))).not.toBeNaN();
    const entries = childrenNamed(parsed, 'entry').map((e: XmlElement) => ({ id: childText(e, 'id'), title: childText(e, 'title'), updated: childText(e, 'updated'), link: childrenNamed(e, 'link')[0]?.attributes.href }));
    // 11-20: AAPL exits; XOM's borderline crossing is left out.
    expect(entries.map((e) => [e.id.replace(/^.*\/signal\//, ''), e.title, e.updated, e.link?.replace(/^.*\/signal\//, '')])).toEqual([
      ['AAPL#2026-11-20-exited', 'AAPL is no longer a bullish signal: C-Score 70.00 to 50.00', '2026-11-20T00:00:00.000Z', 'AAPL'],
    ]);
    const feed = JSON.parse(await readFile(join(work, 'dist/client/feeds/signals.json'), 'utf8')) as { version: string; title: string; items: { id: string; url: string }[] };
    expect(feed.version).toMatch(/^https:\/\/jsonfeed\.org\/version\//);
    expect(feed.title).toBe('C-Score Signals: new, exited and reversed signals');
    expect(feed.items.map((i) => i.id)).toEqual([entries[0]!.id]);
    const home = await (await request('/')).text();
    expect(home).toContain('<link rel="alternate" type="application/atom+xml" title="C-Score Signals: signal changes (Atom)" href="/feeds/signals.xml">');
    expect(home).toContain('<link rel="alternate" type="application/feed+json" title="C-Score Signals: signal changes (JSON Feed)" href="/feeds/signals.json">');
  });

  it('settings: bad input is refused with what to fix', async () => {
    const cookie = cookies['bob@example.com']!;
    const unknown = await json('/api/alerts/settings', 'PUT', { kinds: ['sideways'] }, cookie);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('Unknown alert kind "sideways": use entered, exited, reversed, crossed.');
    const address = await json('/api/alerts/settings', 'PUT', { address: 'not an email' }, cookie);
    expect(address.status).toBe(400);
    expect(((await address.json()) as { error: string }).error).toContain('expected an email address');
    expect((await request('/api/alerts/settings')).status).toBe(401);
    const crossSite = await request('/api/alerts/settings', { method: 'PUT', headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie }, body: '{"enabled":true}' });
    expect(crossSite.status).toBe(403);
  });
  it('from the server (uploads, the token route) the job answers before the digests go out, and they still arrive', async () => {
    clock = Date.parse('2026-11-21T13:00:00Z');
    // MSFT reverses from bearish to bullish: Fay asked for reversals of MSFT only.
    await writeExports(join(work, 'source'), { 'signals-2026-11-21.csv': dayCsv('2026-11-21', [50, 80, 64.8]) });
    const slow = await startSmtp({ failFirst: 1 });
    const sender = createDigestSender({ smtpUrl: slow.url, from: 'C-Score Signals <alerts@signals.example>', siteUrl: origin });
    const lines: string[] = [];
    // The queue's clock is the test's: waiting for the retry moves it on.
    const tick = async (ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      clock += ms;
    };
    const summary = await runDaily({ ...daily, alerts: { ...daily.alerts!, send: sender.send, retry: { firstDelayMs: 1500 }, sleep: tick }, digestsInBackground: true, log: (line) => lines.push(line) });
    expect(summary.status).toBe('published');
    expect(summary.alerts).toEqual(['1 signal events on 2026-11-21 (1 new)', '1 digests queued', 'digests are being sent in the background; the server log has the outcome']);
    // Its first try is refused and the retry waits 1.5 s: the job answered without waiting.
    expect(slow.messages).toEqual([]);
    const mail = await slow.next('fay@example.com');
    expect(mail.text).toContain('- MSFT reversed to bullish: C-Score -70.00 to 80.00');
    await vi.waitFor(() => expect(lines).toContain('Alert digests: 1 digests sent (1 retries)'), { timeout: 10_000 });
    sender.close();
    await slow.close();
  });
});

describe.each(DATABASES)('the digest queue on $name', (database) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let clock = Date.parse('2026-11-19T13:00:00Z');
  let store: AlertStore;
  const sleep = (ms: number) => {
    clock += ms;
    return Promise.resolve();
  };

  /** Users (straight into Better Auth's table) watching AAPL with alerts on. */
  async function subscribers(emails: string[]): Promise<void> {
    const at = new Date(clock).toISOString();
    for (const email of emails) {
      const id = `user-${email}`;
      await accounts.database.db.insertInto('user').values({ id, name: '', email, emailVerified: 1, image: null, createdAt: at, updatedAt: at }).execute();
      await accounts.database.db.insertInto('watchlist').values({ user_id: id, ticker: 'AAPL', added_at: at }).execute();
      await store.saveSettings(id, { enabled: true });
    }
  }

  /** The events of a report on which AAPL qualifies, queued. */
  async function queueReport(reportDate: string, paywall = false): Promise<void> {
    const history = { dates: ['2026-11-01', reportDate], latest: [signalRecord('AAPL', { cScore: 70, reportDate })], scores: { AAPL: [60, 70] } };
    await store.saveEvents(signalEvents(history));
    await store.enqueueDigests({ reportDate, siteUrl: 'https://signals.example', siteName: 'C-Score Signals', paywall });
  }

  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await database.url() });
    store = new AlertStore(accounts.database.db, () => clock);
  });
  afterAll(async () => accounts?.dispose());

  it('an SMTP server that fails twice, then accepts, delivers exactly once, after waiting longer each time', async () => {
    await subscribers(['retry@example.com']);
    await queueReport('2026-11-19');
    const smtp = await startSmtp({ failFirst: 2 });
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'alerts@signals.example', siteUrl: 'https://signals.example' });
    const waits: number[] = [];
    const run = await sendDigests({ store, send: sender.send, siteUrl: 'https://signals.example', retry: { firstDelayMs: 1000 }, sleep: (ms) => (waits.push(ms), sleep(ms)) });
    sender.close();
    await smtp.close();
    expect(run).toEqual({ sent: 1, retried: 2, failed: [], unconfirmed: [] });
    expect(waits).toEqual([1000, 2000]);
    expect(smtp.messages.filter((m) => m.to === 'retry@example.com')).toHaveLength(1);
    expect(await store.counts()).toEqual({ sent: 1 });
  });

  it('gives up after the limit of tries and says so', async () => {
    clock = Date.parse('2026-11-20T13:00:00Z');
    await queueReport('2026-11-20');
    const smtp = await startSmtp({ failFirst: 100 });
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'alerts@signals.example', siteUrl: 'https://signals.example' });
    const run = await sendDigests({ store, send: sender.send, siteUrl: 'https://signals.example', retry: { attempts: 3, firstDelayMs: 1000 }, sleep });
    sender.close();
    await smtp.close();
    expect(run.sent).toBe(0);
    expect(run.failed).toEqual([expect.stringMatching(/^retry@example\.com: gave up after 3 tries: .*451/)]);
    expect(smtp.messages).toEqual([]);
    expect(await store.counts()).toEqual({ sent: 1, failed: 1 });
  });

  it('a crash after sending some mails resumes without sending any twice', async () => {
    clock = Date.parse('2026-11-21T13:00:00Z');
    const emails = ['c1@example.com', 'c2@example.com', 'c3@example.com', 'c4@example.com'];
    await subscribers(emails);
    await accounts.database.db.deleteFrom('alert_settings').where('user_id', '=', 'user-retry@example.com').execute();
    await queueReport('2026-11-21');
    const smtp = await startSmtp();
    const sender = createDigestSender({ smtpUrl: smtp.url, from: 'alerts@signals.example', siteUrl: 'https://signals.example' });
    // The first sender hands the second mail to SMTP and then stops for good, as a killed process would.
    let handed = 0;
    const dying: AlertsStep = {
      store,
      siteUrl: 'https://signals.example',
      retry: { concurrency: 1 },
      send: async (mail, id) => {
        await sender.send(mail, id);
        handed += 1;
        if (handed === 2) await new Promise(() => undefined);
      },
    };
    void sendDigests(dying);
    for (let i = 0; i < 200 && handed < 2; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(handed).toBe(2);
    expect(smtp.messages).toHaveLength(2);

    // The next run, after the dead sender's claim has lapsed.
    clock += 11 * 60 * 1000;
    const run = await sendDigests({ store, send: sender.send, siteUrl: 'https://signals.example', sleep });
    sender.close();
    await smtp.close();
    expect(run.sent).toBe(2);
    expect(run.unconfirmed).toHaveLength(1);
    expect(smtp.messages.map((m) => m.to).sort()).toEqual(emails);
    expect(await store.counts()).toEqual({ sent: 4, failed: 1, unconfirmed: 1 });
  });

  it('with PAYWALL=on only Pro users get a digest', async () => {
    clock = Date.parse('2026-11-22T13:00:00Z');
    await grantPro(accounts.database.db, 'c1@example.com');
    await queueReport('2026-11-22', true);
    const queued = await accounts.database.db.selectFrom('digest_queue').select('address').where('report_date', '=', '2026-11-22').execute();
    expect(queued.map((row) => row.address)).toEqual(['c1@example.com']);
  });
});
