/**
 * Saved screens in the accounts database (SQLite or PostgreSQL): each account's named screens, and after every
 * published report the stocks that newly entered each alerting screen (the digest tells them).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { freeSlice } from '../lib/domain/accounts/entitlements';
import type { ScreenEntry } from '../lib/domain/alerts/alerts';
import { enteredScreen, screenMembers } from '../lib/domain/signals/saved-screens';
import type { ScreenRow } from '../lib/domain/signals/screener';
import { type Database, nowText } from './db';

/** A saved screen as the routes answer it. */
export interface SavedScreen {
  id: string;
  name: string;
  query: string;
  alert: boolean;
  createdAt: string;
}

/** The rows a viewer screens: everything, or with PAYWALL=on for a Free account the free slice. */
export interface ScreenRowsFor {
  all: readonly ScreenRow[];
  free: readonly ScreenRow[];
}

export function screenRowsFor(rows: readonly ScreenRow[], latest: Parameters<typeof freeSlice>[0]): ScreenRowsFor {
  const { freeTickers } = freeSlice(latest);
  return { all: rows, free: rows.filter((r) => freeTickers.has(r.ticker)) };
}

function view(row: Database['saved_screen']): SavedScreen {
  return { id: row.id, name: row.name, query: row.query, alert: Number(row.alert) === 1, createdAt: row.created_at };
}

export class SavedScreenStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly now: () => number = Date.now,
  ) {}

  async list(userId: string): Promise<SavedScreen[]> {
    const rows = await this.db.selectFrom('saved_screen').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    return rows.map(view);
  }

  async count(userId: string): Promise<number> {
    const row = await this.db.selectFrom('saved_screen').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Saves a screen with the stocks it holds on the current report (`members`), so only later entries alert. */
  async create(userId: string, screen: { name: string; query: string; alert: boolean }, members: { tickers: string[]; reportDate: string } | null): Promise<SavedScreen> {
    const at = nowText(this.now());
    const row: Database['saved_screen'] = {
      id: randomUUID(),
      user_id: userId,
      name: screen.name,
      query: screen.query,
      alert: screen.alert ? 1 : 0,
      members: members?.tickers.join(',') ?? '',
      members_report: members?.reportDate ?? null,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('saved_screen').values(row).execute();
    return view(row);
  }

  /** Renames a screen or turns its alert on or off; null when the user has no such screen. */
  async update(userId: string, id: string, change: { name?: string; alert?: boolean }): Promise<SavedScreen | null> {
    const set: Partial<Database['saved_screen']> = { updated_at: nowText(this.now()) };
    if (change.name !== undefined) set.name = change.name;
    if (change.alert !== undefined) set.alert = change.alert ? 1 : 0;
    const result = await this.db.updateTable('saved_screen').set(set).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    const row = await this.db.selectFrom('saved_screen').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return view(row);
  }

  /** Deletes a screen; false when the user has no such screen. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('saved_screen').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Runs every saved screen on a published report and keeps what each holds; answers, per user, the stocks that
   * newly entered an alerting screen. A report already run is not run again (a re-publish tells nothing twice).
   */
  async advance(reportDate: string, rows: ScreenRowsFor, paywall: boolean, pro: ReadonlySet<string>): Promise<Map<string, ScreenEntry[]>> {
    const entries = new Map<string, ScreenEntry[]>();
    const screens = await this.db.selectFrom('saved_screen').selectAll().where((eb) => eb.or([eb('members_report', 'is', null), eb('members_report', '<', reportDate)])).orderBy('created_at').orderBy('id').execute();
    if (screens.length === 0) return entries;
    const users = [...new Set(screens.map((s) => s.user_id))];
    const watched = new Map<string, Set<string>>();
    for (const w of await this.db.selectFrom('watchlist').select(['user_id', 'ticker']).where('user_id', 'in', users).execute()) {
      watched.set(w.user_id, (watched.get(w.user_id) ?? new Set()).add(w.ticker));
    }
    for (const screen of screens) {
      const own = paywall && !pro.has(screen.user_id) ? rows.free : rows.all;
      const now = screenMembers(own, screen.query, watched.get(screen.user_id) ?? new Set());
      // A screen saved before any report was published starts from this one.
      const entered = screen.members_report === null ? [] : enteredScreen(screen.members ? screen.members.split(',') : [], now);
      await this.db.updateTable('saved_screen').set({ members: now.join(','), members_report: reportDate }).where('id', '=', screen.id).execute();
      if (Number(screen.alert) === 1 && entered.length > 0) {
        entries.set(screen.user_id, [...(entries.get(screen.user_id) ?? []), { name: screen.name, query: screen.query, tickers: entered }]);
      }
    }
    return entries;
  }
}
