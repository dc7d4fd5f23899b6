/**
 * Web Push in the accounts database: each user's browser subscriptions (endpoint and keys), and one delivery row
 * per user and report, claimed before the notification goes out so a re-run or a second sender never sends it twice.
 */
import type { Kysely } from 'kysely';
import { DEFAULT_ALERT_KINDS, type AlertKind } from '../lib/domain/alerts/alerts';
import { MAX_PUSH_SUBSCRIPTIONS } from '../lib/domain/alerts/push';
import { chunks, type Database, nowText } from './db';

/** A browser's subscription as stored (the keys base64url, as PushSubscription.toJSON() gives them). */
export interface StoredSubscription {
  endpoint: string;
  userId: string;
  keys: { p256dh: string; auth: string };
}

/** What saving a subscription did. */
export type SubscriptionSaved = 'added' | 'updated' | 'limit';

export class PushStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Saves the browser's subscription for the user: an endpoint already stored moves to this user with its new
   * keys; a new one counts against MAX_PUSH_SUBSCRIPTIONS.
   */
  async save(userId: string, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<SubscriptionSaved> {
    const existing = await this.db.selectFrom('push_subscription').select('endpoint').where('endpoint', '=', subscription.endpoint).executeTakeFirst();
    if (existing !== undefined) {
      await this.db
        .updateTable('push_subscription')
        .set({ user_id: userId, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth })
        .where('endpoint', '=', subscription.endpoint)
        .execute();
      return 'updated';
    }
    const count = await this.db.selectFrom('push_subscription').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    if (Number(count?.n ?? 0) >= MAX_PUSH_SUBSCRIPTIONS) return 'limit';
    await this.db
      .insertInto('push_subscription')
      .values({ endpoint: subscription.endpoint, user_id: userId, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, created_at: nowText(this.now()) })
      .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth }))
      .execute();
    return 'added';
  }

  /** Removes one of the user's subscriptions; false when the user has none at that endpoint. */
  async remove(userId: string, endpoint: string): Promise<boolean> {
    const result = await this.db.deleteFrom('push_subscription').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Drops a subscription the push service says is gone (404 or 410). */
  async drop(endpoint: string): Promise<void> {
    await this.db.deleteFrom('push_subscription').where('endpoint', '=', endpoint).execute();
  }

  /** How many subscriptions the user has. */
  async countOf(userId: string): Promise<number> {
    const row = await this.db.selectFrom('push_subscription').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The subscriptions of the next `users` subscribed users after `afterUserId` (null: from the first), grouped by
   * user in id order: the push step pages through them, so no run holds every subscription at once.
   */
  async subscriberPage(afterUserId: string | null, users: number): Promise<Map<string, StoredSubscription[]>> {
    let ids = this.db.selectFrom('push_subscription').select('user_id').distinct().orderBy('user_id').limit(users);
    if (afterUserId !== null) ids = ids.where('user_id', '>', afterUserId);
    const rows = await this.db
      .selectFrom('push_subscription')
      .selectAll()
      .where('user_id', 'in', ids)
      .orderBy('user_id')
      .orderBy('created_at')
      .orderBy('endpoint')
      .execute();
    const page = new Map<string, StoredSubscription[]>();
    for (const row of rows) {
      const list = page.get(row.user_id) ?? [];
      list.push({ endpoint: row.endpoint, userId: row.user_id, keys: { p256dh: row.p256dh, auth: row.auth } });
      page.set(row.user_id, list);
    }
    return page;
  }

  /** Each of these users' watched tickers and the event kinds they chose (the defaults when they never saved any). */
  async watchers(userIds: readonly string[]): Promise<Map<string, { tickers: string[]; kinds: ReadonlySet<AlertKind> }>> {
    const out = new Map<string, { tickers: string[]; kinds: ReadonlySet<AlertKind> }>();
    if (userIds.length === 0) return out;
    for (const id of userIds) out.set(id, { tickers: [], kinds: new Set(DEFAULT_ALERT_KINDS) });
    // A few thousand users a statement: PostgreSQL takes at most 65,535 bound values.
    for (const ids of chunks(userIds, 5000)) {
      const settings = await this.db.selectFrom('alert_settings').select(['user_id', 'kinds']).where('user_id', 'in', ids).execute();
      for (const row of settings) out.get(row.user_id)!.kinds = new Set(row.kinds.split(',').filter(Boolean) as AlertKind[]);
      const watches = await this.db.selectFrom('watchlist').select(['user_id', 'ticker']).where('user_id', 'in', ids).orderBy('ticker').execute();
      for (const row of watches) out.get(row.user_id)!.tickers.push(row.ticker);
    }
    return out;
  }

  /** Claims the user's notification of a report; false when it was claimed before (sent, failed or being sent). */
  async claim(userId: string, reportDate: string): Promise<boolean> {
    const result = await this.db
      .insertInto('push_delivery')
      .values({ user_id: userId, report_date: reportDate, state: 'sending', claimed_at: nowText(this.now()), note: null })
      .onConflict((oc) => oc.columns(['user_id', 'report_date']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Records how a claimed notification ended. */
  async finish(userId: string, reportDate: string, state: 'sent' | 'failed', note: string | null = null): Promise<void> {
    await this.db.updateTable('push_delivery').set({ state, note }).where('user_id', '=', userId).where('report_date', '=', reportDate).execute();
  }
}
