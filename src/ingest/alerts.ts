/**
 * The daily job's alerts step: after a report is published, its signal events are stored (once) and the
 * digests queued (once per user and report); then the queue is sent. Sending claims each digest before handing it
 * to SMTP and records it right after, so a crash never sends one twice; a temporary SMTP failure waits and retries
 * with a doubling delay, a refused address is given up at once, and neither stops the rest.
 */
import { signalEvents, type DigestMail } from '../lib/domain/alerts/alerts';
import type { SignalHistory } from '../lib/domain/report/schemas';
import type { AlertStore, QueuedDigest } from '../storage/alerts';
import type { StoredFundamentals } from '../lib/domain/market-data/fundamentals';
import { screenRows } from '../lib/domain/signals/screener';
import { fireRules, type PushStep, ruleDigestLines } from './push';

/** Hands one digest to the mail server (scripts/start.ts and scripts/daily.ts pass the SMTP one); `id` is stable per digest. */
export type SendDigest = (mail: DigestMail, id: string) => Promise<void>;

/** How sending retries. */
export interface RetryPolicy {
  /** Tries per digest before it is given up (docs/alerts.md). */
  attempts: number;
  /** The wait after the first failure; each further failure doubles it. */
  firstDelayMs: number;
  /** A digest claimed longer ago than this by a sender that never recorded it is `unconfirmed`, not sent again. */
  leaseMs: number;
  /** Digests handed to the mail server at once (the SMTP pool's connections). */
  concurrency: number;
}

/** 5 tries: waits of 5, 10, 20 and 40 s between them (75 s in all), so a mail server's short outage is ridden out; 10 at once. */
export const DIGEST_RETRY: RetryPolicy = { attempts: 5, firstDelayMs: 5000, leaseMs: 10 * 60 * 1000, concurrency: 10 };

/** What the alerts step needs: the store, the sender, the site's address; the rest have defaults. */
export interface AlertsStep {
  store: AlertStore;
  send: SendDigest;
  /** SITE_URL: the digests' links. */
  siteUrl: string;
  retry?: Partial<RetryPolicy>;
  /** How the sender waits for a retry (tests pass a quicker clock). */
  sleep?: (ms: number) => Promise<void>;
  /** Own alert rules (fired with the events) and Web Push (sent after the digests): src/ingest/push.ts. */
  push?: PushStep;
}

/** What one sending run did. */
export interface DigestRun {
  sent: number;
  retried: number;
  /** One line per digest given up, with its address and the last error. */
  failed: string[];
  /** Digests a stopped sender left claimed: not sent again. */
  unconfirmed: string[];
}

/** Pending digests read from the queue at a time. */
const BATCH = 100;

/**
 * The events of the latest report stored, the saved screens run on it (their new entries go into the digests), and its
 * digests queued; the lines for the run log's notes.
 */
export async function queueAlerts(
  history: SignalHistory,
  step: AlertsStep,
  settings: { siteName: string; paywall: boolean },
  fundamentals: Readonly<Record<string, StoredFundamentals | undefined>> = {},
): Promise<string[]> {
  const reportDate = history.dates.at(-1);
  if (reportDate === undefined) return [];
  const events = signalEvents(history);
  const added = await step.store.saveEvents(events);
  const borderline = events.filter((event) => event.borderline).length;
  // Loaded as the step runs: a static import would open node:sqlite as the daily job starts, whose notice lands in its stderr.
  const { SavedScreenStore, screenRowsFor } = await import('../storage/saved-screens');
  const rows = screenRowsFor(screenRows(history, fundamentals), history.latest);
  const pro = settings.paywall ? await step.store.proUsers() : new Set<string>();
  const screens = await new SavedScreenStore(step.store.db, step.store.now).advance(reportDate, rows, settings.paywall, pro);
  const rules = step.push ? await fireRules(history, step.push, settings.paywall, screens) : [];
  const ownLines = step.push ? await ruleDigestLines(step.push, reportDate) : undefined;
  const queued = await step.store.enqueueDigests({ reportDate, siteUrl: step.siteUrl, siteName: settings.siteName, paywall: settings.paywall, screens, ownLines });
  const entered = [...screens.values()].flat();
  const lines = [
    ...(entered.length > 0 ? [`${entered.reduce((n, s) => n + s.tickers.length, 0)} stocks newly in ${entered.length} alerting saved screens`] : []),
    `${events.length} signal events on ${reportDate} (${added} new${borderline > 0 ? `, ${borderline} borderline` : ''})`,
    `${queued.queued} digests queued${queued.alreadyQueued > 0 ? `, ${queued.alreadyQueued} already queued for this report or today` : ''}${queued.notPro > 0 ? `, ${queued.notPro} not sent: alerts are Pro with PAYWALL=on` : ''}${queued.addressUnconfirmed > 0 ? `, ${queued.addressUnconfirmed} not sent: the digest address is not confirmed yet` : ''}`,
  ];
  lines.push(...rules);
  return lines;
}

/** A refusal by the mail server that retrying cannot fix (an SMTP 5xx, such as an unknown mailbox). */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Sends every pending digest, waiting for retries until none is left; never throws for a mail that fails. */
export async function sendDigests(step: AlertsStep, log: (line: string) => void = () => undefined): Promise<DigestRun> {
  const policy = { ...DIGEST_RETRY, ...step.retry };
  const now = step.store.now;
  const sleep = step.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const run: DigestRun = { sent: 0, retried: 0, failed: [], unconfirmed: [] };
  for (const stale of await step.store.abandonStale(policy.leaseMs)) {
    run.unconfirmed.push(`${stale.address}: "${stale.mail.subject}" was claimed by a sender that stopped; it may have been sent, so it is not sent again.`);
  }
  const sendOne = async (digest: QueuedDigest) => {
    if (!(await step.store.claim(digest.id))) return;
    const attempt = digest.attempts + 1;
    try {
      await step.send(digest.mail, digest.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (isPermanent(error) || attempt >= policy.attempts) {
        await step.store.markFailed(digest.id, message, null);
        const why = isPermanent(error) ? 'the mail server refused it' : `${attempt} tries`;
        run.failed.push(`${digest.address}: gave up after ${why}: ${message}`);
        log(`Digest to ${digest.address} not sent (${why}): ${message}`);
      } else {
        await step.store.markFailed(digest.id, message, now() + policy.firstDelayMs * 2 ** (attempt - 1));
        run.retried += 1;
      }
      return;
    }
    await step.store.markSent(digest.id);
    run.sent += 1;
  };
  for (;;) {
    const batch = await step.store.due(BATCH);
    if (batch.length === 0) {
      const next = await step.store.nextDue();
      if (next === null) break;
      await sleep(Math.max(0, next - now()));
      continue;
    }
    // A few digests at a time, one per pooled SMTP connection: each is claimed first, so no two workers send one.
    let next = 0;
    const worker = async () => {
      while (next < batch.length) await sendOne(batch[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(policy.concurrency, batch.length) }, worker));
  }
  return run;
}

/** A sending run as run-log notes. */
export function digestNotes(run: DigestRun): string[] {
  return [
    `${run.sent} digests sent${run.retried > 0 ? ` (${run.retried} retries)` : ''}${run.failed.length > 0 ? `, ${run.failed.length} given up` : ''}`,
    ...run.failed.map((line) => `Given up: ${line}`),
    ...run.unconfirmed.map((line) => `Unconfirmed: ${line}`),
  ];
}
