/**
 * The AI tables in the accounts database: stored texts (the daily brief and ticker analyses, one per
 * report date, subject and model), the usage that allowances and the site's token budget count, and signed-in
 * users' chat histories.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type Database, nowText } from './db';

/** A stored text as the routes answer it. */
export interface StoredAiText {
  reportDate: string;
  subject: string;
  model: string;
  text: string;
  outcome: 'checked' | 'facts-only';
  facts: string;
  tokens: number;
  createdAt: string;
}

/** A saved conversation's summary. */
export interface SavedChat {
  id: string;
  title: string;
  updatedAt: string;
}

/** Reads and writes the AI tables. */
export class AiStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored text of (report date, subject, model), or null. */
  async text(reportDate: string, subject: string, model: string): Promise<StoredAiText | null> {
    const row = await this.db.selectFrom('ai_text').selectAll().where('report_date', '=', reportDate).where('subject', '=', subject).where('model', '=', model).executeTakeFirst();
    if (row === undefined) return null;
    return {
      reportDate: row.report_date,
      subject: row.subject,
      model: row.model,
      text: row.text,
      outcome: row.outcome === 'facts-only' ? 'facts-only' : 'checked',
      facts: row.facts,
      tokens: Number(row.tokens),
      createdAt: row.created_at,
    };
  }

  /** Stores a text; a text already stored for the same key stays (the first one wins). */
  async saveText(text: Omit<StoredAiText, 'createdAt'>, now: number): Promise<void> {
    await this.db
      .insertInto('ai_text')
      .values({ report_date: text.reportDate, subject: text.subject, model: text.model, text: text.text, outcome: text.outcome, facts: text.facts, tokens: text.tokens, created_at: nowText(now) })
      .onConflict((oc) => oc.columns(['report_date', 'subject', 'model']).doNothing())
      .execute();
  }

  /** How many `use` requests `userKey` made on `day`. */
  async usedToday(day: string, userKey: string, use: string): Promise<number> {
    const row = await this.db.selectFrom('ai_usage').select((eb) => eb.fn.countAll<number>().as('n')).where('day', '=', day).where('user_key', '=', userKey).where('use', '=', use).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The site's tokens on `day`. */
  async tokensToday(day: string): Promise<number> {
    const row = await this.db.selectFrom('ai_usage').select((eb) => eb.fn.sum<number>('tokens').as('n')).where('day', '=', day).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Records a request as it starts; its id for `addTokens`. */
  async recordUse(day: string, userKey: string, use: string, now: number): Promise<string> {
    const id = randomUUID();
    await this.db.insertInto('ai_usage').values({ id, day, user_key: userKey, use, tokens: 0, created_at: nowText(now) }).execute();
    return id;
  }

  /** Adds the tokens a request spent. */
  async addTokens(id: string, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    await this.db
      .updateTable('ai_usage')
      .set((eb) => ({ tokens: eb('tokens', '+', Math.round(tokens)) }))
      .where('id', '=', id)
      .execute();
  }

  /** Takes a request that ended incomplete off its user's allowance; its tokens still count for the site. */
  async markIncomplete(id: string): Promise<void> {
    await this.db
      .updateTable('ai_usage')
      .set({ use: sql<string>`${sql.ref('use')} || ':incomplete'` })
      .where('id', '=', id)
      .execute();
  }

  /** A user's saved conversations, newest first. */
  async chats(userId: string): Promise<SavedChat[]> {
    const rows = await this.db.selectFrom('ai_chat').select(['id', 'title', 'updated_at']).where('user_id', '=', userId).orderBy('updated_at', 'desc').execute();
    return rows.map((row) => ({ id: row.id, title: row.title, updatedAt: row.updated_at }));
  }

  /** One saved conversation's messages (JSON text), or null when it is not the user's. */
  async chatMessages(userId: string, id: string): Promise<string | null> {
    const row = await this.db.selectFrom('ai_chat').select('messages').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return row?.messages ?? null;
  }

  /** Saves a conversation (replacing it), keeping at most `keep` per user. An id another user holds is left alone. */
  async saveChat(userId: string, id: string, title: string, messages: string, now: number, keep: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const owner = await trx.selectFrom('ai_chat').select('user_id').where('id', '=', id).executeTakeFirst();
      if (owner !== undefined && owner.user_id !== userId) return;
      if (owner === undefined) await trx.insertInto('ai_chat').values({ id, user_id: userId, title, messages, updated_at: nowText(now) }).execute();
      else await trx.updateTable('ai_chat').set({ messages, updated_at: nowText(now) }).where('id', '=', id).execute();
      const old = await trx.selectFrom('ai_chat').select('id').where('user_id', '=', userId).orderBy('updated_at', 'desc').offset(keep).limit(1000).execute();
      if (old.length > 0) await trx.deleteFrom('ai_chat').where('id', 'in', old.map((row) => row.id)).execute();
    });
  }

  /** Deletes a user's conversations (one, or all); how many went. */
  async deleteChats(userId: string, id?: string): Promise<number> {
    let query = this.db.deleteFrom('ai_chat').where('user_id', '=', userId);
    if (id !== undefined) query = query.where('id', '=', id);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows ?? 0);
  }
}
