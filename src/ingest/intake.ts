/**
 * The daily job's first step, "accept new files": pull the source, skip what the archive already holds (by
 * SHA-256), and parse and validate the rest. One refused file refuses the run, before anything changes.
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../config';
import { DEFAULT_EXPORT_LIMITS, type ExportError, type ExportLimits } from '../lib/domain/report/export';
import type { ArchivedFile } from '../lib/domain/report/schemas';
import { readArchiveIndex, sha256 } from '../storage/archive';
import { DailyJobError } from './error';
import type { FileRecords } from './history';
import { fileScores, type FileScores } from './history-store';
import { checkFileSize, parseExport, RefusedFileError } from './parse';
import { pullSource } from './pull';

/**
 * A new export file that passed every check: its bytes, its archive entry, each report date's tickers and scores,
 * and its signal rows when it holds the latest report so far (the only rows the build needs whole: a fresh run over
 * years of exports keeps one file's rows in memory, not all of them).
 */
export interface AcceptedFile {
  file: ArchivedFile;
  bytes: Uint8Array;
  scores: FileScores;
  records: FileRecords | null;
}

/** What the archive held, what the pull added to it, and the counts the summary shows. */
export interface Intake {
  archived: ArchivedFile[];
  added: AcceptedFile[];
  pulled: number;
  alreadyArchived: number;
  ignored: string[];
  /** Cells of the new files read as 0 and labels ignored, as file:row:column: message. */
  warnings: string[];
}

/**
 * Pulls `source` (unless `pull` is false: a withdrawal works on the archive alone) and accepts every file the archive
 * lacks; throws a DailyJobError listing every refused file, or when there is none at all.
 */
export async function acceptNewFiles(
  archiveDir: string,
  source: string,
  log: (line: string) => void,
  { limits = DEFAULT_EXPORT_LIMITS, pull = true, now = Date.now }: { limits?: ExportLimits; pull?: boolean; now?: () => number } = {},
): Promise<Intake> {
  const { files: archived, withdrawn } = await readArchiveIndex(archiveDir);
  const known = new Set(archived.map((file) => file.sha256));
  const withdrawnBy = new Map(withdrawn.map((file) => [file.sha256, file]));
  const pulled = pull ? await pullSource(/^https?:/i.test(source) ? source : resolve(PROJECT_ROOT, source), limits.maxBytes) : { files: [], ignored: [] };
  if (pull) log(`Pulled ${pulled.files.length} file(s) from ${source}.`);

  const refused: RefusedFileError[] = [];
  const added: AcceptedFile[] = [];
  const warnings: string[] = [];
  let alreadyArchived = 0;
  // A file's time is its archiving's: set once here, kept in the index through every later rebuild.
  const archivedAt = new Date(now()).toISOString();
  let latest: { date: string; file: AcceptedFile } | null = null;
  for (const { name, bytes, tooLarge } of pulled.files) {
    if (tooLarge !== undefined) {
      try {
        checkFileSize(tooLarge, limits);
      } catch (error) {
        refused.push(new RefusedFileError(name, (error as ExportError).problem));
      }
      continue;
    }
    const hash = sha256(bytes);
    if (known.has(hash)) {
      alreadyArchived += 1;
      continue;
    }
    const withdrawnFile = withdrawnBy.get(hash);
    if (withdrawnFile !== undefined) {
      warnings.push(`${name}: withdrawn from the archive on ${withdrawnFile.withdrawnAt.slice(0, 10)} (as ${withdrawnFile.fileName}), so it is skipped; remove it from the source.`);
      continue;
    }
    known.add(hash);
    try {
      const parsed = await parseExport(name, bytes, limits);
      for (const w of parsed.warnings) warnings.push(`${name}:${w.row ?? ''}:${w.column ?? ''}: ${w.message}`);
      const accepted: AcceptedFile = {
        bytes,
        scores: fileScores(name, parsed.records),
        records: { fileName: name, records: parsed.records },
        file: {
          id: hash.slice(0, 16),
          sha256: hash,
          fileName: name,
          kind: parsed.kind,
          bytes: bytes.length,
          archivedAt,
          reportDates: [...new Set(parsed.records.map((r) => r.reportDate))].sort(),
          rowCount: parsed.records.length,
          sheets: parsed.sheets,
        },
      };
      added.push(accepted);
      // Rows are kept for the file that holds the latest report date so far (a later file wins a tie, as in the history).
      const last = accepted.file.reportDates.at(-1) ?? '';
      if (latest === null || last >= latest.date) {
        if (latest !== null) latest.file.records = null;
        latest = { date: last, file: accepted };
      } else {
        accepted.records = null;
      }
    } catch (error) {
      if (error instanceof RefusedFileError) refused.push(error);
      else throw error;
    }
  }
  if (refused.length > 0) {
    throw new DailyJobError(
      [
        `Refused ${refused.length} file(s); nothing was archived or published, the site stays as it was:`,
        ...refused.map((error) => `  ${error.message}`),
        'Fix the file(s) at the source and run the daily job again.',
      ].join('\n'),
    );
  }
  if (archived.length + added.length === 0) {
    throw new DailyJobError(`No export files in ${source}: put at least one .csv or .xlsx export there (or set SIGNALS_SOURCE).`);
  }
  return { archived, added, pulled: pulled.files.length, alreadyArchived, ignored: pulled.ignored, warnings };
}
