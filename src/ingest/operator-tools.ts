/**
 * What the operator routes ask of the daily job, handed to the server by scripts/start.ts: check
 * uploaded exports with the job's own parser and rules, preview what publishing them would change, and publish
 * them by running the daily job on the archive plus the new files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config';
import {
  changesAgainstPublished,
  qualifiedCounts,
  type FilePreview,
  type FileProblem,
  type PublishResult,
  type PublishStage,
  type RunTrigger,
  type UploadedFile,
  type UploadPreview,
} from '../lib/domain/operator/operator';
import type { SignalRecord } from '../lib/domain/report/schemas';
import { readArchive, sha256 } from '../storage/archive';
import type { RunLog } from '../storage/run-log';
import { readBuildInfo } from '../storage/site-index';
import { runDaily, type DailyConfig } from './daily';
import { DailyJobError } from './error';
import { loadHistory } from './history';
import { openHistoryStore } from './history-store';
import { DEFAULT_EXPORT_LIMITS } from '../lib/domain/report/export';
import { parseExport, RefusedFileError, type ParsedExport } from './parse';
import { formatSummary } from './summary';

/** A check's answer: every problem, or the files read. */
type Checked = { problems: FileProblem[]; parsed: { file: UploadedFile; export: ParsedExport }[] };

async function check(files: readonly UploadedFile[]): Promise<Checked> {
  const problems: FileProblem[] = [];
  const parsed: Checked['parsed'] = [];
  for (const file of files) {
    try {
      parsed.push({ file, export: await parseExport(file.name, file.bytes) });
    } catch (error) {
      if (!(error instanceof RefusedFileError)) throw error;
      problems.push({ file: error.file, ...error.problem });
    }
  }
  return { problems, parsed };
}

function latestRecords(records: readonly SignalRecord[]): SignalRecord[] {
  const latest = records.reduce((max, r) => (r.reportDate > max ? r.reportDate : max), '');
  return records.filter((r) => r.reportDate === latest);
}

/** The operator tools over the daily job's settings; `runLog` records every publish. */
export function operatorTools(daily: DailyConfig, runLog: RunLog | null) {
  const at = (path: string) => resolve(PROJECT_ROOT, path);
  return {
    /** Every problem of the files, by the daily job's parser and rules (none: all of them would be accepted). */
    async validate(files: readonly UploadedFile[]): Promise<FileProblem[]> {
      return (await check(files)).problems;
    },

    /** What publishing the files would do, or their problems. */
    async preview(files: readonly UploadedFile[]): Promise<{ problems: FileProblem[] } | { preview: UploadPreview }> {
      const { problems, parsed } = await check(files);
      if (problems.length > 0) return { problems };
      const archiveDir = at(daily.archiveDir);
      const archived = await readArchive(archiveDir);
      const known = new Set(archived.map((f) => f.sha256));
      const warnings: string[] = [];
      const added = parsed.filter(({ file }) => {
        if (!known.has(sha256(file.bytes))) return true;
        warnings.push(`${file.name} is already in the archive (same bytes): publishing it changes nothing.`);
        return false;
      });
      for (const { file, export: e } of added) for (const w of e.warnings) warnings.push(`${file.name}:${w.row ?? ''}:${w.column ?? ''}: ${w.message}`);
      const loaded = await loadHistory(
        archiveDir,
        archived,
        added.map(({ file, export: e }) => ({ records: { fileName: file.name, records: e.records } })),
        at(daily.universeFile),
        daily.exportLimits,
        daily.historyStore === undefined ? null : await openHistoryStore(at(daily.historyStore), daily.exportLimits ?? DEFAULT_EXPORT_LIMITS),
      ).catch((error: Error) => {
        throw new DailyJobError(error.message);
      });
      warnings.push(...loaded.warnings);
      const published = await readBuildInfo(at(daily.distDir));
      const previews: FilePreview[] = parsed.map(({ file, export: e }) => {
        const reportDates = [...new Set(e.records.map((r) => r.reportDate))].sort();
        const replaces = archived.flatMap((a) => reportDates.filter((d) => a.reportDates.includes(d) && a.sha256 !== sha256(file.bytes)).map((reportDate) => ({ reportDate, file: a.fileName })));
        return {
          file: file.name,
          kind: e.kind,
          bytes: file.bytes.length,
          reportDates,
          rows: e.records.length,
          tickers: new Set(e.records.map((r) => r.ticker)).size,
          sheets: e.sheets.map((s) => ({ name: s.sheetName, rows: s.rowCount, isActive: s.isActive })),
          ...qualifiedCounts(latestRecords(e.records)),
          replaces,
        };
      });
      return { preview: { files: previews, changes: changesAgainstPublished(loaded.history, published?.reportDate ?? null), warnings } };
    },

    /** Runs the daily job on the archive plus `files`; never throws for a refusal: the result says it. */
    async publish(files: readonly UploadedFile[], trigger: RunTrigger, onStage: (stage: PublishStage) => void): Promise<PublishResult> {
      const source = await mkdtemp(join(tmpdir(), 'c-score-upload-'));
      try {
        for (const file of files) await writeFile(join(source, file.name), file.bytes);
        const names = files.map((f) => f.name);
        const config: DailyConfig = { ...daily, source, onStage, digestsInBackground: true, runLog: runLog === null ? undefined : { log: runLog, trigger, files: names } };
        const summary = await runDaily(config);
        return {
          outcome: summary.status,
          reportDate: (await readBuildInfo(at(daily.distDir)))?.reportDate ?? null,
          warnings: summary.warnings,
          messages: [],
          summary: formatSummary(summary, { source: `${trigger} of ${names.join(', ')}`, distDir: daily.distDir }),
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
        return { outcome: error instanceof DailyJobError ? 'refused' : 'failed', reportDate: null, warnings: [], messages: lines, summary: message };
      } finally {
        await rm(source, { recursive: true, force: true });
      }
    },
  };
}

/** The operator tools as the server receives them. */
export type OperatorToolsOf = ReturnType<typeof operatorTools>;
