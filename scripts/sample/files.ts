/**
 * The sample's files: the universe CSV read and written back, and each report's export as CSV (toCsv, CRLF) or
 * as a two-sheet XLSX whose bytes do not depend on the clock.
 */
import { parse } from 'csv-parse/sync';
import writeXlsxFile from 'write-excel-file/node';
import type { SheetData } from 'write-excel-file/node';
import { toCsv } from '../../src/lib/domain/text/csv';
import { EXPORT_HEADER } from '../../src/lib/domain/report/export';
import { signalDirection } from '../../src/lib/domain/signals/signal';
import type { SampleDay, SampleRow, UniverseRow } from './generator';

/** Header of the universe file (data/universe/sp500-constituents.csv). */
const UNIVERSE_HEADER = ['Symbol', 'Security', 'GICS Sector', 'GICS Sub-Industry', 'Headquarters Location', 'Date added', 'CIK', 'Founded'] as const;

/** Names of the files the generator owns in its output folder. */
export const SAMPLE_FILE_RE = /^signals-\d{4}-\d{2}-\d{2}\.(csv|xlsx)$/;

/** Parses the universe CSV (header row + 8 columns, RFC 4180 quoting). */
export function parseUniverseCsv(text: string): UniverseRow[] {
  const records = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  const [header, ...rows] = records;
  if (!header || header.join(',') !== UNIVERSE_HEADER.join(',')) {
    throw new Error(`universe: expected header ${UNIVERSE_HEADER.join(',')}`);
  }
  return rows.map((r, i) => {
    if (r.length !== 8) throw new Error(`universe: row ${i + 2} has ${r.length} columns, expected 8`);
    const [symbol, security, sector, subIndustry, headquarters, dateAdded, cik, founded] = r as [
      string, string, string, string, string, string, string, string,
    ];
    return { symbol, security, sector, subIndustry, headquarters, dateAdded, cik, founded };
  });
}

/** Writes universe rows in the universe file's layout (LF line ends, like the real file). */
export function universeToCsv(rows: UniverseRow[]): string {
  const body = rows.map((r) => [r.symbol, r.security, r.sector, r.subIndustry, r.headquarters, r.dateAdded, r.cik, r.founded]);
  return toCsv([UNIVERSE_HEADER, ...body], { eol: '\n' });
}

/** `signals-YYYY-MM-DD.csv` or `.xlsx`. */
export function sampleFileName(day: Pick<SampleDay, 'date' | 'format'>): string {
  return `signals-${day.date}.${day.format}`;
}

/** ISO yyyy-mm-dd -> US M/D/YYYY, as a spreadsheet program writes it. */
function usDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${Number(m)}/${Number(d)}/${y}`;
}

function rowCells(row: SampleRow, dateText: string): string[] {
  return [
    row.ticker,
    row.companyName,
    dateText,
    row.cScore.toFixed(2),
    row.yesterdayCScore.toFixed(2),
    row.deltaScore.toFixed(2),
    row.accuracyScore.toFixed(2),
    row.marketScore.toFixed(2),
    row.relevanceScore.toFixed(2),
    row.avgCScoreL7D.toFixed(2),
    row.avgCScoreL14D.toFixed(2),
    String(row.countL7DWithSignal),
    String(row.countL14DWithSignal),
    row.isTopTicker ? 'TRUE' : 'FALSE',
  ];
}

/** The day's export as CSV text: UTF-8 without BOM, header row, RFC 4180 quoting, CRLF line ends. */
export function dayToCsv(day: SampleDay): string {
  const dateText = day.dateStyle === 'us' ? usDate(day.date) : day.date;
  return toCsv([EXPORT_HEADER, ...day.rows.map((row) => rowCells(row, dateText))]);
}

/** A sheet as plain cells: text, numbers, booleans and dates (UTC midnight). */
export interface PlainSheet {
  name: string;
  rows: (string | number | boolean | Date)[][];
}

/** The day's XLSX content: 'Signals' (typed cells, a real date cell) and 'Summary' (per-sector counts). */
export function dayToSheets(day: SampleDay, universe: UniverseRow[]): PlainSheet[] {
  const [y, m, d] = day.date.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const signals: PlainSheet['rows'] = [[...EXPORT_HEADER]];
  for (const r of day.rows) {
    signals.push([
      r.ticker,
      r.companyName,
      date,
      r.cScore,
      r.yesterdayCScore,
      r.deltaScore,
      r.accuracyScore,
      r.marketScore,
      r.relevanceScore,
      r.avgCScoreL7D,
      r.avgCScoreL14D,
      r.countL7DWithSignal,
      r.countL14DWithSignal,
      r.isTopTicker,
    ]);
  }
  const sectorOf = new Map(universe.map((u) => [u.symbol, u.sector]));
  const bySector = new Map<string, [number, number, number]>();
  for (const r of day.rows) {
    const s = sectorOf.get(r.ticker) ?? 'Unknown';
    const acc = bySector.get(s) ?? [0, 0, 0];
    acc[0] += 1;
    const direction = signalDirection(r.cScore);
    if (direction === 'bullish') acc[1] += 1;
    if (direction === 'bearish') acc[2] += 1;
    bySector.set(s, acc);
  }
  const summary: PlainSheet['rows'] = [['Sector', 'Tickers', 'Bullish', 'Bearish']];
  const totals = [0, 0, 0];
  for (const s of [...bySector.keys()].sort()) {
    const acc = bySector.get(s)!;
    summary.push([s, ...acc]);
    acc.forEach((v, k) => (totals[k]! += v));
  }
  summary.push(['All sectors', ...totals]);
  return [
    { name: 'Signals', rows: signals },
    { name: 'Summary', rows: summary },
  ];
}

/** Sets every zip entry's DOS modification time to the report date at 00:00, so the bytes do not depend on "now". */
function pinZipTimestamps(zip: Buffer, iso: string): Buffer {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const dosDate = ((y - 1980) << 9) | (m << 5) | d;
  const dosTime = 0;
  // End of central directory record: signature 0x06054b50, at least 22 bytes from the end.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('xlsx: no zip end-of-central-directory record');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let k = 0; k < entries; k++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('xlsx: bad zip central directory');
    zip.writeUInt16LE(dosTime, p + 12);
    zip.writeUInt16LE(dosDate, p + 14);
    const local = zip.readUInt32LE(p + 42);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error('xlsx: bad zip local header');
    zip.writeUInt16LE(dosTime, local + 10);
    zip.writeUInt16LE(dosDate, local + 12);
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return zip;
}

/** Signals columns holding 2-decimal scores (the two counts stay plain integers). */
const SCORE_COLUMNS = new Set([3, 4, 5, 6, 7, 8, 9, 10]);

function toSheetData(sheet: PlainSheet): SheetData {
  return sheet.rows.map((row, r) =>
    row.map((value, c) => {
      if (r === 0) return { value: String(value), fontWeight: 'bold' as const };
      if (value instanceof Date) return { value, type: Date, format: 'yyyy-mm-dd' };
      if (typeof value === 'number' && sheet.name === 'Signals' && SCORE_COLUMNS.has(c)) {
        return { value, type: Number, format: '0.00' };
      }
      return value;
    }),
  );
}

/** The bytes of the day's file, in its format. */
export async function dayFile(day: SampleDay, universe: UniverseRow[]): Promise<Buffer> {
  if (day.format === 'csv') return Buffer.from(dayToCsv(day), 'utf8');
  const sheets = dayToSheets(day, universe);
  const buffer = await writeXlsxFile(sheets.map((s) => ({ data: toSheetData(s), sheet: s.name, stickyRowsCount: 1 }))).toBuffer();
  return pinZipTimestamps(buffer, day.date);
}
