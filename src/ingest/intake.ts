/**
 * The daily job's first step, "accept new files": pull the source, skip what the archive already holds (by
 * SHA-256), and parse and validate the rest. One refused file refuses the run, before anything changes.
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { ArchivedFile } from '../lib/domain/schemas';
import { readArchive, sha256 } from '../storage/archive';
import { DailyJobError } from './error';
import type { FileRecords } from './history';
import { parseExport, RefusedFileError } from './parse';
import { pullSource } from './pull';

/** A new export file that passed every check: its bytes, its archive entry and its signal rows. */
export interface AcceptedFile {
  file: ArchivedFile;
  bytes: Uint8Array;
  records: FileRecords;
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

/** Pulls `source` and accepts every file the archive lacks; throws a DailyJobError listing every refused file, or when there is none at all. */
export async function acceptNewFiles(archiveDir: string, source: string, log: (line: string) => void): Promise<Intake> {
  const archived = await readArchive(archiveDir);
  const known = new Set(archived.map((file) => file.sha256));
  const pulled = await pullSource(/^https?:/i.test(source) ? source : resolve(PROJECT_ROOT, source));
  log(`Pulled ${pulled.files.length} file(s) from ${source}.`);

  const refused: RefusedFileError[] = [];
  const added: AcceptedFile[] = [];
  const warnings: string[] = [];
  let alreadyArchived = 0;
  const archivedAt = new Date().toISOString();
  for (const { name, bytes } of pulled.files) {
    const hash = sha256(bytes);
    if (known.has(hash)) {
      alreadyArchived += 1;
      continue;
    }
    known.add(hash);
    try {
      const parsed = await parseExport(name, bytes);
      for (const w of parsed.warnings) warnings.push(`${name}:${w.row ?? ''}:${w.column ?? ''}: ${w.message}`);
      added.push({
        bytes,
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
      });
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
