/**
 * Alerts in the accounts database: the signal events of each report, each user's alert settings and
 * tokens, and the digest queue. Each event is stored once (its key is report date, ticker and kind) and each digest
 * is queued once per user and report (a unique key), so a re-run of a report adds nothing and sends nothing twice.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import {
  ADDRESS_LINK_INTERVAL_MS,
  ADDRESS_LINK_MS,
  type AlertKind,
  type AlertSettings,
  cleanKinds,
  composeDigest,
  DEFAULT_ALERT_SETTINGS,
  digestDestination,
  type DigestMail,
  type EventDirection,
  type ScreenEntry,
  type SignalEvent,
} from '../lib/domain/alerts/alerts';
import { asBoolean, chunks, type Database, nowText } from './db';

/** A database row holds at most this many bound values per statement (SQLite's and PostgreSQL's limits, with room). */
const ROWS_PER_INSERT = 200;

/** The unguessable part of a token URL: 32 random bytes, base64url. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Better Auth's emailVerified as either driver returns it (a boolean on PostgreSQL, 0 or 1 on SQLite). */

/** A user's settings as /account shows them. */
export interface AlertSettingsView extends AlertSettings {
  /** The account's email, where the digest goes unless `address` says otherwise. */
  accountEmail: string;
  /** The account's email is confirmed (it gets the digest when `address` is null). */
  accountEmailConfirmed: boolean;
  /** The owner of `address` opened its confirmation link (false without an own address). */
  addressConfirmed: boolean;
  /** Where the digest goes now: a confirmed address, or null while the address awaits confirmation. */
  digestTo: string | null;
  /** A private feed address exists (its token is shown once, when made). */
  hasFeed: boolean;
}

/** What asking for a digest address's confirmation link gave. */
export type AddressLink =
  /** Mail this link's token to `address`. */
  | { outcome: 'send'; address: string; token: string }
  /** The own address is confirmed already, or there is none (the account's email is Better Auth's to confirm). */
  | { outcome: 'none' }
  /** A link went out less than a minute ago. */
  | { outcome: 'wait' };

/** A confirmation link's token: pending for `address`, past its 24 hours, or unknown (used, replaced, mistyped). */
export type AddressToken = { outcome: 'pending'; address: string } | { outcome: 'expired' } | { outcome: 'unknown' };

/** What pressing a confirmation link's button did. */
export type AddressConfirmation = { outcome: 'confirmed'; address: string } | { outcome: 'expired' } | { outcome: 'unknown' };

/** One digest waiting in (or leaving) the queue. */
export interface QueuedDigest {
  id: string;
  address: string;
  attempts: number;
  mail: DigestMail;
}

/** What a digest run queued for one report. */
export interface EnqueueResult {
  /** Digests added to the queue by this call. */
  queued: number;
  /** Users with alerts on whose watched tickers had events but who already had a digest for the report or that day. */
  alreadyQueued: number;
  /** Users with alerts on and events to tell, left out because PAYWALL=on and they are not Pro. */
  notPro: number;
  /** Users with alerts on and events to tell, left out because their digest address is not confirmed. */
  addressUnconfirmed: number;
}

/** Reads and writes the alert tables. */
export class AlertStore {
  constructor(
    readonly db: Kysely<Database>,
    /** The clock of every date written (tests move it). */
    readonly now: () => number = Date.now,
  ) {}

  /** Stores the events (each once); answers how many were new. */
  async saveEvents(events: readonly SignalEvent[]): Promise<number> {
    let added = 0;
    const createdAt = nowText(this.now());
    for (const batch of chunks(events, ROWS_PER_INSERT)) {
      const result = await this.db
        .insertInto('signal_event')
        .values(
          batch.map((e) => ({
            report_date: e.reportDate,
            ticker: e.ticker,
            kind: e.kind,
            direction: e.direction,
            score_before: e.scoreBefore,
            score_after: e.scoreAfter,
            borderline: e.borderline ? 1 : 0,
            created_at: createdAt,
          })),
        )
        .onConflict((oc) => oc.columns(['report_date', 'ticker', 'kind']).doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  }

  /** The stored events of a report, or the latest of `tickers` (newest first, at most `limit`). */
  async events(filter: { reportDate: string } | { tickers: readonly string[]; limit: number }): Promise<SignalEvent[]> {
    let query = this.db.selectFrom('signal_event').selectAll();
    if ('reportDate' in filter) query = query.where('report_date', '=', filter.reportDate).orderBy('ticker').orderBy('kind');
    else {
      if (filter.tickers.length === 0) return [];
      query = query.where('ticker', 'in', [...filter.tickers]).orderBy('report_date', 'desc').orderBy('ticker').orderBy('kind').limit(filter.limit);
    }
    const rows = await query.execute();
    return rows.map((row) => ({
      ticker: row.ticker,
      reportDate: row.report_date,
      kind: row.kind as AlertKind,
      direction: row.direction as EventDirection,
      scoreBefore: row.score_before === null ? null : Number(row.score_before),
      scoreAfter: Number(row.score_after),
      borderline: Number(row.borderline) === 1,
    }));
  }

  /** A user's settings (the defaults when they never saved any). */
  async settings(userId: string): Promise<AlertSettingsView> {
    const user = await this.db.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', userId).executeTakeFirstOrThrow();
    const row = await this.db.selectFrom('alert_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
    const account = { accountEmail: user.email, accountEmailConfirmed: asBoolean(user.emailVerified) };
    if (row === undefined) {
      return { ...DEFAULT_ALERT_SETTINGS, kinds: [...DEFAULT_ALERT_SETTINGS.kinds], ...account, addressConfirmed: false, digestTo: digestDestination({ ...DEFAULT_ALERT_SETTINGS, ...account, addressConfirmed: false }), hasFeed: false };
    }
    const kinds = cleanKinds(row.kinds.split(',').filter(Boolean));
    const address = { address: row.address, addressConfirmed: row.address !== null && row.address_confirmed_at !== null };
    return {
      enabled: Number(row.enabled) === 1,
      kinds: 'kinds' in kinds ? kinds.kinds : [...DEFAULT_ALERT_SETTINGS.kinds],
      ...address,
      ...account,
      digestTo: digestDestination({ ...address, ...account }),
      hasFeed: row.feed_token_hash !== null,
    };
  }

  /** Creates the user's row with the defaults when missing (so the tokens exist). */
  private async ensureRow(userId: string): Promise<void> {
    await this.db
      .insertInto('alert_settings')
      .values({
        user_id: userId,
        enabled: DEFAULT_ALERT_SETTINGS.enabled ? 1 : 0,
        kinds: DEFAULT_ALERT_SETTINGS.kinds.join(','),
        address: null,
        address_confirmed_at: null,
        address_token_hash: null,
        address_token_sent_at: null,
        unsubscribe_token: newToken(),
        feed_token_hash: null,
        updated_at: nowText(this.now()),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  /**
   * Saves a user's settings (the fields given). A new address is unconfirmed (its pending link stops working) unless
   * it is the account's own confirmed email; `addressLink` then gives the link to mail.
   */
  async saveSettings(userId: string, settings: Partial<AlertSettings>): Promise<AlertSettingsView> {
    await this.ensureRow(userId);
    const now = nowText(this.now());
    const changes: Partial<Database['alert_settings']> = { updated_at: now };
    if (settings.enabled !== undefined) changes.enabled = settings.enabled ? 1 : 0;
    if (settings.kinds !== undefined) changes.kinds = settings.kinds.join(',');
    if (settings.address !== undefined) {
      const current = await this.db.selectFrom('alert_settings').select('address').where('user_id', '=', userId).executeTakeFirstOrThrow();
      if (current.address !== settings.address) {
        const user = await this.db.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', userId).executeTakeFirstOrThrow();
        const own = settings.address !== null && settings.address === user.email.toLowerCase() && asBoolean(user.emailVerified);
        Object.assign(changes, { address: settings.address, address_confirmed_at: own ? now : null, address_token_hash: null });
      }
    }
    await this.db.updateTable('alert_settings').set(changes).where('user_id', '=', userId).execute();
    return this.settings(userId);
  }

  /**
   * A new confirmation link for the user's own digest address (the previous one stops working), unless one went out
   * less than a minute ago. Only the token's SHA-256 is kept.
   */
  async addressLink(userId: string): Promise<AddressLink> {
    await this.ensureRow(userId);
    const row = await this.db.selectFrom('alert_settings').select(['address', 'address_confirmed_at', 'address_token_sent_at']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (row.address === null || row.address_confirmed_at !== null) return { outcome: 'none' };
    if (!(await this.claimLinkSlot(userId, row.address_token_sent_at))) return { outcome: 'wait' };
    const token = newToken();
    await this.db.updateTable('alert_settings').set({ address_token_hash: sha256(token) }).where('user_id', '=', userId).execute();
    return { outcome: 'send', address: row.address, token };
  }

  /**
   * Counts a confirmation mail against the one-a-minute limit (the account email's too, which Better Auth sends):
   * false when one went out less than a minute ago.
   */
  async claimLinkSlot(userId: string, lastSentAt?: string | null): Promise<boolean> {
    await this.ensureRow(userId);
    const now = this.now();
    const last = lastSentAt === undefined ? (await this.db.selectFrom('alert_settings').select('address_token_sent_at').where('user_id', '=', userId).executeTakeFirstOrThrow()).address_token_sent_at : lastSentAt;
    const earliest = nowText(now - ADDRESS_LINK_INTERVAL_MS);
    if (last !== null && last > earliest) return false;
    // Only one of two racing requests moves the time on.
    const claimed = await this.db
      .updateTable('alert_settings')
      .set({ address_token_sent_at: nowText(now) })
      .where('user_id', '=', userId)
      .where((eb) => (last === null ? eb('address_token_sent_at', 'is', null) : eb('address_token_sent_at', '=', last)))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Whether a confirmation link's token is pending and within its 24 hours (nothing is changed). */
  async checkAddressToken(token: string): Promise<AddressToken> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { outcome: 'unknown' };
    const row = await this.db.selectFrom('alert_settings').select(['address', 'address_token_sent_at']).where('address_token_hash', '=', sha256(token)).executeTakeFirst();
    if (row === undefined || row.address === null) return { outcome: 'unknown' };
    if (row.address_token_sent_at === null || Date.parse(row.address_token_sent_at) + ADDRESS_LINK_MS < this.now()) return { outcome: 'expired' };
    return { outcome: 'pending', address: row.address };
  }

  /** Confirms the address whose link this is (within its 24 hours); the link then stops working. */
  async confirmAddress(token: string): Promise<AddressConfirmation> {
    const checked = await this.checkAddressToken(token);
    if (checked.outcome !== 'pending') return checked;
    const result = await this.db
      .updateTable('alert_settings')
      .set({ address_confirmed_at: nowText(this.now()), address_token_hash: null })
      .where('address_token_hash', '=', sha256(token))
      .where('address', '=', checked.address)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? { outcome: 'confirmed', address: checked.address } : { outcome: 'unknown' };
  }

  /** Turns off the alerts of the user whose unsubscribe token this is; false for an unknown token. */
  async unsubscribe(token: string): Promise<boolean> {
    if (token === '') return false;
    const result = await this.db.updateTable('alert_settings').set({ enabled: 0, updated_at: nowText(this.now()) }).where('unsubscribe_token', '=', token).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Makes a new private feed token for the user (the old one stops working at once); the token, shown once. */
  async regenerateFeedToken(userId: string): Promise<string> {
    await this.ensureRow(userId);
    const token = newToken();
    await this.db.updateTable('alert_settings').set({ feed_token_hash: sha256(token), updated_at: nowText(this.now()) }).where('user_id', '=', userId).execute();
    return token;
  }

  /** The user id a private feed token belongs to, or null. */
  async feedOwner(token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const row = await this.db.selectFrom('alert_settings').select('user_id').where('feed_token_hash', '=', sha256(token)).executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** The user's watched tickers. */
  async watched(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('watchlist').select('ticker').where('user_id', '=', userId).orderBy('ticker').execute();
    return rows.map((row) => row.ticker);
  }

  /** Users with Pro: an operator's grant or a live Stripe subscription (the table exists only with Stripe); of `among` when given. */
  async proUsers(among?: readonly string[]): Promise<Set<string>> {
    if (among !== undefined && among.length === 0) return new Set();
    let grants = this.db.selectFrom('plan_grant').select('user_id');
    if (among !== undefined) grants = grants.where('user_id', 'in', among);
    const pro = new Set((await grants.execute()).map((r) => r.user_id));
    const tables = await this.db.introspection.getTables();
    if (tables.some((table) => table.name === 'subscription')) {
      let live = this.db.selectFrom('subscription').select('referenceId').where('status', 'in', ['active', 'trialing']);
      if (among !== undefined) live = live.where('referenceId', 'in', among);
      for (const row of await live.execute()) pro.add(row.referenceId);
    }
    return pro;
  }

  /** True when the user has Pro (a grant or a live subscription). */
  async isPro(userId: string): Promise<boolean> {
    return (await this.proUsers()).has(userId);
  }

  /**
   * Composes and queues the digest of `reportDate`'s stored events for every user with alerts on who watches an
   * affected ticker (of a kind they chose), at most one per user and report and one per user and day. With
   * PAYWALL=on only Pro users get one.
   */
  async enqueueDigests(options: {
    reportDate: string;
    siteUrl: string;
    siteName: string;
    paywall: boolean;
    screens?: ReadonlyMap<string, readonly ScreenEntry[]>;
    ownLines?: ReadonlyMap<string, readonly string[]>;
  }): Promise<EnqueueResult> {
    const events = await this.events({ reportDate: options.reportDate });
    const byTicker = new Map<string, SignalEvent[]>();
    for (const event of events) byTicker.set(event.ticker, [...(byTicker.get(event.ticker) ?? []), event]);
    const result: EnqueueResult = { queued: 0, alreadyQueued: 0, notPro: 0, addressUnconfirmed: 0 };
    const screens = options.screens ?? new Map<string, readonly ScreenEntry[]>();
    // Own rules that fired (src/ingest/push.ts) join the digest, one line each, after the watchlist's events.
    const ownLines = options.ownLines ?? new Map<string, readonly string[]>();
    if (byTicker.size === 0 && screens.size === 0 && ownLines.size === 0) return result;

    const subscribers = await this.db
      .selectFrom('alert_settings')
      .innerJoin('user', 'user.id', 'alert_settings.user_id')
      .select([
        'alert_settings.user_id as userId',
        'alert_settings.kinds as kinds',
        'alert_settings.address as address',
        'alert_settings.address_confirmed_at as addressConfirmedAt',
        'alert_settings.unsubscribe_token as token',
        'user.email as email',
        'user.emailVerified as emailVerified',
      ])
      .where('alert_settings.enabled', '=', 1)
      .execute();
    if (subscribers.length === 0) return result;
    const watches = byTicker.size === 0 ? [] : await this.db
      .selectFrom('watchlist')
      .innerJoin('alert_settings', 'alert_settings.user_id', 'watchlist.user_id')
      .select(['watchlist.user_id as userId', 'watchlist.ticker as ticker'])
      .where('alert_settings.enabled', '=', 1)
      .where('watchlist.ticker', 'in', byTicker.size === 0 ? [''] : [...byTicker.keys()])
      .execute();
    const watchedBy = new Map<string, string[]>();
    for (const w of watches) watchedBy.set(w.userId, [...(watchedBy.get(w.userId) ?? []), w.ticker]);

    const now = this.now();
    const startOfDay = nowText(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()));
    const already = new Set(
      (
        await this.db
          .selectFrom('digest_queue')
          .select('user_id')
          .where((eb) => eb.or([eb('report_date', '=', options.reportDate), eb('created_at', '>=', startOfDay)]))
          .execute()
      ).map((row) => row.user_id),
    );
    const pro = options.paywall ? await this.proUsers() : null;
    // Written a batch at a time as they are composed, so 10,000 digests never sit in memory together.
    let rows: Database['digest_queue'][] = [];
    const flush = async () => {
      if (rows.length === 0) return;
      const batch = rows;
      rows = [];
      const inserted = await this.db
        .insertInto('digest_queue')
        .values(batch)
        .onConflict((oc) => oc.columns(['user_id', 'report_date']).doNothing())
        .executeTakeFirst();
      const n = Number(inserted.numInsertedOrUpdatedRows ?? 0);
      result.queued += n;
      result.alreadyQueued += batch.length - n;
    };
    for (const subscriber of subscribers) {
      const tickers = (watchedBy.get(subscriber.userId) ?? []).sort();
      const kinds = new Set(subscriber.kinds.split(','));
      const mine = tickers.flatMap((ticker) => byTicker.get(ticker) ?? []).filter((event) => kinds.has(event.kind));
      const entered = screens.get(subscriber.userId) ?? [];
      const own = ownLines.get(subscriber.userId) ?? [];
      if (mine.length === 0 && entered.length === 0 && own.length === 0) continue;
      if (pro !== null && !pro.has(subscriber.userId)) {
        result.notPro += 1;
        continue;
      }
      const address = digestDestination({
        address: subscriber.address,
        addressConfirmed: subscriber.addressConfirmedAt !== null,
        accountEmail: subscriber.email,
        accountEmailConfirmed: asBoolean(subscriber.emailVerified),
      });
      if (address === null) {
        result.addressUnconfirmed += 1;
        continue;
      }
      if (already.has(subscriber.userId)) {
        result.alreadyQueued += 1;
        continue;
      }
      const unsubscribeUrl = new URL(`/api/alerts/unsubscribe?token=${subscriber.token}`, options.siteUrl).href;
      const mail = composeDigest({ to: address, siteName: options.siteName, siteUrl: options.siteUrl, reportDate: options.reportDate, events: mine, screens: entered, own, unsubscribeUrl });
      rows.push({
        id: randomUUID(),
        user_id: subscriber.userId,
        report_date: options.reportDate,
        address,
        subject: mail.subject,
        body_text: mail.text,
        body_html: mail.html,
        unsubscribe_url: unsubscribeUrl,
        state: 'pending',
        attempts: 0,
        next_attempt_at: nowText(now),
        claimed_at: null,
        sent_at: null,
        last_error: null,
        created_at: nowText(now),
      });
      if (rows.length >= ROWS_PER_INSERT / 2) await flush();
    }
    await flush();
    return result;
  }

  /** Digests a sender that stopped (a crash) left claimed but unrecorded: marked `unconfirmed`, never sent again. */
  async abandonStale(leaseMs: number): Promise<QueuedDigest[]> {
    const before = nowText(this.now() - leaseMs);
    const rows = await this.db.selectFrom('digest_queue').selectAll().where('state', '=', 'sending').where('claimed_at', '<', before).execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('digest_queue')
      .set({ state: 'unconfirmed', last_error: 'The sender stopped after claiming this digest: it may have been sent, so it is not sent again.' })
      .where('state', '=', 'sending')
      .where('id', 'in', rows.map((row) => row.id))
      .execute();
    return rows.map(toQueued);
  }

  /** Pending digests due now, oldest first. */
  async due(limit: number): Promise<QueuedDigest[]> {
    const rows = await this.db.selectFrom('digest_queue').selectAll().where('state', '=', 'pending').where('next_attempt_at', '<=', nowText(this.now())).orderBy('created_at').orderBy('id').limit(limit).execute();
    return rows.map(toQueued);
  }

  /** When the next pending digest is due (ms), or null when none waits. */
  async nextDue(): Promise<number | null> {
    const row = await this.db.selectFrom('digest_queue').select(sql<string>`min(next_attempt_at)`.as('next')).where('state', '=', 'pending').executeTakeFirst();
    return row?.next ? Date.parse(row.next) : null;
  }

  /** Takes a pending digest for sending (one sender only: false when another took it first). */
  async claim(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('digest_queue')
      .set((eb) => ({ state: 'sending', claimed_at: nowText(this.now()), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a digest as sent. */
  async markSent(id: string): Promise<void> {
    await this.db.updateTable('digest_queue').set({ state: 'sent', sent_at: nowText(this.now()), last_error: null }).where('id', '=', id).execute();
  }

  /** Puts a digest back to wait until `retryAt`, or gives up on it (`retryAt` null). */
  async markFailed(id: string, error: string, retryAt: number | null): Promise<void> {
    await this.db
      .updateTable('digest_queue')
      .set(retryAt === null ? { state: 'failed', last_error: error } : { state: 'pending', last_error: error, next_attempt_at: nowText(retryAt) })
      .where('id', '=', id)
      .execute();
  }

  /** How many digests are in each state (the bench and the tests read it). */
  async counts(): Promise<Record<string, number>> {
    const rows = await this.db.selectFrom('digest_queue').select(['state', sql<number>`count(*)`.as('n')]).groupBy('state').execute();
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
  }
}

function toQueued(row: Database['digest_queue']): QueuedDigest {
  return {
    id: row.id,
    address: row.address,
    attempts: Number(row.attempts),
    mail: { to: row.address, subject: row.subject, text: row.body_text, html: row.body_html, unsubscribeUrl: row.unsubscribe_url },
  };
}
