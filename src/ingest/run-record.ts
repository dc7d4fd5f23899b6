/**
 * The daily job's entry in the run log: written when the job starts and again when it ends, whatever
 * started it. A log that cannot be written never stops the job: it says so in the job's output instead.
 */
import type { RunTrigger } from '../lib/domain/operator/operator';
import type { RunEnd, RunLog } from '../storage/run-log';
import { DailyJobError } from './error';
import { withLock } from './publish';
import { gateNotes, type DailySummary } from './summary';

// The summary's lists that have their own column, or are not notes.
const OWN_COLUMNS = new Set(['warnings', 'addedFiles', 'reportDates']);

/** Every other list of text the summary carries (ignored files, gate overrides, ...), by its name. */
function notesOf(summary: DailySummary): Record<string, string[]> {
  const notes: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(summary)) {
    if (OWN_COLUMNS.has(key) || !Array.isArray(value) || value.length === 0) continue;
    if (value.every((item) => typeof item === 'string')) notes[key] = value as string[];
  }
  // The data gates' overrides and corrections are records: the run log keeps them as the lines the summary prints.
  return { ...notes, ...gateNotes(summary) };
}

/** Runs `work` (the daily job) and records its start and its end in `runLog` when given. */
export async function recordRun(
  runLog: { log: RunLog; trigger: RunTrigger; files?: string[] } | undefined,
  log: ((line: string) => void) | undefined,
  work: () => Promise<DailySummary>,
): Promise<DailySummary> {
  if (runLog === undefined) return work();
  const say = log ?? (() => undefined);
  const given = runLog.files ?? [];
  const run = await runLog.log.start(runLog.trigger, given).catch((error: Error) => {
    say(`The run log could not be written (${error.message}); the daily job runs anyway.`);
    return null;
  });
  const finish = async (end: RunEnd) => {
    if (run === null) return;
    await runLog.log.finish(run, end).catch((error: Error) => say(`The run log could not be written (${error.message}).`));
  };
  try {
    const summary = await work();
    await finish({
      outcome: summary.status,
      reportDate: summary.status === 'published' ? (summary.reportDates.at(-1) ?? null) : null,
      files: summary.addedFiles.length > 0 ? summary.addedFiles : given,
      warnings: summary.warnings,
      messages: [],
      notes: notesOf(summary),
    });
    return summary;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await finish({
      outcome: error instanceof DailyJobError ? 'refused' : 'failed',
      reportDate: null,
      files: given,
      warnings: [],
      messages: message.split('\n').filter((line) => line.trim() !== '').map((line) => line.trim()),
      notes: {},
    });
    throw error;
  }
}

/** What a run left "running" by a killed job says once the next start closes it. */
export const INTERRUPTED_RUN_NOTE = 'This run stopped before it finished (its process was killed or the server restarted); the next start closed it.';

/**
 * At start-up: closes the runs a killed job left "running", holding the daily job's lock so that a job running now
 * (here or on another host sharing REDIS_URL) keeps its row. When the lock is held or cannot be taken, nothing changes.
 */
export async function closeInterruptedRuns(runLog: RunLog, archiveDir: string, options: { redisUrl: string | null; log: (line: string) => void }): Promise<void> {
  try {
    const closed = await withLock(archiveDir, () => runLog.closeInterrupted(INTERRUPTED_RUN_NOTE), { redisUrl: options.redisUrl });
    if (closed > 0) options.log(`The run log had ${closed} run(s) left "running" by a stopped job: now marked failed.`);
  } catch (error) {
    options.log(`Runs left "running" in the run log were not checked (${(error as Error).message}); the next start checks again.`);
  }
}
