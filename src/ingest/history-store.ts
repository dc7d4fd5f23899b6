/**
 * What parsing an archived file produced, kept between runs so a run parses only new files (issue 15): per file,
 * each report date's tickers and C-Scores, which is all the history needs from a file that does not hold the latest
 * report. One JSON file per archived file, named by the file's SHA-256. An entry made by another version of the
 * parser or with other limits, or one that does not read back whole, is ignored and made again from the archive,
 * which stays the single source of truth.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { ExportLimits } from '../lib/domain/export';
import type { ArchivedFile, SignalRecord } from '../lib/domain/schemas';

/** One report date of a file: its tickers and their C-Scores, in the same order. */
export interface DateScores {
  date: string;
  tickers: string[];
  scores: number[];
}

/** One archived file's contribution to the history. */
export interface FileScores {
  fileName: string;
  rows: number;
  dates: DateScores[];
}

// The code whose output the store keeps: a change to any of it makes every entry stale.
const PARSER_CODE = [
  'src/ingest/parse.ts',
  'src/ingest/xlsx-probe.ts',
  'src/ingest/history-store.ts',
  'src/lib/domain/export.ts',
  'src/lib/domain/explain.ts',
  'src/lib/domain/schemas.ts',
  'src/lib/domain/text.ts',
  'src/lib/domain/ticker.ts',
  'package-lock.json',
];

/** A file's records as the store keeps them: each report date's tickers and C-Scores. */
export function fileScores(fileName: string, records: readonly SignalRecord[]): FileScores {
  const byDate = new Map<string, DateScores>();
  for (const record of records) {
    let date = byDate.get(record.reportDate);
    if (!date) byDate.set(record.reportDate, (date = { date: record.reportDate, tickers: [], scores: [] }));
    date.tickers.push(record.ticker);
    date.scores.push(record.cScore);
  }
  return { fileName, rows: records.length, dates: [...byDate.values()] };
}

/** The version of the parser and limits an entry must have been made with. */
export async function parserVersion(limits: ExportLimits): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(limits));
  for (const path of PARSER_CODE) hash.update(path).update(await readFile(join(PROJECT_ROOT, path)));
  return hash.digest('hex').slice(0, 32);
}

function isFileScores(value: unknown, fileName: string): value is FileScores {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<FileScores>;
  if (v.fileName !== fileName || typeof v.rows !== 'number' || !Array.isArray(v.dates)) return false;
  let rows = 0;
  for (const d of v.dates) {
    if (typeof d?.date !== 'string' || !Array.isArray(d.tickers) || !Array.isArray(d.scores) || d.tickers.length !== d.scores.length) return false;
    if (!d.scores.every((s) => typeof s === 'number' && Number.isFinite(s))) return false;
    rows += d.tickers.length;
  }
  return rows === v.rows;
}

/** The store of parsed files under `dir`, for entries of parser version `version`. */
export class HistoryStore {
  /** Entries read back, made again, and found stale or unreadable this run. */
  readonly counts = { reused: 0, made: 0, rebuilt: 0 };

  constructor(
    readonly dir: string,
    readonly version: string,
  ) {}

  private path(file: ArchivedFile): string {
    return join(this.dir, `${file.sha256}.json`);
  }

  /** The stored entry of `file`, or null when there is none, it is stale or it does not read back whole. */
  async read(file: ArchivedFile): Promise<FileScores | null> {
    let text: string;
    try {
      text = await readFile(this.path(file), 'utf8');
    } catch {
      return null;
    }
    try {
      const entry = JSON.parse(text) as { version?: unknown; sha256?: unknown; scores?: unknown };
      if (entry.version === this.version && entry.sha256 === file.sha256 && isFileScores(entry.scores, file.fileName)) {
        this.counts.reused++;
        return entry.scores;
      }
    } catch {
      // A truncated or corrupt entry: made again below like a stale one.
    }
    this.counts.rebuilt++;
    return null;
  }

  /** Keeps `scores` as the entry of `file` (written whole, then renamed into place). */
  async write(file: ArchivedFile, scores: FileScores): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temp = `${this.path(file)}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify({ version: this.version, sha256: file.sha256, scores }));
    await rename(temp, this.path(file));
    this.counts.made++;
  }
}

/** Opens the store under `dir` for the running parser and `limits`. */
export async function openHistoryStore(dir: string, limits: ExportLimits): Promise<HistoryStore> {
  return new HistoryStore(dir, await parserVersion(limits));
}
