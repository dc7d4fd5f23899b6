import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseOrExplain } from '../lib/domain/text/explain';
import { UniverseCompanySchema, type UniverseCompany } from '../lib/domain/report/schemas';
import { asciiUpper } from '../lib/domain/text/text';

/** Reads a universe CSV (Symbol, Security, GICS Sector, GICS Sub-Industry, Headquarters Location, ..., Founded). */
export async function readUniverse(path: string): Promise<UniverseCompany[]> {
  const rows: Record<string, string>[] = parseCsv(await readFile(path), { bom: true, columns: true, skip_empty_lines: true, trim: true });
  return rows.map((row, i) => {
    const company = {
      ticker: asciiUpper(row['Symbol'] ?? ''),
      name: row['Security'] ?? '',
      sector: row['GICS Sector'] ?? '',
      subIndustry: row['GICS Sub-Industry'] ?? '',
      headquarters: row['Headquarters Location'] ?? '',
      founded: row['Founded'] ?? '',
    };
    try {
      return parseOrExplain(UniverseCompanySchema, company, `The universe file ${path} (row ${i + 2})`);
    } catch (error) {
      throw new Error(`${(error as Error).message}. Fix the universe file.`);
    }
  });
}
