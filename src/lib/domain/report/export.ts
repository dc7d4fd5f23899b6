import { explainIssues } from '../text/explain';
import { SignalRecordSchema, type SignalRecord } from './schemas';
import { asciiUpper, excerpt, isFormulaLike, MAX_NAME_CHARS, stripInvisible } from '../text/text';
import { isTicker, TICKER_RULE } from './ticker';

/** A cell as a parser hands it over: CSV gives strings, XLSX gives strings, numbers, booleans and dates. */
export type Cell = string | number | boolean | Date | null | undefined;

/** One sheet of an export: a header row followed by data rows. */
export interface ExportTable {
  /** Sheet name for XLSX, or null for CSV. */
  sheet: string | null;
  rows: Cell[][];
}

/** The sizes an export may reach (docs/limits-and-gates.md); each is a setting, and a file past one is refused with its figure. */
export interface ExportLimits {
  /** Bytes a file (EXPORT_MAX_BYTES). */
  maxBytes: number;
  /** Bytes an XLSX's sheets and shared strings unpack to, together (EXPORT_MAX_UNPACKED_BYTES). */
  maxUnpackedBytes: number;
  /** Data rows a file (EXPORT_MAX_ROWS). */
  maxRows: number;
  /** Columns a sheet (EXPORT_MAX_COLUMNS). */
  maxColumns: number;
  /** Tickers a report date (EXPORT_MAX_TICKERS). */
  maxTickers: number;
  /** Characters a text cell, after stripping invisible characters (EXPORT_MAX_CELL_CHARS); company names are held to MAX_NAME_CHARS. */
  maxCellChars: number;
}

/** The limits' defaults: 20,000 tickers over 5 report dates fit in one file; the daily job stays within 2 GiB. */
export const DEFAULT_EXPORT_LIMITS: Readonly<ExportLimits> = Object.freeze({
  maxBytes: 50 * 1024 * 1024,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxRows: 100_000,
  maxColumns: 100,
  maxTickers: 20_000,
  maxCellChars: 1000,
});

/** Where a problem sits: 1-based row as a spreadsheet shows it (the header is row 1) and the column label. */
export interface CellProblem {
  row?: number;
  column?: string;
  message: string;
}

/** A problem that refuses the whole file. */
export class ExportError extends Error {
  constructor(readonly problem: CellProblem) {
    super(problem.message);
    this.name = 'ExportError';
  }
}

type NumericField =
  | 'cScore'
  | 'yesterdayCScore'
  | 'deltaScore'
  | 'accuracyScore'
  | 'marketScore'
  | 'relevanceScore'
  | 'avgCScoreL7D'
  | 'avgCScoreL14D'
  | 'countL7DWithSignal'
  | 'countL14DWithSignal';
type Field = NumericField | 'ticker' | 'companyName' | 'reportDate' | 'isTopTicker';

/** Reduces a label to its letters and digits in lower case, so 'Avg. C-Score L7D' and 'avgCScoreL7D' meet. */
function labelKey(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]/g, '');
}

// Every accepted label of each field, the spreadsheet's own first, then the camelCase one and the spec's short
// aliases; the fields in the export's column order.
const LABELS: readonly (readonly [Field, readonly string[]])[] = [
  ['ticker', ['Ticker', 'ticker', 'Symbol']],
  ['companyName', ['Company Name', 'companyName', 'Company', 'Name']],
  ['reportDate', ['Report Date', 'reportDate', 'Date']],
  ['cScore', ['C-Score', 'cScore']],
  ['yesterdayCScore', ['Yesterday C-Score', 'yesterdayCScore']],
  ['deltaScore', ['Delta Score', 'deltaScore', 'delta']],
  ['accuracyScore', ['Accuracy Score', 'accuracyScore', 'accuracy']],
  ['marketScore', ['Market Score', 'marketScore', 'market']],
  ['relevanceScore', ['Relevance Score', 'relevanceScore', 'relevance']],
  ['avgCScoreL7D', ['Avg. C-Score L7D', 'avgCScoreL7D']],
  ['avgCScoreL14D', ['Avg. C-Score L14D', 'avgCScoreL14D']],
  ['countL7DWithSignal', ['Count L7D with Signal', 'countL7DWithSignal', 'countL7D']],
  ['countL14DWithSignal', ['Count L14D with Signal', 'countL14DWithSignal', 'countL14D']],
  ['isTopTicker', ['Top Ticker?', 'isTopTicker', 'topTicker']],
];

/** The export's header row as the spreadsheet writes it, in column order (docs/data-flow.md, "The export"). */
export const EXPORT_HEADER: readonly string[] = LABELS.map(([, labels]) => labels[0]!);

const FIELD_BY_LABEL: ReadonlyMap<string, Field> = new Map(LABELS.flatMap(([field, labels]) => labels.map((label) => [labelKey(label), field] as const)));

const NUMERIC_RANGES: Record<NumericField, { min: number; max: number; integer?: boolean }> = {
  cScore: { min: -100, max: 100 },
  yesterdayCScore: { min: -100, max: 100 },
  deltaScore: { min: -100, max: 100 },
  marketScore: { min: -100, max: 100 },
  avgCScoreL7D: { min: -100, max: 100 },
  avgCScoreL14D: { min: -100, max: 100 },
  accuracyScore: { min: -Infinity, max: Infinity },
  relevanceScore: { min: -Infinity, max: Infinity },
  countL7DWithSignal: { min: 0, max: 7, integer: true },
  countL14DWithSignal: { min: 0, max: 14, integer: true },
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y']);

/** True for the spreadsheet's ways of saying yes: TRUE, true, 1, yes. */
export function parseBoolean(cell: Cell): boolean {
  if (typeof cell === 'boolean') return cell;
  if (typeof cell === 'number') return cell === 1;
  if (typeof cell === 'string') return TRUE_WORDS.has(cell.trim().toLowerCase());
  return false;
}

/** Reads a number from a cell: numbers as they are, strings like ' 12.5 ' or '1,234.5'; null when blank or unreadable. */
export function parseNumber(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  const text = cell.trim().replace(/,/g, '');
  if (text === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function isoFromParts(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

// Excel counts days from 1899-12-30; accept serials between 1954 and 2119 so a stray count is not taken for a date.
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * Reads a report date as a spreadsheet program writes it: ISO 2026-03-02, US 3/2/2026, the yy-mm-dd of spec
 * section 5, a real date cell or an Excel serial day number. Returns yyyy-mm-dd, or null when unreadable.
 */
export function parseReportDate(cell: Cell): string | null {
  if (cell instanceof Date) {
    return Number.isNaN(cell.getTime()) ? null : cell.toISOString().slice(0, 10);
  }
  if (typeof cell === 'number') {
    if (!Number.isInteger(cell) || cell < 20000 || cell > 80000) return null;
    return new Date(EXCEL_EPOCH_MS + cell * 86_400_000).toISOString().slice(0, 10);
  }
  if (typeof cell !== 'string') return null;
  const text = cell.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (m) return isoFromParts(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(text);
  if (m) {
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return isoFromParts(year, Number(m[1]), Number(m[2]));
  }
  m = /^(\d{2})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (m) return isoFromParts(2000 + Number(m[1]), Number(m[2]), Number(m[3]));
  return null;
}

const count = (value: number) => value.toLocaleString('en-US');

function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  return String(cell).trim();
}

function isBlankRow(row: Cell[]): boolean {
  return row.every((cell) => cellText(cell) === '');
}

/**
 * Refuses a text cell over EXPORT_MAX_CELL_CHARS (counted after stripInvisible), header cells included: the CSV reader
 * calls it as each row is read, normalizeExport on every row of a workbook. `row` is 1-based, the header being row 1.
 */
export function checkCellLength(cell: Cell, row: number, column: string, limits: ExportLimits): void {
  if (typeof cell !== 'string' || cell.length <= limits.maxCellChars) return;
  const length = stripInvisible(cell).length;
  if (length <= limits.maxCellChars) return;
  throw new ExportError({
    row,
    column,
    message: `Row ${row}${row === 1 ? ' (the header)' : ''}: a cell holds ${count(length)} characters; the limit is ${count(limits.maxCellChars)} a cell (EXPORT_MAX_CELL_CHARS). Shorten that cell.`,
  });
}

/** Refuses a header of more than EXPORT_MAX_COLUMNS columns. */
export function checkColumnCount(columns: number, limits: ExportLimits): void {
  if (columns > limits.maxColumns) {
    throw new ExportError({ row: 1, message: `The header has ${count(columns)} columns; the limit is ${count(limits.maxColumns)} (EXPORT_MAX_COLUMNS). Delete the columns the export does not need.` });
  }
}

/** A column's label as a message names it: its header text (quoted at most QUOTED_CHARS long), or its number. */
function columnName(labels: readonly string[], index: number): string {
  const label = labels[index];
  return label ? excerpt(label) : `column ${index + 1}`;
}

/** The result of reading one export table. */
export interface NormalizedExport {
  records: SignalRecord[];
  /** Cells that were blank or unreadable and became 0, and labels that were not recognised. */
  warnings: CellProblem[];
}

/** Refuses a table of more data rows than EXPORT_MAX_ROWS (its first row being the header). */
export function checkRowCount(rows: number, limits: ExportLimits): void {
  if (rows > limits.maxRows + 1) {
    throw new ExportError({ message: `The file has ${count(rows - 1)} data rows; the limit is ${count(limits.maxRows)} (EXPORT_MAX_ROWS). Split the export into smaller files.` });
  }
}

/** normalizeExport a row at a time: the header checked at once, each data row as it is added, the records at the end. */
export interface ExportNormalizer {
  /** Checks and keeps one data row; `row` is its 1-based number (the first data row is 2). */
  add(cells: Cell[], row: number): void;
  finish(): NormalizedExport;
}

/** A normalizer for the table whose header row is `header`; throws an ExportError for a header that must be refused. */
export function exportNormalizer(header: Cell[] | undefined, limits: ExportLimits = DEFAULT_EXPORT_LIMITS): ExportNormalizer {
  if (!header || isBlankRow(header)) {
    throw new ExportError({ message: 'The file is empty: it needs a header row (Ticker, C-Score, Report Date, ...) and one row per ticker.' });
  }
  header.forEach((cell, i) => checkCellLength(cell, 1, `column ${i + 1}`, limits));
  checkColumnCount(header.length, limits);
  const labels = header.map(cellText);
  const columns = new Map<Field, number>();
  const warnings: CellProblem[] = [];
  labels.forEach((label, index) => {
    if (label === '') return;
    const field = FIELD_BY_LABEL.get(labelKey(label));
    const name = excerpt(label);
    if (!field) {
      warnings.push({ row: 1, column: name, message: `Column "${name}" is not a known field and was ignored.` });
    } else if (columns.has(field)) {
      throw new ExportError({ row: 1, column: name, message: `Column "${name}" repeats column "${columnName(labels, columns.get(field)!)}": keep one of them.` });
    } else {
      columns.set(field, index);
    }
  });
  for (const [field, wanted] of [
    ['ticker', 'Ticker'],
    ['cScore', 'C-Score'],
    ['reportDate', 'Report Date'],
  ] as const) {
    if (!columns.has(field)) {
      throw new ExportError({ row: 1, column: wanted, message: `There is no "${wanted}" column: add it to the header row (found: ${excerpt(labels.filter(Boolean).join(', ')) || 'nothing'}).` });
    }
  }

  const records: SignalRecord[] = [];
  const firstRowOf = new Map<string, number>();
  const tickersOn = new Map<string, number>();
  const width = labels.length;
  return {
    add(cells, row) {
      cells.forEach((cell, i) => checkCellLength(cell, row, columnName(labels, i), limits));
      if (isBlankRow(cells)) return;
      // A short row, or a filled cell past the header's last column, means the row is shifted.
      const extra = cells.findIndex((cell, i) => i >= width && cellText(cell) !== '');
      if (cells.length < width || extra !== -1) {
        throw new ExportError({
          row,
          column: cells.length < width ? columnName(labels, cells.length) : `column ${extra + 1} (no header)`,
          message: `Row ${row} has ${cells.length} cells but the header has ${width}: the row is ragged; fix its separators or quotes.`,
        });
      }
      const at = (field: Field): Cell => {
        const i = columns.get(field);
        return i === undefined ? undefined : cells[i];
      };
      const label = (field: Field): string => (columns.has(field) ? columnName(labels, columns.get(field)!) : field);

      const ticker = asciiUpper(cellText(at('ticker')));
      if (ticker === '') throw new ExportError({ row, column: label('ticker'), message: `Row ${row} has no ticker.` });
      if (!isTicker(ticker)) {
        throw new ExportError({ row, column: label('ticker'), message: `Row ${row}: ticker "${excerpt(ticker)}" is not ${TICKER_RULE}.` });
      }
      const reportDateCell = at('reportDate');
      if (cellText(reportDateCell) === '') {
        throw new ExportError({ row, column: label('reportDate'), message: `Row ${row} (${ticker}) has no report date.` });
      }
      const reportDate = parseReportDate(reportDateCell);
      if (!reportDate) {
        throw new ExportError({ row, column: label('reportDate'), message: `Row ${row} (${ticker}): report date "${excerpt(cellText(reportDateCell))}" is not a date; use yyyy-mm-dd or m/d/yyyy.` });
      }
      const key = `${reportDate} ${ticker}`;
      const seen = firstRowOf.get(key);
      if (seen !== undefined) {
        throw new ExportError({ row, column: label('ticker'), message: `Row ${row}: ticker ${ticker} appears twice for ${reportDate} (first at row ${seen}); keep one row per ticker.` });
      }
      firstRowOf.set(key, row);
      const tickers = (tickersOn.get(reportDate) ?? 0) + 1;
      tickersOn.set(reportDate, tickers);
      if (tickers > limits.maxTickers) {
        throw new ExportError({ row, message: `The report of ${reportDate} has more than ${count(limits.maxTickers)} tickers (row ${row} is number ${count(tickers)}); the limit is ${count(limits.maxTickers)} a report (EXPORT_MAX_TICKERS).` });
      }
      const companyName = stripInvisible(cellText(at('companyName')));
      if (companyName.length > MAX_NAME_CHARS) {
        throw new ExportError({ row, column: label('companyName'), message: `Row ${row} (${ticker}): the company name has ${count(companyName.length)} characters; the limit is ${MAX_NAME_CHARS}. Shorten it.` });
      }
      if (isFormulaLike(companyName)) {
        warnings.push({ row, column: label('companyName'), message: `"${companyName.slice(0, 40)}" starts like a spreadsheet formula; the pages show it as text and the CSV downloads prefix it with '` });
      }

      const numbers = {} as Record<NumericField, number>;
      for (const field of Object.keys(NUMERIC_RANGES) as NumericField[]) {
        const raw = at(field);
        const value = parseNumber(raw);
        const range = NUMERIC_RANGES[field];
        if (value === null) {
          if (columns.has(field)) {
            const text = cellText(raw);
            warnings.push({
              row,
              column: label(field),
              message: text === '' ? `blank, read as 0` : `"${excerpt(text)}" is not a number, read as 0`,
            });
          }
          numbers[field] = 0;
          continue;
        }
        if (value < range.min || value > range.max || (range.integer && !Number.isInteger(value))) {
          const span = range.integer ? `a whole number from ${range.min} to ${range.max}` : `from ${range.min} to ${range.max}`;
          throw new ExportError({ row, column: label(field), message: `Row ${row} (${ticker}): ${label(field)} is ${value}; it must be ${span}.` });
        }
        numbers[field] = value;
      }

      const record = SignalRecordSchema.safeParse({
        ticker,
        companyName,
        reportDate,
        isTopTicker: parseBoolean(at('isTopTicker')),
        ...numbers,
      });
      if (!record.success) {
        const field = record.error.issues[0]?.path[0];
        const problems = explainIssues(record.error.issues).map((line) => line.replace(/^(\w+):/, (_, name: string) => `${label(name as Field)}:`));
        throw new ExportError({ row, column: label(field as Field), message: `Row ${row} (${ticker}) is not a valid signal: ${problems.join('; ')}.` });
      }
      records.push(record.data);
    },
    finish() {
      if (records.length === 0) {
        throw new ExportError({ row: 2, message: 'The file has a header but no data rows: it needs one row per ticker.' });
      }
      return { records, warnings };
    },
  };
}

/**
 * Turns one export table into signal records (spec section 3, DESIGN.md "The export"), or throws an
 * ExportError naming the row and column when the table must be refused.
 */
export function normalizeExport(table: ExportTable, limits: ExportLimits = DEFAULT_EXPORT_LIMITS): NormalizedExport {
  checkRowCount(table.rows.length, limits);
  const [header, ...body] = table.rows;
  const normalizer = exportNormalizer(header, limits);
  body.forEach((cells, index) => normalizer.add(cells, index + 2));
  return normalizer.finish();
}

/** Picks the sheet that holds the signal rows: the one named like "Signals", else the first (docs/data-flow.md, "The export"). */
export function signalSheetIndex(sheetNames: string[]): number {
  const index = sheetNames.findIndex((name) => /signal/i.test(name));
  return index === -1 ? 0 : index;
}
