/**
 * Own alert rules over the plan's limit, and saved screens in the push, on SQLite and PostgreSQL. With PAYWALL=on a
 * Pro account that keeps more rules than Free allows and is downgraded fires only its oldest 5 (the firing SQL
 * decides), the API lists the rest as paused, and deleting an old rule lets the next one fire. A stock newly in an
 * alerting saved screen reaches the user's one push of the report, decrypted by the fake push service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { queueAlerts } from '../../src/ingest/alerts';
import { type PushStep, sendPushes } from '../../src/ingest/push';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { createPushSender } from '../../src/server/push';
import { RuleStore } from '../../src/storage/alert-rules';
import { AlertStore } from '../../src/storage/alerts';
import { grantPro, revokePro } from '../../src/storage/plan-grants';
import { PushStore } from '../../src/storage/push';
import { SavedScreenStore } from '../../src/storage/saved-screens';
import { type AccountServer, DATABASES, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';
import { type FakePush, startFakePush } from '../fixtures/fake-push';
import { signalRecord } from '../fixtures/records';

const KEYS = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@signals.example' };
const SETTINGS = { siteName: 'C-Score Signals', siteUrl: SITE };

/** A report and the one before: AAPL 40 -> 60, MSFT 10 -> 20, XOM 60 -> 70. */
function report(dates: [string, string], scores: Record<string, [number, number]>): SignalHistory {
  return { dates, latest: Object.entries(scores).map(([ticker, [, after]]) => signalRecord(ticker, { cScore: after })), scores: Object.fromEntries(Object.entries(scores).map(([t, s]) => [t, [...s]])) };
}
const FIRST = report(['2026-11-19', '2026-11-20'], { AAPL: [40, 60], MSFT: [10, 20], XOM: [60, 70] });
const SECOND = report(['2026-11-20', '2026-11-21'], { AAPL: [60, 80], MSFT: [20, 20], XOM: [70, 70] });

describe.each(DATABASES)('rules over the plan limit and saved screens in the push on $name', { timeout: 120_000 }, (database) => {
  let paywalled: AccountServer;
  let open: AccountServer;
  let fake: FakePush;
  const sender = createPushSender({ keys: KEYS, production: false });

  beforeAll(async () => {
    const push = { publicKey: KEYS.publicKey, production: false };
    paywalled = await startAccountServer(await database.url(), { paywall: true }, { published: true, push });
    open = await startAccountServer(await database.url(), {}, { published: true, push });
    fake = await startFakePush();
  }, 120_000);

  afterAll(async () => {
    sender.close();
    await fake?.close();
    await paywalled?.close();
    await open?.close();
  });

  const stepOf = (server: AccountServer): PushStep => {
    const db = server.accounts.database.db;
    // One user a page, so the step's paging through the subscribed users is crossed.
    return { rules: new RuleStore(db), push: new PushStore(db), send: (subscription, message) => sender.send(subscription, message), retry: { firstDelayMs: 5 }, pageSize: 1 };
  };
  const idOf = async (server: AccountServer, email: string) => (await server.accounts.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  it('with PAYWALL=on a downgraded Pro account fires only its 5 oldest rules, lists the rest as paused, and a deleted old rule lets the next fire', async () => {
    const db = paywalled.accounts.database.db;
    const pia = await signUp(paywalled, 'pia@example.com');
    await signUp(paywalled, 'pro@example.com');
    for (const email of ['pia@example.com', 'pro@example.com']) expect(await grantPro(db, email)).toBe('granted');
    // Eight rules each, a second apart, their values not in the order they were made: "oldest" is by creation.
    let clock = Date.parse('2026-11-01T10:00:00Z');
    const store = new RuleStore(db, () => (clock += 1000));
    const order = [7, 3, 8, 1, 5, 2, 6, 4];
    const made: Record<string, string[]> = { pia: [], pro: [] };
    for (const value of order) {
      for (const who of ['pia', 'pro'] as const) made[who]!.push((await store.add(await idOf(paywalled, `${who}@example.com`), { ticker: 'AAPL', kind: 'move', value }))!.id);
    }
    expect((await postJson(paywalled, '/api/push/subscriptions', fake.subscribe('pia'), pia)).status).toBe(201);
    expect(await revokePro(db, 'pia@example.com')).toBe('revoked');

    const step = stepOf(paywalled);
    const alerts = new AlertStore(db);
    const lines = await queueAlerts(FIRST, { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: SETTINGS.siteName, paywall: true });
    // pia's 5 oldest and all 8 of the Pro account's.
    expect(lines).toContain('13 of 16 alert rules fired on 2026-11-20 (13 new)');
    const fired = async (reportDate: string, who: string) => (await step.rules.events(reportDate, [await idOf(paywalled, `${who}@example.com`)])).map((event) => event.ruleId).sort();
    expect(await fired('2026-11-20', 'pia')).toEqual(made.pia!.slice(0, 5).sort());
    expect(await fired('2026-11-20', 'pro')).toEqual([...made.pro!].sort());
    // The API lists the same 5 as firing and the 3 newest as paused.
    const listed = (await (await paywalled.request('/api/alert-rules', { headers: { cookie: pia } })).json()) as { limit: number; rules: { value: number; paused: boolean }[] };
    expect(listed.limit).toBe(5);
    expect(listed.rules.map((rule) => [rule.value, rule.paused])).toEqual([[7, false], [3, false], [8, false], [1, false], [5, false], [2, true], [6, true], [4, true]]);

    // Her one push sums the 5 that fired, without scores (Free).
    await sendPushes(step, alerts, { ...SETTINGS, paywall: true });
    expect(fake.delivered('pia').map((r) => r.payload?.title)).toEqual(['C-Score Signals: 5 alerts on the report of Nov 20, 2026']);
    expect(fake.delivered('pia')[0]!.payload!.body.split('\n')).toEqual(['AAPL moved 1 points or more', 'AAPL moved 3 points or more', 'AAPL moved 5 points or more', 'AAPL moved 7 points or more', 'and 1 more']);

    // Deleting her oldest rule makes room: the sixth oldest (value 2) fires on the next report.
    const deleted = await paywalled.request(`/api/alert-rules/${made.pia![0]}`, { method: 'DELETE', headers: { origin: SITE, cookie: pia } });
    expect(deleted.status).toBe(204);
    await queueAlerts(SECOND, { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: SETTINGS.siteName, paywall: true });
    expect(await fired('2026-11-21', 'pia')).toEqual(made.pia!.slice(1, 6).sort());
    // Pro again: all seven fire.
    expect(await grantPro(db, 'pia@example.com')).toBe('granted');
    await db.deleteFrom('rule_event').where('report_date', '=', '2026-11-21').execute();
    await queueAlerts(SECOND, { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: SETTINGS.siteName, paywall: true });
    expect(await fired('2026-11-21', 'pia')).toEqual(made.pia!.slice(1).sort());
  });

  it('a stock newly in an alerting saved screen is in the user\'s one push of the report', async () => {
    const db = open.accounts.database.db;
    const sam = await signUp(open, 'sam@example.com');
    const tom = await signUp(open, 'tom@example.com');
    const screens = new SavedScreenStore(db);
    // Saved on the report before: nothing was in them then, so what is in them now is new.
    const before = { tickers: [], reportDate: '2026-11-19' };
    await screens.create(await idOf(open, 'sam@example.com'), { name: 'Fifty-five up', query: 'cscore=55..', alert: true }, before);
    await screens.create(await idOf(open, 'sam@example.com'), { name: 'Quiet one', query: 'cscore=65..', alert: false }, before);
    await screens.create(await idOf(open, 'tom@example.com'), { name: 'High', query: 'cscore=65..', alert: true }, before);
    expect((await postJson(open, '/api/push/subscriptions', fake.subscribe('sam'), sam)).status).toBe(201);
    expect((await postJson(open, '/api/push/subscriptions', fake.subscribe('tom'), tom)).status).toBe(201);

    const step = stepOf(open);
    const alerts = new AlertStore(db);
    await queueAlerts(FIRST, { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: SETTINGS.siteName, paywall: false });
    const run = await sendPushes(step, alerts, { ...SETTINGS, paywall: false });
    expect(run).toMatchObject({ users: 2, sent: 2, failed: [] });
    expect(fake.delivered('sam').map((r) => r.payload)).toEqual([
      {
        title: 'C-Score Signals: 2 alerts on the report of Nov 20, 2026',
        body: 'New in your screen "Fifty-five up": XOM, AAPL',
        url: `${SITE}/screener?cscore=55..`,
        tag: 'report-2026-11-20',
      },
    ]);
    expect(fake.delivered('tom').map((r) => r.payload)).toEqual([
      { title: 'C-Score Signals: 1 alert on the report of Nov 20, 2026', body: 'New in your screen "High": XOM', url: `${SITE}/signal/XOM`, tag: 'report-2026-11-20' },
    ]);
    // Published again: the screens tell nothing twice, and nobody gets a second push.
    await queueAlerts(FIRST, { store: alerts, send: async () => undefined, siteUrl: SITE, push: step }, { siteName: SETTINGS.siteName, paywall: false });
    expect(await sendPushes(step, alerts, { ...SETTINGS, paywall: false })).toMatchObject({ sent: 0 });
    expect(fake.delivered('sam')).toHaveLength(1);
  });
});
