/**
 * Own alert rules and Web Push, end to end on SQLite and PostgreSQL: the real API stores rules (a bad one is a 400
 * naming its field; the plan's limit is the server's) and subscriptions; the daily job's alerts step fires the rules
 * of a report and, after the digests, posts one notification per user to a fake push service on loopback, which
 * checks the VAPID signature and decrypts the aes128gcm body with the subscription's own keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { queueAlerts } from '../../src/ingest/alerts';
import { type PushStep, sendPushes } from '../../src/ingest/push';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { type AlertRule, ruleFires, type RuleInput } from '../../src/lib/domain/alerts/rules';
import { createPushSender } from '../../src/server/push';
import { RuleStore } from '../../src/storage/alert-rules';
import { AlertStore } from '../../src/storage/alerts';
import { grantPro } from '../../src/storage/plan-grants';
import { PushStore } from '../../src/storage/push';
import { type AccountServer, DATABASES, postJson, signUp, startAccountServer } from '../fixtures/account-server';
import { confirmEmail } from '../fixtures/accounts';
import { type FakePush, startFakePush } from '../fixtures/fake-push';
import { signalRecord } from '../fixtures/records';

const KEYS = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@signals.example' };
const SITE = 'https://signals.example';

/** Two reports: AAPL 40 -> 60, MSFT 10 -> 20, XOM 60 -> 70 (XOM enters bullish). */
function history(): SignalHistory {
  const latest = [signalRecord('AAPL', { cScore: 60 }), signalRecord('MSFT', { cScore: 20 }), signalRecord('XOM', { cScore: 70 })];
  return { dates: ['2026-11-19', '2026-11-20'], latest, scores: { AAPL: [40, 60], MSFT: [10, 20], XOM: [60, 70] } };
}

describe.each(DATABASES)('own alert rules and Web Push on $name', (database) => {
  let server: AccountServer;
  let paywalled: AccountServer;
  let fake: FakePush;
  let step: PushStep;
  let alerts: AlertStore;
  const cookies: Record<string, string> = {};
  const sender = createPushSender({ keys: KEYS, production: false });

  beforeAll(async () => {
    const url = await database.url();
    server = await startAccountServer(url, {}, { published: true, push: { publicKey: KEYS.publicKey, production: false } });
    fake = await startFakePush();
    const db = server.accounts.database.db;
    alerts = new AlertStore(db);
    step = { rules: new RuleStore(db), push: new PushStore(db), send: (subscription, message) => sender.send(subscription, message), retry: { firstDelayMs: 5 } };
    for (const name of ['ann', 'bob', 'cat', 'dan']) cookies[name] = await signUp(server, `${name}@example.com`);
  }, 120_000);

  afterAll(async () => {
    sender.close();
    await fake?.close();
    await server?.close();
    await paywalled?.close();
  });

  const rule = (who: string, body: unknown) => postJson(server, '/api/alert-rules', body, cookies[who]);

  it('creates a threshold rule and refuses a bad one with a 400 naming the field', async () => {
    const created = await rule('ann', { ticker: 'aapl', kind: 'above', value: 50 });
    expect(created.status).toBe(201);
    expect((await created.json()).rule).toMatchObject({ ticker: 'AAPL', kind: 'above', value: 50, text: 'AAPL: C-Score crosses above 50' });
    const bad = async (body: unknown) => {
      const response = await rule('ann', body);
      expect(response.status).toBe(400);
      return (await response.json()) as { error: string; field: string };
    };
    expect(await bad({ ticker: 'AAPL', kind: 'above', value: 101 })).toEqual({ field: 'value', error: 'value must be a number from -100 to 100 for a "above" rule.' });
    expect(await bad({ ticker: 'AAPL', kind: 'below', value: -100.5 })).toMatchObject({ field: 'value' });
    expect(await bad({ ticker: 'AAPL', kind: 'move', value: 0 })).toEqual({ field: 'value', error: 'value must be a number from 1 to 200 for a "move" rule.' });
    expect(await bad({ ticker: 'AAPL', kind: 'move', value: 201 })).toMatchObject({ field: 'value' });
    expect(await bad({ ticker: 'AAPL', kind: 'near', value: 5 })).toMatchObject({ field: 'kind' });
    expect(await bad({ ticker: 'ZZZZZ', kind: 'above', value: 5 })).toEqual({ field: 'ticker', error: 'ticker ZZZZZ is not in the latest report: pick a stock the site lists.' });
    expect(await bad({ ticker: 'A B', kind: 'above', value: 5 })).toMatchObject({ field: 'ticker' });
    expect((await rule('ann', { ticker: 'AAPL', kind: 'above', value: 50 })).status).toBe(409);
    expect((await rule('ann', { ticker: 'MSFT', kind: 'move', value: 5 })).status).toBe(201);
    const listed = await (await server.request('/api/alert-rules', { headers: { cookie: cookies.ann! } })).json();
    expect(listed).toMatchObject({ limit: 50, rules: [{ ticker: 'AAPL' }, { ticker: 'MSFT', kind: 'move', value: 5 }] });
    // Signed out, and from another site: refused before anything is stored.
    expect((await postJson(server, '/api/alert-rules', { ticker: 'AAPL', kind: 'above', value: 10 })).status).toBe(401);
    const crossSite = await server.request('/api/alert-rules', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: cookies.ann! }, body: '{"ticker":"AAPL","kind":"above","value":10}' });
    expect(crossSite.status).toBe(403);
  });

  it('holds an account to 50 rules, and with PAYWALL=on to 5 on Free and 200 on Pro', async () => {
    for (let value = 1; value <= 50; value += 1) expect((await rule('bob', { ticker: 'MSFT', kind: 'move', value })).status).toBe(201);
    expect(await (await rule('bob', { ticker: 'MSFT', kind: 'move', value: 51 })).json()).toEqual({ field: 'rules', error: 'Your plan allows 50 alert rules and you have 50: delete one first.' });
    const rules = (await (await server.request('/api/alert-rules', { headers: { cookie: cookies.bob! } })).json()).rules as { id: string }[];
    const deleted = await server.request(`/api/alert-rules/${rules[0]!.id}`, { method: 'DELETE', headers: { origin: SITE, cookie: cookies.bob! } });
    expect(deleted.status).toBe(204);
    expect((await rule('bob', { ticker: 'MSFT', kind: 'move', value: 51 })).status).toBe(201);

    paywalled = await startAccountServer(await database.url(), { paywall: true }, { published: true });
    const free = await signUp(paywalled, 'free@example.com');
    for (let value = 1; value <= 5; value += 1) expect((await postJson(paywalled, '/api/alert-rules', { ticker: 'AAPL', kind: 'move', value }, free)).status).toBe(201);
    const sixth = await postJson(paywalled, '/api/alert-rules', { ticker: 'AAPL', kind: 'move', value: 6 }, free);
    expect(sixth.status).toBe(400);
    expect(await sixth.json()).toEqual({ field: 'rules', error: 'Your plan allows 5 alert rules and you have 5: delete one first.' });
    expect(await grantPro(paywalled.accounts.database.db, 'free@example.com')).toBe('granted');
    expect((await postJson(paywalled, '/api/alert-rules', { ticker: 'AAPL', kind: 'move', value: 6 }, free)).status).toBe(201);
    expect((await (await paywalled.request('/api/alert-rules', { headers: { cookie: free } })).json()).limit).toBe(200);
  });

  it('answers the public key and stores, then removes, a browser subscription', async () => {
    expect(await (await server.request('/api/push/public-key')).json()).toEqual({ publicKey: KEYS.publicKey });
    const subscribe = (who: string, id: string) => postJson(server, '/api/push/subscriptions', fake.subscribe(id), cookies[who]);
    expect((await subscribe('ann', 'ann')).status).toBe(201);
    expect((await subscribe('bob', 'bob')).status).toBe(201);
    expect((await subscribe('cat', 'cat')).status).toBe(201);
    expect((await subscribe('dan', 'dan')).status).toBe(201);
    const gone = fake.subscribe('gone');
    expect((await postJson(server, '/api/push/subscriptions', gone, cookies.dan)).status).toBe(201);
    expect((await postJson(server, '/api/push/subscriptions', { endpoint: gone.endpoint }, cookies.dan, 'DELETE')).status).toBe(200);
    expect((await postJson(server, '/api/push/subscriptions', { endpoint: gone.endpoint }, cookies.dan, 'DELETE')).status).toBe(404);
    expect((await postJson(server, '/api/push/subscriptions', { endpoint: fake.subscribe('x').endpoint, keys: { p256dh: 'short', auth: 'short' } }, cookies.dan)).status).toBe(400);
    const crossSite = await server.request('/api/push/subscriptions', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: cookies.dan! }, body: JSON.stringify(fake.subscribe('y')) });
    expect(crossSite.status).toBe(403);
    // Rules for the publish below: cat's and dan's fire too; ann watches XOM.
    expect((await rule('cat', { ticker: 'AAPL', kind: 'above', value: 50 })).status).toBe(201);
    expect((await rule('dan', { ticker: 'AAPL', kind: 'above', value: 55 })).status).toBe(201);
    expect((await postJson(server, '/api/watchlist', { tickers: ['XOM'] }, cookies.ann, 'PUT')).status).toBe(200);
    // ann has the email digest on too: her rules join it.
    await confirmEmail(server.accounts, 'ann@example.com');
    expect((await postJson(server, '/api/alerts/settings', { enabled: true }, cookies.ann, 'PUT')).status).toBe(200);
  });

  it('a published report fires the rules once and sends one decryptable, signed notification per user; 410 drops the subscription; 429 and 5xx are retried', async () => {
    fake.answer('cat', 410);
    fake.answer('dan', 429, 503);
    const lines = await queueAlerts(history(), { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: 'C-Score Signals', paywall: false });
    expect(lines).toContain('13 of 54 alert rules fired on 2026-11-20 (13 new)');
    expect(lines).toContain('1 digests queued');
    const digest = await server.accounts.database.db.selectFrom('digest_queue').selectAll().where('address', '=', 'ann@example.com').executeTakeFirstOrThrow();
    expect(digest.subject).toBe('C-Score Signals: 3 signal alerts for Nov 20, 2026');
    // A new signal links its permalink.
    expect(digest.body_text).toContain(`- XOM is a new bullish signal: C-Score 60.00 to 70.00\n  ${SITE}/signal/XOM/2026-11-20\n- AAPL crossed above 50: C-Score 40.00 to 60.00\n- MSFT moved 5 points or more: C-Score 10.00 to 20.00\n`);
    expect(digest.body_html).toContain('<li>AAPL crossed above 50: C-Score 40.00 to 60.00</li>');
    const run = await sendPushes(step, alerts, { siteName: 'C-Score Signals', siteUrl: SITE, paywall: false });
    expect(run).toMatchObject({ users: 4, sent: 3, dropped: 1, retried: 2, failed: [] });

    expect(fake.received.every((r) => r.problem === null && r.vapidKey === KEYS.publicKey)).toBe(true);
    const [ann, ...more] = fake.delivered('ann');
    expect(more).toEqual([]);
    expect(ann!.payload).toEqual({
      title: 'C-Score Signals: 3 alerts on the report of Nov 20, 2026',
      body: 'XOM is a new bullish signal: C-Score 60.00 to 70.00\nAAPL crossed above 50: C-Score 40.00 to 60.00\nMSFT moved 5 points or more: C-Score 10.00 to 20.00',
      url: `${SITE}/account#alerts`,
      tag: 'report-2026-11-20',
    });
    expect(ann!.claims).toMatchObject({ aud: fake.origin, sub: KEYS.subject });
    // bob's rules "MSFT moves by 2 ... 10 points" all fire on its move of 10: one notification sums them.
    expect(fake.delivered('bob').map((r) => r.payload?.title)).toEqual(['C-Score Signals: 9 alerts on the report of Nov 20, 2026']);
    expect(fake.delivered('bob')[0]!.payload!.body.split('\n')).toEqual([
      'MSFT moved 2 points or more: C-Score 10.00 to 20.00',
      'MSFT moved 3 points or more: C-Score 10.00 to 20.00',
      'MSFT moved 4 points or more: C-Score 10.00 to 20.00',
      'MSFT moved 5 points or more: C-Score 10.00 to 20.00',
      'and 5 more',
    ]);
    expect(fake.delivered('dan').map((r) => r.payload)).toEqual([{ title: 'C-Score Signals: 1 alert on the report of Nov 20, 2026', body: 'AAPL crossed above 55: C-Score 40.00 to 60.00', url: `${SITE}/signal/AAPL`, tag: 'report-2026-11-20' }]);
    expect(fake.received.filter((r) => r.id === 'dan').map((r) => r.status)).toEqual([429, 503, 201]);
    expect(fake.received.filter((r) => r.id === 'cat').map((r) => r.status)).toEqual([410]);
    expect(await step.push.countOf((await server.accounts.database.db.selectFrom('user').select('id').where('email', '=', 'cat@example.com').executeTakeFirstOrThrow()).id)).toBe(0);

    // The same report published again: nothing new fires, nothing is sent twice.
    const before = fake.received.length;
    const again = await queueAlerts(history(), { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: 'C-Score Signals', paywall: false });
    expect(again).toContain('13 of 54 alert rules fired on 2026-11-20 (0 new)');
    const second = await sendPushes(step, alerts, { siteName: 'C-Score Signals', siteUrl: SITE, paywall: false });
    expect(second).toMatchObject({ sent: 0, already: 3 });
    expect(fake.received.length).toBe(before);
  });

  it('the database fires exactly the rules the domain rule (ruleFires) fires, boundaries included', async () => {
    const store = new RuleStore(server.accounts.database.db);
    const owner = (await server.accounts.database.db.selectFrom('user').select('id').where('email', '=', 'ann@example.com').executeTakeFirstOrThrow()).id;
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const tickers = Array.from({ length: 30 }, (_, i) => `P${i}`);
    const changes = new Map(tickers.map((ticker, i) => [ticker, i % 5 === 0 ? { before: 40, after: 50 } : { before: Math.round((next() * 200 - 100) * 100) / 100, after: Math.round((next() * 200 - 100) * 100) / 100 }]));
    const added: AlertRule[] = [];
    for (const ticker of tickers) {
      const change = changes.get(ticker)!;
      // Levels on the scores themselves and a move equal to the change, so "crosses" and "by N or more" meet their edges.
      const candidates: RuleInput[] = [
        { ticker, kind: 'above', value: change.after },
        { ticker, kind: 'above', value: change.before },
        { ticker, kind: 'below', value: change.after },
        { ticker, kind: 'below', value: change.before },
        { ticker, kind: 'move', value: Math.max(1, Math.round(Math.abs(change.after - change.before) * 100) / 100) },
        { ticker, kind: next() < 0.5 ? 'above' : 'below', value: Math.round((next() * 200 - 100) * 100) / 100 },
        { ticker, kind: 'move', value: 1 + Math.round(next() * 50) },
      ];
      for (const candidate of candidates) {
        const rule = await store.add(owner, candidate);
        if (rule !== null) added.push(rule);
      }
    }
    // Limits far above the ~200 rules: this compares the firing conditions only (push-plan-screens.test.ts has the limits).
    await store.evaluate('2030-01-02', changes, { free: 1000, pro: 1000 });
    const fired = new Set((await store.events('2030-01-02')).map((event) => event.ruleId));
    const expected = new Set(added.filter((rule) => ruleFires(rule, changes.get(rule.ticker)!)).map((rule) => rule.id));
    expect(expected.size).toBeGreaterThan(20);
    expect([...fired].sort()).toEqual([...expected].sort());
    for (const rule of added) await store.remove(owner, rule.id);
  });

  it('a push service that fails every way never throws out of the run', async () => {
    const broken: PushStep = { ...step, send: () => Promise.reject(new Error('connect ECONNREFUSED')), retry: { attempts: 2, firstDelayMs: 1 } };
    await queueAlerts({ ...history(), dates: ['2026-11-19', '2026-11-21'] }, { store: alerts, send: async () => undefined, siteUrl: SITE, push: broken }, { siteName: 'C-Score Signals', paywall: false });
    const run = await sendPushes(broken, alerts, { siteName: 'C-Score Signals', siteUrl: SITE, paywall: false });
    expect(run.sent).toBe(0);
    expect(run.failed.length).toBeGreaterThan(0);
    expect(run.failed[0]).toContain('connect ECONNREFUSED (2 tries)');
  });
});

describe('a production configuration refuses push endpoints inside the network', () => {
  let server: AccountServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startAccountServer(null, {}, { push: { publicKey: KEYS.publicKey, production: true } });
    cookie = await signUp(server, 'pat@example.com');
  }, 60_000);
  afterAll(() => server?.close());

  it.each([
    ['http://push.example.com/x', 'endpoint must be an https URL.'],
    ['https://127.0.0.1/x', 'loopback, private or link-local'],
    ['https://localhost:8443/x', 'loopback, private or link-local'],
    ['https://[::1]/x', 'loopback, private or link-local'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback, private or link-local'],
    ['https://[::ffff:a00:1]/x', 'loopback, private or link-local'],
    ['https://10.0.0.7/x', 'loopback, private or link-local'],
    ['https://192.168.1.1/x', 'loopback, private or link-local'],
    ['https://172.16.0.1/x', 'loopback, private or link-local'],
    ['https://169.254.169.254/latest', 'loopback, private or link-local'],
    ['https://[fe80::1]/x', 'loopback, private or link-local'],
    ['https://[fd00::1]/x', 'loopback, private or link-local'],
    ['https://2130706433/x', 'loopback, private or link-local'],
  ])('POST %s is a 400 naming the endpoint', async (endpoint, message) => {
    const keys = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };
    const response = await postJson(server, '/api/push/subscriptions', { endpoint, keys }, cookie);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; field: string };
    expect(body.field).toBe('endpoint');
    expect(body.error).toContain(message);
  });

  it('the production sender never connects to a loopback address, whatever the name resolves to', async () => {
    const fake = await startFakePush();
    const sender = createPushSender({ keys: KEYS, production: true });
    const target = fake.subscribe('inside');
    const port = new URL(target.endpoint).port;
    const message = { title: 't', body: 'b', url: `${SITE}/`, tag: 'x' };
    await expect(sender.send(target, message)).rejects.toThrow('endpoint must be an https URL.');
    await expect(sender.send({ ...target, endpoint: `https://127.0.0.1:${port}/push/inside` }, message)).rejects.toThrow('is not a public address');
    await expect(sender.send({ ...target, endpoint: `https://localhost:${port}/push/inside` }, message)).rejects.toThrow('which is not a public address');
    expect(fake.received).toEqual([]);
    sender.close();
    await fake.close();
  });
});
