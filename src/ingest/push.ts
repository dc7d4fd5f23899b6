/**
 * The daily job's own-rules and push step. After a report's events are stored, every user's rules are fired
 * against the stored scores (each rule once per report). After the digests, each user with a push subscription
 * gets one notification summing their events of the report (watched tickers and fired rules): claimed in the
 * database first, so at most once per user and report; a 404 or 410 drops the subscription; a 429 or 5xx is
 * retried with a doubling wait within the run; nothing here ever fails the publish.
 */
import { alertRuleLimit, anonymousLockedTickers } from '../lib/domain/accounts/entitlements';
import type { ScreenEntry, SignalEvent } from '../lib/domain/alerts/alerts';
import { composePush, type PushMessage } from '../lib/domain/alerts/push';
import { reportChanges, type RuleEvent, ruleEventText } from '../lib/domain/alerts/rules';
import type { SignalHistory } from '../lib/domain/report/schemas';
import type { AlertStore } from '../storage/alerts';
import type { RuleStore } from '../storage/alert-rules';
import type { PushStore, StoredSubscription } from '../storage/push';

/** Posts one notification (scripts/start.ts and scripts/daily.ts pass the web-push sender); throws for a network error. */
export type SendPush = (subscription: StoredSubscription, message: PushMessage) => Promise<{ status: number; retryAfterMs: number | null }>;

/** What the step needs: the stores, and the sender (null: push is off, rules are still fired and stored). */
export interface PushStep {
  rules: RuleStore;
  push: PushStore;
  send: SendPush | null;
  /** Tries per subscription (default 4) and the first wait (default 1 s, doubling; a Retry-After up to 30 s wins). */
  retry?: { attempts?: number; firstDelayMs?: number };
  /** Users whose notifications are posted at once (default 50). */
  concurrency?: number;
  /** Subscribed users read from the database at a time (default PUSH_PAGE_USERS). */
  pageSize?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** What one push run did. */
export interface PushRun {
  users: number;
  sent: number;
  already: number;
  /** Subscriptions dropped on a 404 or 410. */
  dropped: number;
  retried: number;
  failed: string[];
}

/** The report a step last stored events for: what the push after the digests sums, with the saved screens' new entries. */
const published = new WeakMap<PushStep, { reportDate: string; locked: ReadonlySet<string>; screens: ReadonlyMap<string, readonly ScreenEntry[]> }>();

/**
 * Fires the rules on the latest report and stores what fired; the run log's line. `screens` are the stocks newly in
 * each user's alerting saved screens on this report (SavedScreenStore.advance): the push tells them too.
 */
export async function fireRules(history: SignalHistory, step: PushStep, paywall: boolean, screens: ReadonlyMap<string, readonly ScreenEntry[]> = new Map()): Promise<string[]> {
  const reportDate = history.dates.at(-1);
  if (reportDate === undefined) return [];
  published.set(step, { reportDate, locked: anonymousLockedTickers(history.latest, paywall), screens });
  const limits = { free: alertRuleLimit({ paywall, isPro: false }), pro: alertRuleLimit({ paywall, isPro: true }) };
  const run = await step.rules.evaluate(reportDate, reportChanges(history), limits);
  return [`${run.fired} of ${run.rules} alert rules fired on ${reportDate} (${run.added} new)`];
}

/** The fired rules of the report in words for each user with email alerts on, for the digest (which only Pro gets with PAYWALL=on, so with scores). */
export async function ruleDigestLines(step: PushStep, reportDate: string): Promise<Map<string, string[]>> {
  const lines = new Map<string, string[]>();
  for (const event of await step.rules.events(reportDate, 'email-alerts-on')) {
    const text = ruleEventText(event);
    lines.set(event.userId, [...(lines.get(event.userId) ?? []), text.charAt(0).toUpperCase() + text.slice(1)]);
  }
  return lines;
}

const MAX_RETRY_AFTER_MS = 30_000;

/** Subscribed users the push step reads at a time. */
export const PUSH_PAGE_USERS = 1000;

/** Sends each subscribed user's notification of the report `fireRules` last saw; never throws for a push that fails. */
export async function sendPushes(step: PushStep, alerts: AlertStore, settings: { siteName: string; siteUrl: string; paywall: boolean }, log: (line: string) => void = () => undefined): Promise<PushRun> {
  const run: PushRun = { users: 0, sent: 0, already: 0, dropped: 0, retried: 0, failed: [] };
  const report = published.get(step);
  if (step.send === null || report === undefined) return run;
  const { reportDate, locked, screens } = report;
  const send = step.send;
  const attempts = step.retry?.attempts ?? 4;
  const firstDelay = step.retry?.firstDelayMs ?? 1000;
  const sleep = step.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const byTicker = new Map<string, SignalEvent[]>();
  for (const event of await alerts.events({ reportDate })) byTicker.set(event.ticker, [...(byTicker.get(event.ticker) ?? []), event]);

  /** Posts to one subscription with retries; true when the service took it. */
  const post = async (subscription: StoredSubscription, message: PushMessage): Promise<boolean> => {
    for (let attempt = 1; ; attempt += 1) {
      let status = 0;
      let wait: number | null = null;
      let error = '';
      try {
        const answer = await send(subscription, message);
        status = answer.status;
        wait = answer.retryAfterMs;
      } catch (thrown) {
        error = (thrown as Error).message;
        if ((thrown as { permanent?: boolean }).permanent) {
          run.failed.push(`${subscription.endpoint}: ${error}`);
          return false;
        }
      }
      if (status >= 200 && status < 300) return true;
      if (status === 404 || status === 410) {
        await step.push.drop(subscription.endpoint);
        run.dropped += 1;
        return false;
      }
      const temporary = status === 0 || status === 429 || status >= 500;
      if (!temporary || attempt >= attempts) {
        run.failed.push(`${subscription.endpoint}: ${status === 0 ? error : `the push service answered ${status}`} (${attempt} ${attempt === 1 ? 'try' : 'tries'})`);
        return false;
      }
      run.retried += 1;
      await sleep(Math.min(MAX_RETRY_AFTER_MS, Math.max(wait ?? 0, firstDelay * 2 ** (attempt - 1))));
    }
  };

  /** One page of subscribed users: their subscriptions, watchlists, fired rules and plans. */
  type Page = { subscribers: Map<string, StoredSubscription[]>; watchers: Awaited<ReturnType<PushStore['watchers']>>; fired: Map<string, RuleEvent[]>; pro: ReadonlySet<string> | null };

  const notify = async (page: Page, userId: string) => {
    const isPro = page.pro === null || page.pro.has(userId);
    const watch = page.watchers.get(userId);
    // The watchlist's events are Pro with PAYWALL=on, as the digest is; own rules are every plan's, never on a locked top ticker for Free.
    const events = isPro && watch ? watch.tickers.flatMap((ticker) => byTicker.get(ticker) ?? []).filter((event) => watch.kinds.has(event.kind)) : [];
    const rules = (page.fired.get(userId) ?? []).filter((event) => isPro || !locked.has(event.ticker));
    const message = composePush({ events, rules, screens: screens.get(userId) ?? [], withScores: isPro, siteName: settings.siteName, siteUrl: settings.siteUrl, reportDate });
    if (message === null) return;
    run.users += 1;
    if (!(await step.push.claim(userId, reportDate))) {
      run.already += 1;
      return;
    }
    let delivered = false;
    for (const subscription of page.subscribers.get(userId) ?? []) if (await post(subscription, message)) delivered = true;
    if (delivered) run.sent += 1;
    await step.push.finish(userId, reportDate, delivered ? 'sent' : 'failed');
  };

  // A page of users at a time: what one user's notification needs is read for the page, never for every user at once.
  const pageSize = step.pageSize ?? PUSH_PAGE_USERS;
  for (let after: string | null = null; ; ) {
    const subscribers = await step.push.subscriberPage(after, pageSize);
    if (subscribers.size === 0) break;
    const userIds = [...subscribers.keys()];
    after = userIds.at(-1)!;
    const fired = new Map<string, RuleEvent[]>();
    for (const event of await step.rules.events(reportDate, userIds)) {
      const list = fired.get(event.userId);
      if (list === undefined) fired.set(event.userId, [event]);
      else list.push(event);
    }
    const page: Page = { subscribers, watchers: await step.push.watchers(userIds), fired, pro: settings.paywall ? await alerts.proUsers(userIds) : null };
    let next = 0;
    const worker = async () => {
      while (next < userIds.length) {
        const userId = userIds[next++]!;
        try {
          await notify(page, userId);
        } catch (error) {
          run.failed.push(`user ${userId}: ${(error as Error).message}`);
          log(`The push notification of user ${userId} failed: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(step.concurrency ?? 50, userIds.length) }, worker));
    if (subscribers.size < pageSize) break;
  }
  return run;
}

/** A push run as run-log notes. */
export function pushNotes(run: PushRun): string[] {
  return [
    `${run.sent} of ${run.users} push notifications sent${run.already > 0 ? `, ${run.already} already sent for this report` : ''}${run.retried > 0 ? ` (${run.retried} retries)` : ''}${run.dropped > 0 ? `, ${run.dropped} expired subscriptions dropped` : ''}${run.failed.length > 0 ? `, ${run.failed.length} failed` : ''}`,
    ...run.failed.slice(0, 20).map((line) => `Push failed: ${line}`),
  ];
}
