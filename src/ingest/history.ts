import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../lib/domain/report/export';
import type { ArchivedFile, SignalHistory, SignalRecord, UniverseCompany } from '../lib/domain/report/schemas';
import { withSignalChangeType } from '../lib/domain/signals/lists';
import { readArchivedBytes } from '../storage/archive';
import { readUniverse } from '../storage/universe';
import { DailyJobError } from './error';
import { parseExport } from './parse';
import { assembledSizes, assembleHistory, extendHistory, fileScores, type AssembledHistory, type FileScores, type HashedScores, type HistoryStore } from './history-store';
import { reportSizes, type ReportSizes } from './gates';
import { rowLists } from '../storage/matrix-file';
import { MOVED_REPORTS, subScoreHistory, type SubScoreHistory } from '../lib/domain/trend/what-moved';
import type { SupportingScoreValues } from '../lib/domain/track-record/track-record';

/**
 * The lookup of the qualified rows' supporting scores, newest dates first: a new file's from memory, an archived one's
 * from its stored entry, else parsed again (at most QUALIFIED_PARSES_PER_RUN files a run; later runs go on). Holds the
 * dates and their files only, never the assembled scores.
 */
function qualifiedScoresOf(
  dates: readonly string[],
  dateFiles: readonly number[],
  archived: readonly ArchivedFile[],
  added: readonly AddedFile[],
  store: HistoryStore | null,
  parse: (file: ArchivedFile) => Promise<SignalRecord[]>,
): QualifiedScores {
  const fileOf = new Map(dates.map((date, i) => [date, dateFiles[i]!]));
  return async (wanted) => {
    const found = new Map<string, Record<string, SupportingScoreValues>>();
    const entries = new Map<number, FileScores | null>();
    let parses = 0;
    for (const date of [...new Set(wanted)].sort().reverse()) {
      const index = fileOf.get(date);
      if (index === undefined) continue;
      if (!entries.has(index)) {
        const a = index >= archived.length ? added[index - archived.length]! : null;
        const file = archived[index];
        let entry: FileScores | null = a ? (a.scores ?? (a.records ? fileScores(a.records.fileName, a.records.records) : null)) : null;
        if (!a && file) {
          entry = store ? await store.read(file) : null;
          if ((entry === null || entry.dates.some((d) => d.qualified === undefined)) && parses < QUALIFIED_PARSES_PER_RUN) {
            parses += 1;
            entry = fileScores(file.fileName, await parse(file));
            await store?.write(file, entry);
          }
        }
        entries.set(index, entry);
      }
      const qualified = entries.get(index)?.dates.find((d) => d.date === date)?.qualified;
      if (qualified) found.set(date, qualified);
    }
    return found;
  };
}

/** The records one accepted file contributed, in the order the files were archived. */
export interface FileRecords {
  fileName: string;
  records: SignalRecord[];
}

/** The history and the notes an operator should read about how it was assembled. */
export interface HistoryResult {
  history: SignalHistory;
  warnings: string[];
}

/**
 * The history of the assembled files: every report date x every ticker (a date in two files from the one archived
 * later). `latestRecords` are the full records of the latest report; they get company name, sector and sub-industry from
 * the universe where the export lacks them.
 */
export function buildHistory(assembled: AssembledHistory, latestRecords: readonly SignalRecord[], universe: UniverseCompany[], subScores?: SubScoreHistory): HistoryResult {
  const { dates, tickers, values } = assembled;
  // Each ticker's scores are made as a list when they are read (the lists, the trends, the ledger), not held as lists.
  const scores = rowLists(tickers.map((ticker, row): [string, number] => [ticker, row]), values, dates.length);
  const companies = new Map(universe.map((company) => [company.ticker, company]));
  const latest = latestRecords.map((record) => {
    const company = companies.get(record.ticker);
    if (!company) return record;
    return {
      ...record,
      companyName: record.companyName || company.name,
      sector: company.sector,
      subIndustry: company.subIndustry,
    };
  });
  const history: SignalHistory = { dates, latest, scores, ...(subScores ? { subScores } : {}) };
  return { history: { ...history, latest: withSignalChangeType(history) }, warnings: [...assembled.warnings] };
}

/** The history of every accepted file, with the universe it was joined with and how many rows it was read from. */
export interface LoadedHistory extends HistoryResult {
  universe: UniverseCompany[];
  rows: number;
  /** Each report date of the archived files (without this run's new ones): its ticker count and file, for the data gates. */
  archivedSizes: ReportSizes;
  /** How the store of parsed files served this run (absent without a store). */
  store?: HistoryStore['counts'];
  /** The supporting scores of the qualified rows of report dates (see qualifiedScoresOf). */
  qualifiedScores: QualifiedScores;
}

/** Report date to ticker to the supporting scores of its qualified rows that day, for the dates asked (those found). */
export type QualifiedScores = (dates: readonly string[]) => Promise<Map<string, Record<string, SupportingScoreValues>>>;

/** Archived files a run parses again at most for their supporting scores (the store's older entries lack them). */
export const QUALIFIED_PARSES_PER_RUN = 20;

async function parseArchived(archiveDir: string, file: ArchivedFile, limits: ExportLimits): Promise<SignalRecord[]> {
  try {
    return (await parseExport(file.fileName, await readArchivedBytes(archiveDir, file), limits)).records;
  } catch (error) {
    throw new DailyJobError(`The archived file ${file.fileName} (${file.id}) can no longer be read: ${(error as Error).message}`);
  }
}

/** A new file of the run: archived by it (then with its hash) or only previewed, with its scores or its records. */
export interface AddedFile {
  file?: ArchivedFile;
  scores?: FileScores;
  records: FileRecords | null;
  /** Its bytes, read again for the supporting scores of the last reports when its records were let go. */
  bytes?: Uint8Array;
}

async function parseAdded(fileName: string, bytes: Uint8Array, limits: ExportLimits): Promise<SignalRecord[]> {
  return (await parseExport(fileName, bytes, limits)).records;
}

/**
 * The daily job's "load history" step. The store's assembled history covers the archive as the last run left it: a
 * run reads it in one call and adds only the files archived after it (a new day is one more column). Without it, or
 * when the files cannot simply be added (a withdrawal, a corrected past date), each archived file's scores come from
 * the store (parsed again only when it lacks them or holds a stale entry) and are assembled from scratch. Only the file
 * that holds the latest report is read whole. An archived file that no longer parses stops the job.
 */
export async function loadHistory(
  archiveDir: string,
  archived: readonly ArchivedFile[],
  added: readonly AddedFile[],
  universeFile: string,
  limits: ExportLimits = DEFAULT_EXPORT_LIMITS,
  store: HistoryStore | null = null,
): Promise<LoadedHistory> {
  const universe = await readUniverse(universeFile);
  // JSON.parse makes every ticker of a stored entry a string of its own: five years of 6,000 tickers are 7.5 million
  // of them. One shared string per ticker keeps the entries a fraction of that while they are assembled.
  const tickers = new Map<string, string>();
  const shared = (ticker: string) => tickers.get(ticker) ?? (tickers.set(ticker, ticker), ticker);
  const scoresOf = async (file: ArchivedFile): Promise<HashedScores> => {
    let entry = store ? await store.read(file) : null;
    if (entry) for (const date of entry.dates) date.tickers = date.tickers.map(shared);
    if (!entry) {
      entry = fileScores(file.fileName, await parseArchived(archiveDir, file, limits));
      await store?.write(file, entry);
    }
    return { sha256: file.sha256, scores: entry };
  };
  const fresh: HashedScores[] = [];
  for (const a of added) {
    const scores = a.scores ?? fileScores(a.records!.fileName, a.records!.records);
    // A new file's entry is kept now, so a run that assembles from scratch reads it back instead of parsing the file again.
    if (a.file) await store?.write(a.file, scores);
    fresh.push({ sha256: a.file?.sha256 ?? '', scores });
  }

  const base = store ? await store.readAssembled() : null;
  let assembled: AssembledHistory | null = null;
  let archivedSizes: ReportSizes | null = null;
  if (base && base.files.every((sha256, i) => archived[i]?.sha256 === sha256)) {
    const later: HashedScores[] = [];
    for (const file of archived.slice(base.files.length)) later.push(await scoresOf(file));
    const withArchived = extendHistory(base, later);
    assembled = withArchived && extendHistory(withArchived, fresh);
    if (withArchived && assembled) {
      store!.counts.assembled = base.files.length;
      // The new files' dates all come after the archived ones: the gates compare with the archived ones alone.
      archivedSizes = assembledSizes(withArchived);
    }
  }
  if (!assembled || !archivedSizes) {
    const old: HashedScores[] = [];
    for (const file of archived) old.push(await scoresOf(file));
    archivedSizes = reportSizes(old.map((f) => f.scores));
    assembled = assembleHistory([...old, ...fresh]);
  }
  // Kept for the next run unless it holds a file only previewed (not archived, so without a hash).
  if (store && assembled !== base && added.every((a) => a.file)) await store.writeAssembled(assembled);

  // The last reports' records: from memory for a new file, else its archived file read once more (each file once).
  // The latest one is the history's full records; the ones before it give "What moved" its supporting scores.
  const read = new Map<number, Promise<SignalRecord[]>>();
  const recordsOf = (index: number) => {
    let records = read.get(index);
    if (!records) {
      // A new file keeps its rows only when it holds the latest report; the others are parsed again from their bytes.
      const a = index >= archived.length ? added[index - archived.length]! : null;
      records = !a ? parseArchived(archiveDir, archived[index]!, limits) : a.records ? Promise.resolve(a.records.records) : a.bytes && a.file ? parseAdded(a.file.fileName, a.bytes, limits) : Promise.resolve([]);
      read.set(index, records);
    }
    return records;
  };
  const recent = new Map<string, SignalRecord[]>();
  for (let i = Math.max(0, assembled.dates.length - MOVED_REPORTS - 1); i < assembled.dates.length; i += 1) {
    const date = assembled.dates[i]!;
    recent.set(date, (await recordsOf(assembled.dateFiles[i]!)).filter((r) => r.reportDate === date));
  }
  const lastDate = assembled.dates.at(-1);
  const latest = lastDate === undefined ? [] : recent.get(lastDate)!;
  const { history, warnings } = buildHistory(assembled, latest, universe, subScoreHistory(recent));
  const qualifiedScores = qualifiedScoresOf(assembled.dates, assembled.dateFiles, archived, added, store, (file) => parseArchived(archiveDir, file, limits));
  return { history, warnings, universe, archivedSizes, rows: assembled.rows, ...(store ? { store: store.counts } : {}), qualifiedScores };
}
