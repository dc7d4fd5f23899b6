import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../lib/domain/export';
import type { ArchivedFile, SignalHistory, SignalRecord, UniverseCompany } from '../lib/domain/schemas';
import { withSignalChangeType } from '../lib/domain/lists';
import { readArchivedBytes } from '../storage/archive';
import { readUniverse } from '../storage/universe';
import { DailyJobError } from './error';
import { parseExport } from './parse';

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
 * date, the one archived later wins for that date (a corrected re-export replaces the first).
 * The latest report's records get company name, sector and sub-industry from the universe where the export lacks them.
 */
export function buildHistory(files: FileRecords[], universe: UniverseCompany[]): HistoryResult {
  const warnings: string[] = [];
  const byDate = new Map<string, { fileName: string; records: SignalRecord[] }>();
  for (const file of files) {
    const dates = new Map<string, SignalRecord[]>();
    for (const record of file.records) {
      const list = dates.get(record.reportDate);
      if (list) list.push(record);
      else dates.set(record.reportDate, [record]);
    }
    for (const [date, records] of dates) {
      const earlier = byDate.get(date);
      if (earlier) warnings.push(`${date} is in ${earlier.fileName} and ${file.fileName}: using ${file.fileName}, archived later.`);
      byDate.set(date, { fileName: file.fileName, records });
    }
  }
  const dates = [...byDate.keys()].sort();
  const scores: Record<string, (number | null)[]> = {};
  dates.forEach((date, i) => {
    for (const record of byDate.get(date)!.records) {
      const row = (scores[record.ticker] ??= new Array<number | null>(dates.length).fill(null));
      row[i] = record.cScore;
    }
  });
  const companies = new Map(universe.map((company) => [company.ticker, company]));
  const lastDate = dates.at(-1);
  const latest = (lastDate ? byDate.get(lastDate)!.records : []).map((record) => {
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
  /** Every file's records, the archived ones first, in archive order (what the data gates compare). */
  files: FileRecords[];
}

/** The daily job's "load history" step: the archived files read again, the new ones' records, assembled; an archived file that no longer parses stops the job. */
export async function loadHistory(
  archiveDir: string,
  archived: readonly ArchivedFile[],
  added: readonly { records: FileRecords }[],
  universeFile: string,
  limits: ExportLimits = DEFAULT_EXPORT_LIMITS,
): Promise<LoadedHistory> {
  const universe = await readUniverse(universeFile);
  const files: FileRecords[] = [];
  for (const file of archived) {
    try {
      const parsed = await parseExport(file.fileName, await readArchivedBytes(archiveDir, file), limits);
      files.push({ fileName: file.fileName, records: parsed.records });
    } catch (error) {
      throw new DailyJobError(`The archived file ${file.fileName} (${file.id}) can no longer be read: ${(error as Error).message}`);
    }
  }
  for (const a of added) files.push(a.records);
  const { history, warnings } = buildHistory(files, universe);
  return { history, warnings, universe, files, rows: files.reduce((sum, f) => sum + f.records.length, 0) };
}
