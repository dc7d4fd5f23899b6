/**
 * The accounts database (DESIGN.md "Accounts and entitlements"): SQLite through Node's built-in `node:sqlite` at
 * DATABASE_FILE (data/app.db) by default, PostgreSQL through a `pg` Pool when DATABASE_URL is set. One Kysely
 * instance serves Better Auth's tables and ours; every query is written once for both.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import pg from 'pg';
import { NodeSqliteDialect } from './db-sqlite-dialect';

/** Better Auth's tables, as far as our queries read them (its migrations create them). */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  stripeCustomerId?: string | null;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date | string | number;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface AccountTable {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  password: string | null;
  createdAt: Date | string;
}

export interface SubscriptionTable {
  id: string;
  plan: string;
  referenceId: string;
  status: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  periodStart: Date | string | null;
  periodEnd: Date | string | null;
  cancelAtPeriodEnd: boolean | number | null;
}

/** Our tables. */
export interface WatchlistTable {
  user_id: string;
  ticker: string;
  added_at: string;
}

/** Pro granted by an operator (`npm run admin -- grant-pro EMAIL`), beside any Stripe subscription. */
export interface PlanGrantTable {
  user_id: string;
  plan: string;
  granted_at: string;
  /** The operator's user id; null for the shell command (`npm run admin`) and grants older than this column. */
  granted_by: string | null;
}

/** When an account's email was proven (confirmation link or emailed sign-in link): one row per proven account. */
export interface EmailProofTable {
  user_id: string;
  proven_at: string;
}

/** One daily job, whatever started it (the run log); lists are JSON text. */
export interface RunLogTable {
  id: string;
  trigger: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  outcome: string;
  report_date: string | null;
  files: string;
  warnings: string;
  /** The job's refusal or failure messages. */
  messages: string;
  /** Every other list of notes the job's summary carried, by its name. */
  notes: string;
}

/** An API token for automation: only its SHA-256 is kept. */
export interface ApiTokenTable {
  id: string;
  token_hash: string;
  label: string;
  /** The creator's email (as listed on /admin). */
  created_by: string;
  /** The creator's user id: a token works only while its creator is a confirmed operator. */
  created_by_id: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One signal event of one report: stored once, whatever re-runs the report. */
export interface SignalEventTable {
  report_date: string;
  ticker: string;
  kind: string;
  direction: string;
  score_before: number | null;
  score_after: number;
  /** 1 for a borderline flicker around a threshold (kind "crossed"), else 0. */
  borderline: number;
  created_at: string;
}

/** A user's alert settings; no row is the defaults (alerts off). */
export interface AlertSettingsTable {
  user_id: string;
  /** 1 on, 0 off. */
  enabled: number;
  /** The event kinds, comma-separated. */
  kinds: string;
  /** Where the digest goes; null: the account's email. */
  address: string | null;
  /** When the owner of `address` opened its confirmation link; null: not confirmed (no digest goes there). */
  address_confirmed_at: string | null;
  /** SHA-256 of the pending confirmation link's token for `address`. */
  address_token_hash: string | null;
  /** When the last confirmation link was sent (its 24 hours, and one a minute at most). */
  address_token_sent_at: string | null;
  /** The one-click unsubscribe link's secret. */
  unsubscribe_token: string;
  /** SHA-256 of the private feed's token, null until one is made. */
  feed_token_hash: string | null;
  updated_at: string;
}

/** One digest mail in the sending queue: composed once, sent at most once. */
export interface DigestQueueTable {
  id: string;
  user_id: string;
  report_date: string;
  address: string;
  subject: string;
  body_text: string;
  body_html: string;
  unsubscribe_url: string;
  /** pending, sending, sent, failed or unconfirmed (a sender stopped between claiming and recording it). */
  state: string;
  attempts: number;
  next_attempt_at: string;
  claimed_at: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** A stored AI text: the daily brief (`subject` "brief") or a ticker's analysis, once per report date and model. */
export interface AiTextTable {
  report_date: string;
  subject: string;
  model: string;
  /** The text shown: the model's, or "" when the facts alone are shown. */
  text: string;
  /** `checked` (every number in the facts) or `facts-only` (failed the check twice). */
  outcome: string;
  /** The facts sheet the model was given, as Markdown. */
  facts: string;
  tokens: number;
  created_at: string;
}

/** One AI request that counts: against a user's (or address's) daily allowance, and its tokens against the site's budget. */
export interface AiUsageTable {
  id: string;
  day: string;
  user_key: string;
  use: string;
  tokens: number;
  created_at: string;
}

/** A signed-in user's AI conversation, kept on the account until deleted. */
export interface AiChatTable {
  id: string;
  user_id: string;
  title: string;
  /** The UI messages as JSON. */
  messages: string;
  updated_at: string;
}

/** A trading day whose grouped daily bars are stored, and where they came from. */
export interface PriceDayTable {
  date: string;
  /** `polygon` or `demo`: a day fetched from another source than the job's is fetched again. */
  source: string;
  tickers: number;
  fetched_at: string;
}

/** One ticker's close on one stored day. */
export interface PriceBarTable {
  date: string;
  ticker: string;
  close: number;
}

/** One recorded ledger entry: what the report said when the entry was first recorded. */
export interface LedgerEntryTable {
  ticker: string;
  report_date: string;
  direction: string;
  c_score: number;
  exit_date: string | null;
  recorded_at: string;
  /** The supporting scores of the report it qualified on, when the job recorded it on that report's run (else null). */
  delta_score: number | null;
  market_score: number | null;
  accuracy_score: number | null;
  relevance_score: number | null;
}

/** A saved screen of an account: its canonical query and the stocks it held on the last report it was run on. */
export interface SavedScreenTable {
  id: string;
  user_id: string;
  name: string;
  query: string;
  /** 1: new entries go into the account's digest. */
  alert: number;
  /** The tickers in the screen on `members_report`, comma-separated. */
  members: string;
  members_report: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's own alert rule on one ticker (src/lib/domain/alerts/rules.ts). */
export interface AlertRuleTable {
  id: string;
  user_id: string;
  ticker: string;
  /** above, below or move. */
  kind: string;
  value: number;
  created_at: string;
}

/** A rule that fired on a report: stored once per rule and report, so a report published twice alerts once. */
export interface RuleEventTable {
  rule_id: string;
  report_date: string;
  user_id: string;
  ticker: string;
  kind: string;
  value: number;
  score_before: number;
  score_after: number;
  created_at: string;
}

/** A browser's Web Push subscription (its PushSubscription JSON), for the signed-in user who made it. */
export interface PushSubscriptionTable {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

/** One user's notification of one report: claimed before sending, so it goes at most once. */
export interface PushDeliveryTable {
  user_id: string;
  report_date: string;
  /** sending, sent or failed. */
  state: string;
  claimed_at: string;
  note: string | null;
}

/** An account's API key for the open API: only its SHA-256 is kept, and its first characters to tell keys apart. */
export interface ApiKeyTable {
  id: string;
  user_id: string;
  label: string;
  key_hash: string;
  key_start: string;
  created_at: string;
  revoked_at: string | null;
}

/** Requests a key made on one UTC day (without REDIS_URL; with it Redis counts). */
export interface ApiKeyUsageTable {
  key_id: string;
  day: string;
  count: number;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  subscription: SubscriptionTable;
  watchlist: WatchlistTable;
  plan_grant: PlanGrantTable;
  email_proof: EmailProofTable;
  run_log: RunLogTable;
  api_token: ApiTokenTable;
  signal_event: SignalEventTable;
  alert_settings: AlertSettingsTable;
  digest_queue: DigestQueueTable;
  ai_text: AiTextTable;
  ai_usage: AiUsageTable;
  ai_chat: AiChatTable;
  price_day: PriceDayTable;
  price_bar: PriceBarTable;
  ledger_entry: LedgerEntryTable;
  saved_screen: SavedScreenTable;
  alert_rule: AlertRuleTable;
  rule_event: RuleEventTable;
  push_subscription: PushSubscriptionTable;
  push_delivery: PushDeliveryTable;
  api_key: ApiKeyTable;
  api_key_usage: ApiKeyUsageTable;
}

export type DatabaseType = 'sqlite' | 'postgres';

/** An open database: the Kysely instance, its dialect and how to close it. */
export interface AppDatabase {
  db: Kysely<Database>;
  type: DatabaseType;
  /** Where it lives, for log lines: the SQLite file, or the PostgreSQL host and database (no password). */
  where: string;
  close(): Promise<void>;
}

/** The accounts database cannot be used as it is: the message is one line naming it and what to do. */
export class DatabaseCheckError extends Error {
  override name = 'DatabaseCheckError';
}

function sqliteRefusal(file: string, problem: string): DatabaseCheckError {
  return new DatabaseCheckError(
    `DATABASE_FILE ${file} ${problem}, so the server did not start: restore the file from a backup, or move it aside to start with an empty database (its accounts would be gone).`,
  );
}

/** The size of a file, or null when there is none. */
function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

/**
 * Opens PostgreSQL at `url` when given, else the SQLite file (its folder created). Runs no migration. A SQLite file
 * that exists but is empty (0 bytes, with no write-ahead log to recover from) is refused: a new database is made only
 * where no file is, so a file emptied by accident never turns silently into a fresh one without its accounts.
 */
export function openDatabase(settings: { url: string | null; file: string }): AppDatabase {
  if (settings.url !== null) {
    const pool = new pg.Pool({ connectionString: settings.url, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(settings.url);
    return { db, type: 'postgres', where: `postgres://${url.host}${url.pathname}`, close: () => db.destroy() };
  }
  const { file } = settings;
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
    if (sizeOf(file) === 0 && !((sizeOf(`${file}-wal`) ?? 0) > 0)) throw sqliteRefusal(file, 'is an empty file (0 bytes) where a database was');
  }
  let database: DatabaseSync | undefined;
  try {
    database = new DatabaseSync(file);
    database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;');
  } catch (error) {
    if (database?.isOpen) database.close();
    throw sqliteRefusal(file, `is damaged (SQLite says: ${(error as Error).message})`);
  }
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(database) });
  return { db, type: 'sqlite', where: file, close: () => db.destroy() };
}

/** The smallest query that needs a working connection: the health answer and PostgreSQL's start check ask it. */
async function sanityQuery(db: Kysely<Database>): Promise<void> {
  await sql`select 1 as one`.execute(db);
}

/** Whether the database answers its sanity query within `timeoutMs` (/api/health). */
export async function databaseAnswers(database: AppDatabase, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([sanityQuery(database.db).then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The start-up check (before any migration): SQLite's `PRAGMA quick_check` (every page and record readable, without
 * the index cross-check of integrity_check), PostgreSQL's connection and a sanity query. Throws DatabaseCheckError.
 */
export async function checkDatabase(database: AppDatabase): Promise<void> {
  if (database.type === 'postgres') {
    try {
      await sanityQuery(database.db);
    } catch (error) {
      throw new DatabaseCheckError(
        `The database at DATABASE_URL ${database.where} cannot be used (${(error as Error).message}), so the server did not start: check that PostgreSQL is running and that DATABASE_URL names its host, database, user and password.`,
      );
    }
    return;
  }
  let problem: string;
  try {
    const { rows } = await sql<Record<string, string>>`pragma quick_check`.execute(database.db);
    const lines = rows.map((row) => String(Object.values(row)[0]));
    if (lines.length === 1 && lines[0] === 'ok') return;
    problem = lines.join('; ');
  } catch (error) {
    problem = (error as Error).message;
  }
  const shown = problem.length > 120 ? `${problem.slice(0, 117)}...` : problem;
  throw sqliteRefusal(database.where, `is damaged (SQLite says: ${shown.replace(/\s+/g, ' ')})`);
}

/** Our migrations, in order; Better Auth's run first (`migrate` in src/server/auth/index.ts), so "user" exists. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-24-01-watchlist': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('watchlist')
        .ifNotExists()
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('added_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('watchlist_pk', ['user_id', 'ticker'])
        .execute();
    },
  },
  '2026-11-24-02-plan-grant': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('plan_grant')
        .ifNotExists()
        .addColumn('user_id', 'text', (col) => col.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('plan', 'text', (col) => col.notNull())
        .addColumn('granted_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '2026-11-25-operator-01-run-log': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('run_log')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('trigger', 'text', (col) => col.notNull())
        .addColumn('started_at', 'text', (col) => col.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('report_date', 'text')
        .addColumn('files', 'text', (col) => col.notNull())
        .addColumn('warnings', 'text', (col) => col.notNull())
        .addColumn('messages', 'text', (col) => col.notNull())
        .addColumn('notes', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('run_log_started_at').ifNotExists().on('run_log').column('started_at').execute();
    },
  },
  '2026-11-25-operator-02-api-token': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_token')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('label', 'text', (col) => col.notNull())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
    },
  },
  '2026-11-26-alerts-01-signal-event': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('signal_event')
        .ifNotExists()
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('direction', 'text', (col) => col.notNull())
        .addColumn('score_before', 'double precision')
        .addColumn('score_after', 'double precision', (col) => col.notNull())
        .addColumn('borderline', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('signal_event_pk', ['report_date', 'ticker', 'kind'])
        .execute();
      await db.schema.createIndex('signal_event_ticker').ifNotExists().on('signal_event').columns(['ticker', 'report_date']).execute();
    },
  },
  '2026-11-26-alerts-02-alert-settings': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alert_settings')
        .ifNotExists()
        .addColumn('user_id', 'text', (col) => col.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (col) => col.notNull())
        .addColumn('kinds', 'text', (col) => col.notNull())
        .addColumn('address', 'text')
        .addColumn('unsubscribe_token', 'text', (col) => col.notNull().unique())
        .addColumn('feed_token_hash', 'text', (col) => col.unique())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '2026-11-26-alerts-03-digest-queue': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('digest_queue')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('address', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('body_text', 'text', (col) => col.notNull())
        .addColumn('body_html', 'text', (col) => col.notNull())
        .addColumn('unsubscribe_url', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('next_attempt_at', 'text', (col) => col.notNull())
        .addColumn('claimed_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('digest_queue_user_report', ['user_id', 'report_date'])
        .execute();
      await db.schema.createIndex('digest_queue_due').ifNotExists().on('digest_queue').columns(['state', 'next_attempt_at']).execute();
    },
  },
  // Named after the alerts' migrations so that a database which ran those first applies this one in order too.
  '2026-11-27-ai-01-texts-usage-chats': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ai_text')
        .ifNotExists()
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('model', 'text', (col) => col.notNull())
        .addColumn('text', 'text', (col) => col.notNull())
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('facts', 'text', (col) => col.notNull())
        .addColumn('tokens', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('ai_text_pk', ['report_date', 'subject', 'model'])
        .execute();
      await db.schema
        .createTable('ai_usage')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('user_key', 'text', (col) => col.notNull())
        .addColumn('use', 'text', (col) => col.notNull())
        .addColumn('tokens', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('ai_usage_day_user').ifNotExists().on('ai_usage').columns(['day', 'user_key', 'use']).execute();
      await db.schema
        .createTable('ai_chat')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('messages', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('ai_chat_user').ifNotExists().on('ai_chat').columns(['user_id', 'updated_at']).execute();
    },
  },
  '2026-11-28-track-01-prices-ledger': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('price_day')
        .ifNotExists()
        .addColumn('date', 'text', (col) => col.primaryKey())
        .addColumn('source', 'text', (col) => col.notNull())
        .addColumn('tickers', 'integer', (col) => col.notNull())
        .addColumn('fetched_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('price_bar')
        .ifNotExists()
        .addColumn('date', 'text', (col) => col.notNull())
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('close', 'double precision', (col) => col.notNull())
        .addPrimaryKeyConstraint('price_bar_pk', ['date', 'ticker'])
        .execute();
      await db.schema
        .createTable('ledger_entry')
        .ifNotExists()
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('direction', 'text', (col) => col.notNull())
        .addColumn('c_score', 'double precision', (col) => col.notNull())
        .addColumn('exit_date', 'text')
        .addColumn('recorded_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('ledger_entry_pk', ['ticker', 'report_date'])
        .execute();
    },
  },
  // Roles need a proven address: the proof's moment, and who made each token and grant (revoked if made unproven).
  '2026-11-29-security-01-email-proof': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('email_proof')
        .ifNotExists()
        .addColumn('user_id', 'text', (col) => col.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('proven_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.alterTable('api_token').addColumn('created_by_id', 'text').execute();
      await db.schema.alterTable('plan_grant').addColumn('granted_by', 'text').execute();
      await backfillEmailProof(db as Kysely<Database>);
    },
  },
  // A digest address gets mail only once its owner confirms it; addresses saved before stay unconfirmed until then.
  '2026-11-29-security-02-digest-address': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('alert_settings').addColumn('address_confirmed_at', 'text').execute();
      await db.schema.alterTable('alert_settings').addColumn('address_token_hash', 'text').execute();
      await db.schema.alterTable('alert_settings').addColumn('address_token_sent_at', 'text').execute();
      // SQLite cannot add a UNIQUE column: the index makes it one.
      await db.schema.createIndex('alert_settings_address_token').ifNotExists().unique().on('alert_settings').column('address_token_hash').execute();
    },
  },
  '2026-11-30-push-01-rules-subscriptions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alert_rule')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('value', 'double precision', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('alert_rule_unique', ['user_id', 'ticker', 'kind', 'value'])
        .execute();
      await db.schema.createIndex('alert_rule_ticker').ifNotExists().on('alert_rule').columns(['ticker', 'kind', 'value']).execute();
      await db.schema
        .createTable('rule_event')
        .ifNotExists()
        .addColumn('rule_id', 'text', (col) => col.notNull())
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('ticker', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('value', 'double precision', (col) => col.notNull())
        .addColumn('score_before', 'double precision', (col) => col.notNull())
        .addColumn('score_after', 'double precision', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('rule_event_pk', ['rule_id', 'report_date'])
        .execute();
      await db.schema.createIndex('rule_event_report_user').ifNotExists().on('rule_event').columns(['report_date', 'user_id']).execute();
      await db.schema
        .createTable('push_subscription')
        .ifNotExists()
        .addColumn('endpoint', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('p256dh', 'text', (col) => col.notNull())
        .addColumn('auth', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('push_subscription_user').ifNotExists().on('push_subscription').column('user_id').execute();
      await db.schema
        .createTable('push_delivery')
        .ifNotExists()
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('report_date', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('claimed_at', 'text', (col) => col.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('push_delivery_pk', ['user_id', 'report_date'])
        .execute();
    },
  },
  '2026-11-30-screener-01-saved-screen': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('saved_screen')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('query', 'text', (col) => col.notNull())
        .addColumn('alert', 'integer', (col) => col.notNull().defaultTo(1))
        .addColumn('members', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('members_report', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('saved_screen_user').ifNotExists().on('saved_screen').columns(['user_id', 'created_at']).execute();
    },
  },
  // A signal's permalink shows the supporting scores of the day it qualified: recorded with the entry from then on.
  '2026-11-30-track-02-ledger-scores': {
    async up(db: Kysely<unknown>) {
      for (const column of ['delta_score', 'market_score', 'accuracy_score', 'relevance_score']) {
        await db.schema.alterTable('ledger_entry').addColumn(column, 'double precision').execute();
      }
    },
  },
  '2026-12-02-api-01-api-key': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_key')
        .ifNotExists()
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
        .addColumn('label', 'text', (col) => col.notNull())
        .addColumn('key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('key_start', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_key_user').ifNotExists().on('api_key').columns(['user_id', 'created_at']).execute();
      await db.schema
        .createTable('api_key_usage')
        .ifNotExists()
        .addColumn('key_id', 'text', (col) => col.notNull().references('api_key.id').onDelete('cascade'))
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'day'])
        .execute();
    },
  },
};

/**
 * An existing database: each confirmed account gets a proof dated at its last change (a confirmation is a change, so
 * the proof is never earlier than the real one), and each token its creator's id (by email).
 */
async function backfillEmailProof(db: Kysely<Database>): Promise<void> {
  const users = await db.selectFrom('user').select(['id', 'emailVerified', 'updatedAt']).execute();
  const proven = users
    .filter((user) => asBoolean(user.emailVerified))
    .map((user) => ({ user_id: user.id, proven_at: (asDate(user.updatedAt) ?? new Date()).toISOString() }));
  for (const batch of chunks(proven, ROWS_PER_STATEMENT)) await db.insertInto('email_proof').values(batch).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  await db
    .updateTable('api_token')
    .set((eb) => ({ created_by_id: eb.selectFrom('user').select('user.id').whereRef('user.email', '=', 'api_token.created_by').limit(1) }))
    .execute();
}

/** Rows per multi-row insert in the migrations (well under both databases' bound-value limits). */
const ROWS_PER_STATEMENT = 200;

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** Runs our pending migrations; throws with the failing one's name. */
export async function migrateOwnTables(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'app_migration', migrationLockTableName: 'app_migration_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`The database migration ${failed} failed: ${(error as Error).message}`);
  }
}

/** The dates our tables store: ISO text on both databases. */
export const nowText = (now = Date.now()): string => new Date(now).toISOString();

/** `items` in runs of at most `size`: multi-row inserts stay under SQLite's and PostgreSQL's bound-value limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A boolean from whatever the driver returns for one (boolean on PostgreSQL, 0/1 on SQLite, 't' or '1' as text). */
export function asBoolean(value: boolean | number | string | null | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** A Date from whatever the driver returns for a Better Auth date (Date on PostgreSQL, text or ms on SQLite). */
export function asDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export { sql };
