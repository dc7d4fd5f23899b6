/**
 * The alerts section's own-rules and push child process: an accounts database with USERS users of RULES_EACH rules
 * each (crossings and moves over 500 tickers), a report in which every ticker moves; timed, every rule fired against
 * the report and what fired stored; then, timed apart, one notification to each of PUSHES subscribed users, posted
 * with web-push (aes128gcm, VAPID) to the fake push service whose subscriptions the parent wrote to SUBSCRIPTIONS.
 * Prints one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import webpush from 'web-push';
import { fireRules, sendPushes } from '../../src/ingest/push';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { openAccounts } from '../../src/server/accounts';
import { createPushSender } from '../../src/server/push';
import { RuleStore } from '../../src/storage/alert-rules';
import { AlertStore } from '../../src/storage/alerts';
import { PushStore } from '../../src/storage/push';

const [dir, subscriptionsFile, usersArg, eachArg] = process.argv.slice(2);
const USERS = Number(usersArg);
const RULES_EACH = Number(eachArg);
const TICKERS = 500;
const SITE = 'https://signals.example';
const REPORT = '2026-11-20';
/** Users a setup statement makes. */
const SETUP_USERS = 10_000;

const accounts = await openAccounts({
  database: { url: null, file: join(dir!, 'app.db') },
  siteUrl: SITE,
  siteName: 'C-Score Signals',
  secret: 'bench-secret-of-at-least-thirty-two-characters',
  mail: { smtpUrl: null, from: 'alerts@signals.example' },
  adminEmails: [],
  paywall: false,
  rateLimit: false,
  stripe: null,
  log: () => undefined,
});
const db = accounts.database.db;
const at = new Date().toISOString();
const ticker = (i: number) => `T${String(i).padStart(3, '0')}`;

// Setup, not timed: the users and their rules, made by the database itself (a counting CTE), so the setup leaves no
// heap of row objects behind to be counted in the step's peak. The first rule of each is "moves by 1", which every
// ticker does; the others are crossings and moves spread over the tickers and levels.
for (let start = 0; start < USERS; start += SETUP_USERS) {
  const end = Math.min(USERS, start + SETUP_USERS);
  await sql`
    with recursive n(i) as (select cast(${start} as integer) union all select i + 1 from n where i + 1 < ${end})
    insert into "user" (id, name, email, "emailVerified", image, "createdAt", "updatedAt")
    select printf('u%06d', i), '', 'reader' || i || '@example.com', 1, null, ${at}, ${at} from n`.execute(db);
  await sql`
    with recursive n(i) as (select cast(${start} as integer) union all select i + 1 from n where i + 1 < ${end}),
    k(k) as (select 0 union all select k + 1 from k where k + 1 < ${RULES_EACH}),
    r(i, k, kind) as (select i, k, case when k = 0 then 'move' when (i + k) % 3 = 0 then 'above' when (i + k) % 3 = 1 then 'below' else 'move' end from n cross join k)
    insert into alert_rule (id, user_id, ticker, kind, value, created_at)
    select printf('r%06d-%02d', i, k), printf('u%06d', i), printf('T%03d', (i * 7 + k * 23) % ${TICKERS}), kind,
      case when k = 0 then 1 when kind = 'move' then 1 + (i * 13 + k * 7) % 200 else -100 + (i * 31 + k * 17) % 201 end, ${at}
    from r`.execute(db);
}
// Every ticker moves between 1 and 40 points, up or down.
const scores: SignalHistory['scores'] = {};
const latest = Array.from({ length: TICKERS }, (_, i) => {
  const before = -90 + ((i * 37) % 180);
  const after = Math.max(-100, Math.min(100, before + (i % 2 === 0 ? 1 : -1) * (1 + (i % 40))));
  scores[ticker(i)] = [before, after];
  return { ticker: ticker(i), companyName: `Company ${i}`, cScore: after, yesterdayCScore: before, reportDate: REPORT, isTopTicker: false, deltaScore: 0, accuracyScore: 0, marketScore: 0, relevanceScore: 0, avgCScoreL7D: 0, avgCScoreL14D: 0, countL7DWithSignal: 0, countL14DWithSignal: 0 };
});
const history: SignalHistory = { dates: ['2026-11-19', REPORT], latest, scores };

const subscriptions = JSON.parse(await readFile(subscriptionsFile!, 'utf8')) as { endpoint: string; keys: { p256dh: string; auth: string } }[];
for (let s = 0; s < subscriptions.length; s += 1000) {
  await db
    .insertInto('push_subscription')
    .values(subscriptions.slice(s, s + 1000).map((sub, k) => ({ endpoint: sub.endpoint, user_id: `u${String(s + k).padStart(6, '0')}`, p256dh: sub.keys.p256dh, auth: sub.keys.auth, created_at: at })))
    .execute();
}

const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:bench@signals.example' };
const sender = createPushSender({ keys, production: false });
const step = { rules: new RuleStore(db), push: new PushStore(db), send: sender.send, concurrency: 64 };

const setupRss = process.memoryUsage().rss;
const rulesStart = performance.now();
const lines = await fireRules(history, step, false);
const rulesSeconds = (performance.now() - rulesStart) / 1000;
const rulesRss = process.memoryUsage().rss;

const pushStart = performance.now();
const run = await sendPushes(step, new AlertStore(db), { siteName: 'C-Score Signals', siteUrl: SITE, paywall: false });
const pushSeconds = (performance.now() - pushStart) / 1000;
const pushRss = process.memoryUsage().rss;
sender.close();
await accounts.close();
console.log(JSON.stringify({ rules: USERS * RULES_EACH, rulesNote: lines[0], rulesSeconds, setupRss, rulesRss, pushRss, pushed: run.sent, pushFailed: run.failed.length, pushSeconds }));
