/**
 * Alert rules of one's own in the accounts database: each user's rules, and the rules that fired on each report.
 * A fired rule is stored once per rule and report (its key), so publishing a report twice alerts once.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type AlertRule, type RuleEvent, ruleFires, type RuleInput, type RuleKind, type ScoreChange } from '../lib/domain/alerts/rules';
import { chunks, type Database, nowText } from './db';

/** Rules read from the database at a time while a report is evaluated (memory stays flat at any count). */
const RULES_PER_PAGE = 20_000;
/** Rows per multi-row insert: 9 values each, under both databases' bound-value limits. */
const ROWS_PER_INSERT = 500;

/** What evaluating one report did. */
export interface RuleRun {
  /** Rules read. */
  rules: number;
  /** Rules that fired on the report. */
  fired: number;
  /** Of those, newly stored (0 when the report was evaluated before). */
  added: number;
}

export class RuleStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly now: () => number = Date.now,
  ) {}

  /** A user's rules, oldest first. */
  async list(userId: string): Promise<AlertRule[]> {
    const rows = await this.db.selectFrom('alert_rule').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => ({ id: row.id, ticker: row.ticker, kind: row.kind as RuleKind, value: Number(row.value), createdAt: row.created_at }));
  }

  /** How many rules a user has. */
  async count(userId: string): Promise<number> {
    const row = await this.db.selectFrom('alert_rule').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Adds a rule; null when the user has the same rule already. */
  async add(userId: string, rule: RuleInput): Promise<AlertRule | null> {
    const row = { id: randomUUID(), user_id: userId, ticker: rule.ticker, kind: rule.kind, value: rule.value, created_at: nowText(this.now()) };
    const result = await this.db
      .insertInto('alert_rule')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'ticker', 'kind', 'value']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    return { id: row.id, ticker: row.ticker, kind: rule.kind, value: rule.value, createdAt: row.created_at };
  }

  /** Deletes one of the user's rules; false when it is not theirs or does not exist. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('alert_rule').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Fires every rule against the report's score changes and stores what fired (each rule once per report); reads the
   * rules a page at a time in id order, so a large table never sits in memory.
   */
  async evaluate(reportDate: string, changes: ReadonlyMap<string, ScoreChange>): Promise<RuleRun> {
    const run: RuleRun = { rules: 0, fired: 0, added: 0 };
    if (changes.size === 0) return run;
    const createdAt = nowText(this.now());
    let after = '';
    for (;;) {
      const page = await this.db
        .selectFrom('alert_rule')
        .select(['id', 'user_id', 'ticker', 'kind', 'value'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(RULES_PER_PAGE)
        .execute();
      if (page.length === 0) break;
      run.rules += page.length;
      after = page.at(-1)!.id;
      const fired: Database['rule_event'][] = [];
      for (const rule of page) {
        const change = changes.get(rule.ticker);
        const value = Number(rule.value);
        if (change === undefined || !ruleFires({ kind: rule.kind as RuleKind, value }, change)) continue;
        fired.push({
          rule_id: rule.id,
          report_date: reportDate,
          user_id: rule.user_id,
          ticker: rule.ticker,
          kind: rule.kind,
          value,
          score_before: change.before,
          score_after: change.after,
          created_at: createdAt,
        });
      }
      run.fired += fired.length;
      for (const batch of chunks(fired, ROWS_PER_INSERT)) {
        const result = await this.db
          .insertInto('rule_event')
          .values(batch)
          .onConflict((oc) => oc.columns(['rule_id', 'report_date']).doNothing())
          .executeTakeFirst();
        run.added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      if (page.length < RULES_PER_PAGE) break;
    }
    return run;
  }

  /** The rules that fired on a report, for the given users (all when omitted), by user then ticker. */
  async events(reportDate: string, userIds?: readonly string[]): Promise<RuleEvent[]> {
    if (userIds !== undefined && userIds.length === 0) return [];
    let query = this.db.selectFrom('rule_event').selectAll().where('report_date', '=', reportDate);
    if (userIds !== undefined) query = query.where('user_id', 'in', [...userIds]);
    const rows = await query.orderBy('user_id').orderBy('ticker').orderBy('kind').orderBy('value').execute();
    return rows.map((row) => ({
      ruleId: row.rule_id,
      userId: row.user_id,
      ticker: row.ticker,
      kind: row.kind as RuleKind,
      value: Number(row.value),
      reportDate: row.report_date,
      scoreBefore: Number(row.score_before),
      scoreAfter: Number(row.score_after),
    }));
  }
}
