/**
 * The alerts section's child process: an accounts database with USERS users watching TICKERS_EACH tickers each (alerts
 * on), a report in which a fifth of the tickers qualify; then, timed, the events stored and every digest composed and
 * queued, and, timed apart, the queue sent to the fake SMTP server at SMTP_URL. Prints one JSON line.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { digestNotes, sendDigests } from '../../src/ingest/alerts';
import { signalEvents } from '../../src/lib/domain/alerts/alerts';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { openAccounts } from '../../src/server/accounts';
import { createDigestSender } from '../../src/server/mail';
import { AlertStore } from '../../src/storage/alerts';

const [dir, smtpUrl, usersArg, eachArg] = process.argv.slice(2);
const USERS = Number(usersArg);
const TICKERS_EACH = Number(eachArg);
const TICKERS = 500;
const SITE = 'https://signals.example';
const REPORT = '2026-11-20';

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

// Setup, not timed: the users, their watchlists (a spread of the 500 tickers) and their alert settings.
for (let start = 0; start < USERS; start += 500) {
  const ids = Array.from({ length: Math.min(500, USERS - start) }, (_, k) => start + k);
  await db.insertInto('user').values(ids.map((i) => ({ id: `u${i}`, name: '', email: `reader${i}@example.com`, emailVerified: 1, image: null, createdAt: at, updatedAt: at }))).execute();
  await db
    .insertInto('alert_settings')
    .values(ids.map((i) => ({ user_id: `u${i}`, enabled: 1, kinds: 'entered,exited,reversed', address: null, unsubscribe_token: randomBytes(32).toString('base64url'), feed_token_hash: null, updated_at: at })))
    .execute();
  const watches = ids.flatMap((i) => Array.from({ length: TICKERS_EACH }, (_, k) => ({ user_id: `u${i}`, ticker: ticker((i * 7 + k * 23) % TICKERS), added_at: at })));
  for (let w = 0; w < watches.length; w += 1000) await db.insertInto('watchlist').values(watches.slice(w, w + 1000)).execute();
}
// A fifth of the tickers qualify on the report (60 -> 70), the rest stay neutral.
const scores: SignalHistory['scores'] = {};
const latest = Array.from({ length: TICKERS }, (_, i) => {
  const after = i % 5 === 0 ? 70 : 12;
  scores[ticker(i)] = [i % 5 === 0 ? 60 : 10, after];
  return { ticker: ticker(i), companyName: `Company ${i}`, cScore: after, yesterdayCScore: 0, reportDate: REPORT, isTopTicker: false, deltaScore: 0, accuracyScore: 0, marketScore: 0, relevanceScore: 0, avgCScoreL7D: 0, avgCScoreL14D: 0, countL7DWithSignal: 0, countL14DWithSignal: 0 };
});
const history: SignalHistory = { dates: ['2026-11-19', REPORT], latest, scores };

const store = new AlertStore(db);
const composeStart = performance.now();
const events = signalEvents(history);
await store.saveEvents(events);
const queued = await store.enqueueDigests({ reportDate: REPORT, siteUrl: SITE, siteName: 'C-Score Signals', paywall: false });
const composeSeconds = (performance.now() - composeStart) / 1000;

const sender = createDigestSender({ smtpUrl: smtpUrl!, from: 'alerts@signals.example', siteUrl: SITE });
const sendStart = performance.now();
const run = await sendDigests({ store, send: sender.send, siteUrl: SITE });
const sendSeconds = (performance.now() - sendStart) / 1000;
sender.close();
await accounts.close();
console.log(JSON.stringify({ events: events.length, queued: queued.queued, composeSeconds, sent: run.sent, sendSeconds, notes: digestNotes(run) }));
