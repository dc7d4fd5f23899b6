import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../lib/domain/export';
import type { ArchivedFile, SignalHistory, SignalRecord, UniverseCompany } from '../lib/domain/schemas';
import { withSignalChangeType } from '../lib/domain/lists';
import { readArchivedBytes } from '../storage/archive';
import { readUniverse } from '../storage/universe';
import { DailyJobError } from './error';
import { parseExport } from './parse';
import { fileScores, type DateScores, type FileScores, type HistoryStore } from './history-store';

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
 * Assembles every report date x every ticker from the accepted files. When two files carry the same report
 * date, the one archived later wins for that date (a corrected re-export replaces the first). `latestRecords` gives
 * the full records of the file that holds the latest report; they get company name, sector and sub-industry from the
 * universe where the export lacks them.
 */
export function buildHistory(files: readonly FileScores[], latestRecords: (fileName: string, date: string) => SignalRecord[], universe: UniverseCompany[]): HistoryResult {
  const warnings: string[] = [];
  const byDate = new Map<string, { fileName: string; scores: DateScores }>();
  for (const file of files) {
    for (const scores of file.dates) {
      const earlier = byDate.get(scores.date);
      if (earlier) warnings.push(`${scores.date} is in ${earlier.fileName} and ${file.fileName}: using ${file.fileName}, archived later.`);
      byDate.set(scores.date, { fileName: file.fileName, scores });
    }
  }
  const dates = [...byDate.keys()].sort();
  const scores: Record<string, (number | null)[]> = {};
  dates.forEach((date, i) => {
    const day = byDate.get(date)!.scores;
    day.tickers.forEach((ticker, j) => {
      const row = (scores[ticker] ??= new Array<number | null>(dates.length).fill(null));
      row[i] = day.scores[j]!;
    });
  });
  const companies = new Map(universe.map((company) => [company.ticker, company]));
  const lastDate = dates.at(-1);
  const latest = (lastDate ? latestRecords(byDate.get(lastDate)!.fileName, lastDate) : []).map((record) => {
    const company = companies.get(record.ticker);
    if (!company) return record;
    return {
      ...record,
      companyName: record.companyName || company.name,
      sector: company.sector,
      subIndustry: company.subIndustry,
    };
  });
  const history: SignalHistory = { dates, latest, scores };
  return { history: { ...history, latest: withSignalChangeType(history) }, warnings };
}

/** The history of every accepted file, with the universe it was joined with and how many rows it was read from. */
export interface LoadedHistory extends HistoryResult {
  universe: UniverseCompany[];
  rows: number;
  /** Every file's report dates, tickers and scores, the archived ones first, in archive order (what the data gates compare). */
  files: FileScores[];
  /** How the store of parsed files served this run (absent without a store). */
  store?: HistoryStore['counts'];
}

async function parseArchived(archiveDir: string, file: ArchivedFile, limits: ExportLimits): Promise<SignalRecord[]> {
  try {
    return (await parseExport(file.fileName, await readArchivedBytes(archiveDir, file), limits)).records;
  } catch (error) {
    throw new DailyJobError(`The archived file ${file.fileName} (${file.id}) can no longer be read: ${(error as Error).message}`);
  }
}

/**
 * The daily job's "load history" step: each archived file's scores from the store (parsed again only when the store
 * lacks it or holds a stale entry), the new files' records, assembled; only the file that holds the latest report is
 * read whole. An archived file that no longer parses stops the job.
 */
export async function loadHistory(
  archiveDir: string,
  archived: readonly ArchivedFile[],
  added: readonly { file?: ArchivedFile; scores?: FileScores; records: FileRecords | null }[],
  universeFile: string,
  limits: ExportLimits = DEFAULT_EXPORT_LIMITS,
  store: HistoryStore | null = null,
): Promise<LoadedHistory> {
  const universe = await readUniverse(universeFile);
  const files: FileScores[] = [];
  // JSON.parse makes every ticker of a stored entry a string of its own: five years of 6,000 tickers are 7.5 million
  // of them. One shared string per ticker keeps the loaded history a fraction of that.
  const tickers = new Map<string, string>();
  const shared = (ticker: string) => tickers.get(ticker) ?? (tickers.set(ticker, ticker), ticker);
  for (const file of archived) {
    let entry = store ? await store.read(file) : null;
    if (entry) for (const date of entry.dates) date.tickers = date.tickers.map(shared);
    if (!entry) {
      entry = fileScores(file.fileName, await parseArchived(archiveDir, file, limits));
      await store?.write(file, entry);
    }
    files.push(entry);
  }
  for (const a of added) {
    const entry = a.scores ?? fileScores(a.records!.fileName, a.records!.records);
    // A new file's entry is kept now, so the next run reads it back instead of parsing the file again.
    if (a.file) await store?.write(a.file, entry);
    files.push(entry);
  }
  // The latest report's records: from memory for a new file, else its archived file read once more. The file that
  // wins the latest date is the last one holding it, as buildHistory assembles them.
  let latest: SignalRecord[] = [];
  const lastDate = files.flatMap((f) => f.dates.map((d) => d.date)).sort().at(-1);
  if (lastDate !== undefined) {
    const index = files.findLastIndex((f) => f.dates.some((d) => d.date === lastDate));
    const records = index >= archived.length ? (added[index - archived.length]!.records?.records ?? []) : await parseArchived(archiveDir, archived[index]!, limits);
    latest = records.filter((r) => r.reportDate === lastDate);
  }
  const { history, warnings } = buildHistory(files, () => latest, universe);
  return { history, warnings, universe, files, rows: files.reduce((sum, f) => sum + f.rows, 0), ...(store ? { store: store.counts } : {}) };
}
