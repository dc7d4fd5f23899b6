/**
 * Alert rules of one's own in the accounts database: each user's rules, and the rules that fired on each report.
 * A fired rule is stored once per rule and report (its key), so publishing a report twice alerts once.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { AlertRule, RuleEvent, RuleInput, RuleKind, RuleLimits, ScoreChange } from '../lib/domain/alerts/rules';
import { hasPro } from './plan-grants';
import { chunks, type Database, nowText } from './db';

/** Tickers per statement: three bound values each, under both databases' bound-value limits. */
const TICKERS_PER_STATEMENT = 2000;
/** Users per `in (...)` list. */
const USERS_PER_STATEMENT = 5000;

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
   * Fires every rule against the report's score changes and stores what fired (each rule once per report), in one
   * INSERT ... SELECT: the database joins the rules with the report's changes, so no rule is read into memory. The
   * firing conditions are ruleFires's, in SQL; a user with more rules than their plan's limit (`limits`: Free's and
   * Pro's, the same without the paywall) fires only the oldest ones, as rulePaused says.
   */
  async evaluate(reportDate: string, changes: ReadonlyMap<string, ScoreChange>, limits: RuleLimits): Promise<RuleRun> {
    const rules = Number((await this.db.selectFrom('alert_rule').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const run: RuleRun = { rules, fired: 0, added: 0 };
    if (changes.size === 0 || rules === 0) return run;
    const createdAt = nowText(this.now());
    const allowed = limits.free === limits.pro ? sql`cast(${limits.free} as integer)` : sql`case when ${await hasPro(this.db, sql.ref('a.user_id'))} then cast(${limits.pro} as integer) else cast(${limits.free} as integer) end`;
    for (const batch of chunks([...changes], TICKERS_PER_STATEMENT)) {
      const values = sql.join(batch.map(([ticker, change]) => sql`(${ticker}, cast(${change.before} as double precision), cast(${change.after} as double precision))`));
      // Only users with more rules than the smaller limit are ranked, so the common case costs one scan of an index.
      const result = await sql`
        with report_change(ticker, score_before, score_after) as (values ${values}),
        crowded(user_id, allowed) as (
          select a.user_id, ${allowed} from alert_rule a group by a.user_id having count(*) > cast(${Math.min(limits.free, limits.pro)} as integer)
        ),
        paused(id) as (
          select ranked.id from (
            select a.id, c.allowed, row_number() over (partition by a.user_id order by a.created_at, a.id) as n
            from alert_rule a join crowded c on c.user_id = a.user_id
          ) ranked
          where ranked.n > ranked.allowed
        )
        insert into rule_event (rule_id, report_date, user_id, ticker, kind, value, score_before, score_after, created_at)
        select r.id, ${reportDate}, r.user_id, r.ticker, r.kind, r.value, c.score_before, c.score_after, ${createdAt}
        from alert_rule r join report_change c on c.ticker = r.ticker
        where ((r.kind = 'above' and c.score_before < r.value and c.score_after >= r.value)
           or (r.kind = 'below' and c.score_before > r.value and c.score_after <= r.value)
           or (r.kind = 'move' and abs(c.score_after - c.score_before) >= r.value))
          and r.id not in (select paused.id from paused)
        on conflict (rule_id, report_date) do nothing`.execute(this.db);
      run.added += Number(result.numAffectedRows ?? 0);
    }
    run.fired = Number((await this.db.selectFrom('rule_event').select((eb) => eb.fn.countAll<number>().as('n')).where('report_date', '=', reportDate).executeTakeFirst())?.n ?? 0);
    return run;
  }

  /** The rules that fired on a report, for the given users (all when omitted; or those with email alerts on), by user then ticker. */
  async events(reportDate: string, userIds?: readonly string[] | 'email-alerts-on'): Promise<RuleEvent[]> {
    const rows: Database['rule_event'][] = [];
    // A few thousand users a statement: PostgreSQL takes at most 65,535 bound values.
    for (const ids of userIds === undefined || userIds === 'email-alerts-on' ? [undefined] : chunks(userIds, USERS_PER_STATEMENT)) {
      let query = this.db.selectFrom('rule_event').selectAll('rule_event').where('rule_event.report_date', '=', reportDate);
      if (ids !== undefined) query = query.where('rule_event.user_id', 'in', ids);
      // The digest's: only the users who get one, not every user's rules at once.
      if (userIds === 'email-alerts-on') query = query.where('rule_event.user_id', 'in', (eb) => eb.selectFrom('alert_settings').select('alert_settings.user_id').where('alert_settings.enabled', '=', 1));
      rows.push(...(await query.orderBy('rule_event.user_id').orderBy('rule_event.ticker').orderBy('rule_event.kind').orderBy('rule_event.value').execute()));
    }
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
