/**
 * What parsing an archived file produced, kept between runs so a run parses only new files: per file,
 * each report date's tickers and C-Scores, which is all the history needs from a file that does not hold the latest
 * report. One JSON file per archived file, named by the file's SHA-256. An entry made by another version of the
 * parser or with other limits, or one that does not read back whole, is ignored and made again from the archive,
 * which stays the single source of truth.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { ExportLimits } from '../lib/domain/report/export';
import type { ArchivedFile, SignalRecord } from '../lib/domain/report/schemas';
import { isStringArray as isStrings, readMatrixFile, writeMatrixFile } from '../storage/matrix-file';
import { signalDirection } from '../lib/domain/signals/signal';
import type { SupportingScoreValues } from '../lib/domain/track-record/track-record';

/** One report date of a file: its tickers and their C-Scores, in the same order. */
export interface DateScores {
  date: string;
  tickers: string[];
  scores: number[];
  /**
   * The supporting scores of the rows that qualified (bullish or bearish), by ticker: what the ledger's entries of that
   * day show. Absent in an entry made before they were kept.
   */
  qualified?: Record<string, SupportingScoreValues>;
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
  'src/lib/domain/report/export.ts',
  'src/lib/domain/text/explain.ts',
  'src/lib/domain/report/schemas.ts',
  'src/lib/domain/text/text.ts',
  'src/lib/domain/report/ticker.ts',
  'package-lock.json',
];

/** A file's records as the store keeps them: each report date's tickers and C-Scores. */
export function fileScores(fileName: string, records: readonly SignalRecord[]): FileScores {
  const byDate = new Map<string, DateScores>();
  for (const record of records) {
    let date = byDate.get(record.reportDate);
    if (!date) byDate.set(record.reportDate, (date = { date: record.reportDate, tickers: [], scores: [], qualified: {} }));
    date.tickers.push(record.ticker);
    date.scores.push(record.cScore);
    if (signalDirection(record.cScore) !== 'neutral') date.qualified![record.ticker] = [record.deltaScore, record.marketScore, record.accuracyScore, record.relevanceScore];
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
    if (d.qualified !== undefined && (typeof d.qualified !== 'object' || d.qualified === null)) return false;
    rows += d.tickers.length;
  }
  return rows === v.rows;
}

/** The assembled history's header in its matrix file: everything but the values, and the parser version. */
type AssembledHeader = Omit<AssembledHistory, 'values'> & { version: string };

function isAssembledHeader(value: unknown, version: string): value is AssembledHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Partial<AssembledHeader>;
  return (
    h.version === version &&
    isStrings(h.files) &&
    isStrings(h.fileNames) &&
    h.fileNames.length === h.files.length &&
    isStrings(h.dates) &&
    isStrings(h.tickers) &&
    isStrings(h.warnings) &&
    typeof h.rows === 'number' &&
    Array.isArray(h.dateFiles) &&
    h.dateFiles.length === h.dates.length &&
    h.dateFiles.every((i) => Number.isInteger(i) && i >= 0 && i < h.files!.length)
  );
}

/** The store of parsed files under `dir`, for entries of parser version `version`. */
export class HistoryStore {
  /**
   * Archived files whose scores came from the assembled history, entries read back, made again, and found stale or
   * unreadable this run.
   */
  readonly counts = { assembled: 0, reused: 0, made: 0, rebuilt: 0 };

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

  private get assembledPath(): string {
    return join(this.dir, 'assembled.bin');
  }

  /** Where the daily job keeps the track record's closes beside the history (closes-cache.ts). */
  get closesPath(): string {
    return join(this.dir, 'closes.bin');
  }

  /** The assembled history last kept, or null when there is none, it is stale or it does not read back whole. */
  async readAssembled(): Promise<AssembledHistory | null> {
    const file = await readMatrixFile<AssembledHeader>(this.assembledPath, (h) => (isAssembledHeader(h, this.version) ? h.tickers.length * h.dates.length : null));
    if (!file) return null;
    const { version: _, ...header } = file.header;
    return { ...header, values: file.values };
  }

  /** Keeps `history` as the assembled history (written whole, then renamed into place). */
  async writeAssembled(history: AssembledHistory): Promise<void> {
    const { values, ...header } = history;
    await writeMatrixFile(this.assembledPath, { version: this.version, ...header } satisfies AssembledHeader, values);
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

/**
 * Every archived file's scores assembled into one matrix, as buildHistory lays them out: the report dates ascending
 * (a date in two files from the one archived later), the tickers in order of first appearance. The store keeps it as
 * one file, so a run reads the whole history in one call and adds only the new files' days.
 */
export interface AssembledHistory {
  /** The SHA-256 of each file it was assembled from, in archive order. */
  files: string[];
  fileNames: string[];
  dates: string[];
  /** For each date, the index (in `files`) of the file its scores come from. */
  dateFiles: number[];
  tickers: string[];
  /** The rows of all the files. */
  rows: number;
  /** The dates found in two files, and which one was used. */
  warnings: string[];
  /** `tickers.length` x `dates.length`, a ticker's scores together; NaN: the ticker was not in that report. */
  values: Float64Array;
}

/** A file's scores as the assembly takes them: its SHA-256 beside what parsing it produced. */
export interface HashedScores {
  sha256: string;
  scores: FileScores;
}

/** Assembles `files` (in archive order) from scratch. */
export function assembleHistory(files: readonly HashedScores[]): AssembledHistory {
  const warnings: string[] = [];
  const byDate = new Map<string, { file: number; scores: DateScores }>();
  files.forEach(({ scores: file }, index) => {
    for (const scores of file.dates) {
      const earlier = byDate.get(scores.date);
      if (earlier) warnings.push(`${scores.date} is in ${files[earlier.file]!.scores.fileName} and ${file.fileName}: using ${file.fileName}, archived later.`);
      byDate.set(scores.date, { file: index, scores });
    }
  });
  const dates = [...byDate.keys()].sort();
  const empty: AssembledHistory = {
    files: files.map((f) => f.sha256),
    fileNames: files.map((f) => f.scores.fileName),
    dates: [],
    dateFiles: [],
    tickers: [],
    rows: files.reduce((sum, f) => sum + f.scores.rows, 0),
    warnings,
    values: new Float64Array(0),
  };
  return appendDates(empty, dates.map((date) => byDate.get(date)!));
}

/**
 * `base` with `more` files archived after it, or null when they cannot simply be added: a date of theirs is not
 * after every date of `base`, or two of them hold the same date (then the history is assembled again).
 */
export function extendHistory(base: AssembledHistory, more: readonly HashedScores[]): AssembledHistory | null {
  const last = base.dates.at(-1) ?? '';
  const days: { file: number; scores: DateScores }[] = [];
  const seen = new Set<string>();
  more.forEach(({ scores: file }, i) => {
    for (const scores of file.dates) {
      days.push({ file: base.files.length + i, scores });
      seen.add(scores.date);
    }
  });
  if (seen.size !== days.length || days.some((d) => d.scores.date <= last)) return null;
  const extended = {
    ...base,
    files: [...base.files, ...more.map((f) => f.sha256)],
    fileNames: [...base.fileNames, ...more.map((f) => f.scores.fileName)],
    rows: base.rows + more.reduce((sum, f) => sum + f.scores.rows, 0),
  };
  return appendDates(extended, days.sort((a, b) => (a.scores.date < b.scores.date ? -1 : 1)));
}

/** `base` with `days` (ascending, each after the last of `base`) added as new columns. */
function appendDates(base: AssembledHistory, days: readonly { file: number; scores: DateScores }[]): AssembledHistory {
  if (days.length === 0) return base;
  const tickers = [...base.tickers];
  const rowOf = new Map(tickers.map((ticker, i) => [ticker, i]));
  for (const { scores } of days) for (const ticker of scores.tickers) if (!rowOf.has(ticker)) rowOf.set(ticker, tickers.push(ticker) - 1);
  const width = base.dates.length + days.length;
  const values = new Float64Array(tickers.length * width).fill(NaN);
  for (let row = 0; row < base.tickers.length; row++) values.set(base.values.subarray(row * base.dates.length, (row + 1) * base.dates.length), row * width);
  days.forEach(({ scores }, i) => {
    const column = base.dates.length + i;
    scores.tickers.forEach((ticker, j) => (values[rowOf.get(ticker)! * width + column] = scores.scores[j]!));
  });
  return { ...base, dates: [...base.dates, ...days.map((d) => d.scores.date)], dateFiles: [...base.dateFiles, ...days.map((d) => d.file)], tickers, values };
}

/** Each report date's ticker count and the file it comes from (what the data gates compare a new file with). */
export function assembledSizes(history: AssembledHistory): Map<string, { tickers: number; file: string }> {
  const counts = new Array<number>(history.dates.length).fill(0);
  const width = history.dates.length;
  for (let row = 0; row < history.tickers.length; row++) {
    for (let column = 0; column < width; column++) if (!Number.isNaN(history.values[row * width + column]!)) counts[column]!++;
  }
  return new Map(history.dates.map((date, i) => [date, { tickers: counts[i]!, file: history.fileNames[history.dateFiles[i]!]! }]));
}
