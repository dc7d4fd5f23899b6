/**
 * The run log: one row per daily job, whatever started it (cron's `npm run daily`, an upload, the token
 * route, `npm start`), in the accounts database so every process writes the same log.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RunLogEntry, RunOutcome, RunTrigger } from '../lib/domain/operator/operator';
import { type Database, nowText } from './db';

export type { RunLogEntry };

/** How many runs /admin shows. */
export const RUN_LOG_SHOWN = 100;

/** How a run ended. */
export interface RunEnd {
  outcome: Exclude<RunOutcome, 'running'>;
  reportDate: string | null;
  files: string[];
  warnings: string[];
  messages: string[];
  notes: Record<string, string[]>;
}

function list<T>(text: string, empty: T): T {
  try {
    return (JSON.parse(text) as T) ?? empty;
  } catch {
    return empty;
  }
}

/** Writes and reads the run log. */
export class RunLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a run as started; its id for `finish`. */
  async start(trigger: RunTrigger, files: readonly string[]): Promise<{ id: string; startedAt: number }> {
    const id = randomUUID();
    const startedAt = this.now();
    await this.db
      .insertInto('run_log')
      .values({ id, trigger, started_at: nowText(startedAt), finished_at: null, duration_ms: null, outcome: 'running', report_date: null, files: JSON.stringify(files), warnings: '[]', messages: '[]', notes: '{}' })
      .execute();
    return { id, startedAt };
  }

  /** Records how the run `id` ended. */
  async finish(run: { id: string; startedAt: number }, end: RunEnd): Promise<void> {
    const finishedAt = this.now();
    await this.db
      .updateTable('run_log')
      .set({
        finished_at: nowText(finishedAt),
        duration_ms: Math.max(0, Math.round(finishedAt - run.startedAt)),
        outcome: end.outcome,
        report_date: end.reportDate,
        files: JSON.stringify(end.files),
        warnings: JSON.stringify(end.warnings),
        messages: JSON.stringify(end.messages),
        notes: JSON.stringify(end.notes),
      })
      .where('id', '=', run.id)
      .execute();
  }

  /**
   * Marks every run still "running" as failed with `note` (a killed job never wrote its end); the caller holds the
   * daily job's lock, so none of them is really running. The number closed.
   */
  async closeInterrupted(note: string): Promise<number> {
    const result = await this.db
      .updateTable('run_log')
      .set({ finished_at: nowText(this.now()), outcome: 'failed', messages: JSON.stringify([note]) })
      .where('outcome', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The latest runs, newest first. */
  async recent(limit = RUN_LOG_SHOWN): Promise<RunLogEntry[]> {
    const rows = await this.db.selectFrom('run_log').selectAll().orderBy('started_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      trigger: row.trigger as RunTrigger,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
      outcome: row.outcome as RunOutcome,
      reportDate: row.report_date,
      files: list<string[]>(row.files, []),
      warnings: list<string[]>(row.warnings, []),
      messages: list<string[]>(row.messages, []),
      notes: list<Record<string, string[]>>(row.notes, {}),
    }));
  }
}
