import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { CsvError, parse as csvParser } from 'csv-parse';
import readExcelFile from 'read-excel-file/node';
import {
  checkCellLength,
  checkColumnCount,
  checkRowCount,
  DEFAULT_EXPORT_LIMITS,
  ExportError,
  exportNormalizer,
  signalSheetIndex,
  type CellProblem,
  type ExportLimits,
  type ExportTable,
  type NormalizedExport,
} from '../lib/domain/report/export';
import { decodeExportText, excerpt, isUtf16 } from '../lib/domain/text/text';
import { probeWorkbook } from './xlsx-probe';
import type { ArchivedFile, SignalRecord } from '../lib/domain/report/schemas';

/** The two kinds of export file we accept. */
type ExportKind = ArchivedFile['kind'];

/** An accepted export file: its kind, its sheets as the archive lists them, its signal rows and what was read as 0. */
export interface ParsedExport {
  kind: ExportKind;
  sheets: ArchivedFile['sheets'];
  records: SignalRecord[];
  warnings: CellProblem[];
}

/** A refused file: what the operator must fix, with file, row and column. */
export class RefusedFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: CellProblem,
  ) {
    const where = [problem.row !== undefined ? `row ${problem.row}` : '', problem.column ? `column "${problem.column}"` : '']
      .filter(Boolean)
      .join(', ');
    super(`${file}${where ? ` (${where})` : ''}: ${problem.message}`);
    this.name = 'RefusedFileError';
  }
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

const count = (value: number) => value.toLocaleString('en-US');

/** Refuses a file larger than the byte limit, naming its size; used before a file is read or parsed. */
export function checkFileSize(size: number, limits: ExportLimits): void {
  if (size > limits.maxBytes) {
    throw new ExportError({ message: `The file is ${count(size)} bytes; the limit is ${count(limits.maxBytes)} bytes a file (EXPORT_MAX_BYTES). Split the export into smaller files.` });
  }
}

/** Tells CSV from XLSX by the file's bytes and name; throws for anything else. */
function detectKind(name: string, bytes: Uint8Array): ExportKind {
  const lower = name.toLowerCase();
  if (bytes.length === 0) {
    throw new ExportError({ message: 'The file is empty (0 bytes): export the day\'s signals again.' });
  }
  if (startsWith(bytes, ZIP_MAGIC)) {
    if (lower.endsWith('.csv')) {
      throw new ExportError({ message: 'The file is an Excel workbook (XLSX) but is named .csv: rename it to .xlsx.' });
    }
    return 'xlsx';
  }
  if (startsWith(bytes, OLE_MAGIC)) {
    throw new ExportError({ message: 'The file is an old Excel .xls workbook: save it as .xlsx or .csv.' });
  }
  if (lower.endsWith('.xlsx')) {
    throw new ExportError({ message: 'The file is named .xlsx but is not an Excel workbook: export it again as .xlsx or .csv.' });
  }
  if (!lower.endsWith('.csv') && !lower.endsWith('.txt')) {
    throw new ExportError({ message: 'Only .csv and .xlsx exports are accepted.' });
  }
  // UTF-16 text has a zero byte in every ASCII character: it is text, read by its byte-order mark.
  if (isUtf16(bytes)) {
    if (decodeExportText(bytes) === null) throw new ExportError({ message: 'The file starts as UTF-16 text but is not valid UTF-16: save it as "CSV UTF-8" or XLSX.' });
    return 'csv';
  }
  const sample = bytes.subarray(0, 65536);
  if (sample.includes(0)) {
    throw new ExportError({ message: 'The file is binary, not CSV text: export it as CSV (UTF-8) or XLSX.' });
  }
  if (!isUtf8(bytes)) {
    throw new ExportError({ message: 'The file is not UTF-8 text: export it as "CSV UTF-8" or XLSX.' });
  }
  return 'csv';
}

/** Bytes of CSV (characters of UTF-16 text) parsed in one turn of the event loop: a few milliseconds of work. */
const CSV_SLICE = 16 * 1024;

/**
 * The most bytes one CSV row may run to before it ends: every cell at EXPORT_MAX_CELL_CHARS in every column, with room
 * for multi-byte characters and the invisible ones the cell limit does not count. A longer row is refused as it streams.
 */
export function csvRowLimit(limits: ExportLimits): number {
  return 4 * limits.maxColumns * limits.maxCellChars;
}

/**
 * Reads a CSV as it streams through the parser, a slice a turn so the event loop stays free, checking each row as it
 * ends (the header's columns and every cell's length) and refusing a row past csvRowLimit before its end; it holds
 * at most one row more than the row limit allows.
 */
async function csvTable(bytes: Uint8Array, limits: ExportLimits): Promise<ExportTable> {
  const input = isUtf16(bytes) ? decodeExportText(bytes)! : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: string[][] = [];
  // One record past the header and the row limit is enough to refuse the file; the rest is never read.
  const enough = limits.maxRows + 2;
  let failure: unknown = null;
  const parser = csvParser({
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Named rather than detected: detection rescans a long first line on every slice.
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: csvRowLimit(limits),
    on_record: (record: string[]) => {
      const row = rows.length + 1;
      if (row === 1) checkColumnCount(record.length, limits);
      record.forEach((cell, i) => checkCellLength(cell, row, row === 1 ? `column ${i + 1}` : excerpt(rows[0]![i] || `column ${i + 1}`), limits));
      rows.push(record);
      return null;
    },
  });
  parser.on('error', (error) => (failure ??= error));
  parser.resume();
  for (let at = 0; at < input.length && failure === null && rows.length < enough; at += CSV_SLICE) {
    parser.write(input.slice(at, at + CSV_SLICE));
    await nextTurn();
  }
  if (failure === null && rows.length < enough) {
    await new Promise((resolve) => {
      parser.once('end', resolve).once('close', resolve).once('error', resolve);
      parser.end();
    });
  }
  parser.destroy();
  if (failure instanceof ExportError) throw failure;
  if (failure instanceof CsvError && failure.code === 'CSV_MAX_RECORD_SIZE') {
    const row = rows.length + 1;
    throw new ExportError({
      row,
      message: `Row ${row}${row === 1 ? ' (the header)' : ''} runs past ${count(csvRowLimit(limits))} bytes without ending: a row may hold ${count(limits.maxColumns)} columns (EXPORT_MAX_COLUMNS) of ${count(limits.maxCellChars)} characters a cell (EXPORT_MAX_CELL_CHARS). Shorten its cells or delete the columns the export does not need.`,
    });
  }
  if (failure !== null) {
    const err = failure as { lines?: number; message: string };
    throw new ExportError({ row: err.lines, message: `The CSV cannot be read: ${excerpt(err.message)}.` });
  }
  return { sheet: null, rows: rows.slice(0, enough) };
}

/** Workbooks larger than this are read in a thread of their own; a smaller one takes the event loop a few milliseconds. */
export const WORKBOOK_THREAD_BYTES = 256 * 1024;

const WORKBOOK_WORKER = new URL('./workbook-worker.mjs', import.meta.url);

/** readWorkbook in a thread of its own, its sheets handed back a batch of rows at a time. */
function readWorkbookInThread(bytes: Uint8Array, limits: ExportLimits): Promise<ExportTable[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKBOOK_WORKER, { workerData: { bytes, limits }, execArgv: [] });
    const tables: ExportTable[] = [];
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    worker.on('message', (message: { sheet?: string | null; rows?: ExportTable['rows']; done?: true; problem?: CellProblem | null; message?: string }) => {
      if (message.rows !== undefined) tables.at(-1)!.rows.push(...message.rows);
      else if (message.done) settle(() => resolve(tables));
      else if (message.message !== undefined) settle(() => reject(message.problem ? new ExportError(message.problem) : new Error(`The workbook thread failed: ${message.message}`)));
      else tables.push({ sheet: message.sheet ?? null, rows: [] });
    });
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`The workbook thread stopped (exit code ${code}) before it answered.`))));
  });
}

async function xlsxTables(bytes: Uint8Array, limits: ExportLimits): Promise<ExportTable[]> {
  return bytes.length > WORKBOOK_THREAD_BYTES ? readWorkbookInThread(bytes, limits) : readWorkbook(bytes, limits);
}

/** A workbook's sheets, after the probe of its declared sizes; throws ExportError for one that must be refused. */
export async function readWorkbook(bytes: Uint8Array, limits: ExportLimits): Promise<ExportTable[]> {
  probeWorkbook(bytes, limits);
  try {
    const sheets = await readExcelFile(Buffer.from(bytes));
    return sheets.map(({ sheet, data }) => ({ sheet, rows: data as ExportTable['rows'] }));
  } catch (error) {
    throw new ExportError({ message: `The workbook cannot be read: ${excerpt((error as Error).message)}. Save it again as .xlsx.` });
  }
}

/** Rows checked in one turn of the event loop: a few milliseconds of work. */
const ROWS_A_TURN = 250;

/** normalizeExport, a few hundred rows a turn so a large file does not hold the event loop. */
async function normalizeInTurns(table: ExportTable, limits: ExportLimits): Promise<NormalizedExport> {
  checkRowCount(table.rows.length, limits);
  const normalizer = exportNormalizer(table.rows[0], limits);
  for (let index = 1; index < table.rows.length; index += 1) {
    normalizer.add(table.rows[index]!, index + 1);
    if (index % ROWS_A_TURN === 0) await nextTurn();
  }
  return normalizer.finish();
}

/**
 * Reads one export file (CSV, or XLSX with every sheet) into signal records.
 * Throws RefusedFileError naming file, row and column when the file must not be published.
 */
export async function parseExport(name: string, bytes: Uint8Array, limits: ExportLimits = DEFAULT_EXPORT_LIMITS): Promise<ParsedExport> {
  try {
    checkFileSize(bytes.length, limits);
    const kind = detectKind(name, bytes);
    const tables = kind === 'csv' ? [await csvTable(bytes, limits)] : await xlsxTables(bytes, limits);
    const active = signalSheetIndex(tables.map((t) => t.sheet ?? ''));
    const table = tables[active];
    if (!table) throw new ExportError({ message: 'The workbook has no sheets.' });
    const { records, warnings } = await normalizeInTurns(table, limits);
    const sheets = tables.map((t, id) => ({
      id,
      sheetName: t.sheet ?? 'Signals',
      rowCount: Math.max(0, t.rows.length - 1),
      isActive: id === active,
    }));
    return { kind, sheets, records, warnings };
  } catch (error) {
    if (error instanceof ExportError) throw new RefusedFileError(name, error.problem);
    throw error;
  }
}
