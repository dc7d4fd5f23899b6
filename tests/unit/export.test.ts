import { describe, expect, it } from 'vitest';
import {
  EXPORT_HEADER,
  ExportError,
  normalizeExport,
  parseBoolean,
  parseNumber,
  parseReportDate,
  signalSheetIndex,
  type Cell,
} from '../../src/lib/domain/report/export';
import { EXPORT_COLUMNS } from '../fixtures/exports';

const SPREADSHEET_HEADER = [...EXPORT_COLUMNS];
const CAMEL_HEADER = [
  'ticker',
  'companyName',
  'reportDate',
  'cScore',
  'yesterdayCScore',
  'delta',
  'accuracy',
  'market',
  'relevance',
  'avgCScoreL7D',
  'avgCScoreL14D',
  'countL7DWithSignal',
  'countL14DWithSignal',
  'isTopTicker',
];
const AAPL_ROW: Cell[] = ['aapl ', 'Apple Inc.', '2026-11-20', '72.50', ' 60.1 ', '12', '88', '-5.25', '41', '66.3', '58', '3', '5', 'TRUE'];

function problemOf(rows: Cell[][]): { row?: number; column?: string; message: string } {
  try {
    normalizeExport({ sheet: null, rows });
  } catch (error) {
    expect(error).toBeInstanceOf(ExportError);
    return (error as ExportError).problem;
  }
  throw new Error('expected the table to be refused');
}

describe('parseNumber', () => {
  it.each<[Cell, number | null]>([
    ['12.5', 12.5],
    [' 12.5 ', 12.5],
    ['1,234.5', 1234.5],
    ['-65', -65],
    ['+65.00', 65],
    [65, 65],
    ['', null],
    ['  ', null],
    [null, null],
    [undefined, null],
    ['abc', null],
    ['12abc', null],
    [Number.NaN, null],
    [true, null],
  ])('%j -> %j', (cell, expected) => {
    expect(parseNumber(cell)).toBe(expected);
  });
});

describe('parseBoolean (Top Ticker?)', () => {
  it.each<[Cell, boolean]>([
    ['TRUE', true],
    ['true', true],
    ['1', true],
    ['yes', true],
    [true, true],
    [1, true],
    ['FALSE', false],
    ['false', false],
    ['0', false],
    ['', false],
    [null, false],
  ])('%j -> %j', (cell, expected) => {
    expect(parseBoolean(cell)).toBe(expected);
  });
});

describe('parseReportDate', () => {
  it.each<[Cell, string | null]>([
    ['2026-03-02', '2026-03-02'],
    ['2026-3-2', '2026-03-02'],
    ['3/2/2026', '2026-03-02'],
    ['11/20/2026', '2026-11-20'],
    ['26-03-02', '2026-03-02'],
    ['2026-11-20T00:00:00.000Z', '2026-11-20'],
    [new Date(Date.UTC(2026, 10, 20)), '2026-11-20'],
    [46346, '2026-11-20'],
    ['2026-02-30', null],
    ['13/1/2026', null],
    ['yesterday', null],
    ['', null],
    [12, null],
  ])('%j -> %j', (cell, expected) => {
    expect(parseReportDate(cell)).toBe(expected);
  });
});

describe('normalizeExport reads both label styles', () => {
  it.each([
    ['spreadsheet labels', SPREADSHEET_HEADER],
    ['camelCase labels', CAMEL_HEADER],
    ['labels in other case and spacing', SPREADSHEET_HEADER.map((l) => l.toUpperCase().replace(/ /g, '  '))],
    ['the header row the sample exports write', [...EXPORT_HEADER]],
  ])('%s', (_name, header) => {
    const { records, warnings } = normalizeExport({ sheet: null, rows: [header, AAPL_ROW] });
    expect(warnings).toEqual([]);
    expect(records).toEqual([
      {
        ticker: 'AAPL',
        companyName: 'Apple Inc.',
        reportDate: '2026-11-20',
        cScore: 72.5,
        yesterdayCScore: 60.1,
        deltaScore: 12,
        accuracyScore: 88,
        marketScore: -5.25,
        relevanceScore: 41,
        avgCScoreL7D: 66.3,
        avgCScoreL14D: 58,
        countL7DWithSignal: 3,
        countL14DWithSignal: 5,
        isTopTicker: true,
      },
    ]);
  });

  it('reads blank and unparsable numbers as 0 and lists each as a warning with row and column', () => {
    const row = [...AAPL_ROW];
    row[4] = '';
    row[5] = 'n/a';
    const { records, warnings } = normalizeExport({ sheet: null, rows: [SPREADSHEET_HEADER, row] });
    expect(records[0]?.yesterdayCScore).toBe(0);
    expect(records[0]?.deltaScore).toBe(0);
    expect(warnings).toEqual([
      { row: 2, column: 'Yesterday C-Score', message: 'blank, read as 0' },
      { row: 2, column: 'Delta Score', message: '"n/a" is not a number, read as 0' },
    ]);
  });

  it('accepts a file with only ticker, C-Score and report date; the rest default to 0 without warnings', () => {
    const { records, warnings } = normalizeExport({ sheet: null, rows: [['Ticker', 'C-Score', 'Report Date'], ['MSFT', '-70', '11/20/2026']] });
    expect(warnings).toEqual([]);
    expect(records[0]).toMatchObject({ ticker: 'MSFT', cScore: -70, yesterdayCScore: 0, isTopTicker: false, companyName: '' });
  });

  it('skips blank rows and keeps trailing empty cells', () => {
    const { records } = normalizeExport({ sheet: null, rows: [SPREADSHEET_HEADER, [...AAPL_ROW, '', ''], [], ['', '']] });
    expect(records.map((r) => r.ticker)).toEqual(['AAPL']);
  });
});

describe('normalizeExport refuses a file and says where', () => {
  const withCell = (index: number, value: Cell) => {
    const row = [...AAPL_ROW];
    row[index] = value;
    return row;
  };
  it.each<[string, Cell[][], { row?: number; column?: string; message: RegExp }]>([
    ['an empty table', [], { message: /empty/ }],
    ['a header without rows', [SPREADSHEET_HEADER], { row: 2, message: /no data rows/ }],
    ['no C-Score column', [SPREADSHEET_HEADER.filter((l) => l !== 'C-Score'), AAPL_ROW.slice(1)], { row: 1, column: 'C-Score', message: /no "C-Score" column/ }],
    ['no Ticker column', [['C-Score', 'Report Date'], ['1', '2026-11-20']], { row: 1, column: 'Ticker', message: /no "Ticker" column/ }],
    ['no Report Date column', [['Ticker', 'C-Score'], ['AAPL', '1']], { row: 1, column: 'Report Date', message: /no "Report Date" column/ }],
    ['a C-Score of 150', [SPREADSHEET_HEADER, withCell(3, '150')], { row: 2, column: 'C-Score', message: /C-Score is 150; it must be from -100 to 100/ }],
    ['a C-Score of -100.5', [SPREADSHEET_HEADER, withCell(3, '-100.5')], { row: 2, column: 'C-Score', message: /-100.5/ }],
    ['a count of 8 days out of 7', [SPREADSHEET_HEADER, withCell(11, '8')], { row: 2, column: 'Count L7D with Signal', message: /whole number from 0 to 7/ }],
    ['a duplicate ticker', [SPREADSHEET_HEADER, AAPL_ROW, withCell(0, 'AAPL')], { row: 3, column: 'Ticker', message: /AAPL appears twice for 2026-11-20 \(first at row 2\)/ }],
    ['a short (ragged) row', [SPREADSHEET_HEADER, AAPL_ROW.slice(0, 10)], { row: 2, column: 'Avg. C-Score L14D', message: /ragged/ }],
    ['a long (ragged) row', [SPREADSHEET_HEADER, [...AAPL_ROW, 'extra']], { row: 2, column: 'column 15 (no header)', message: /ragged/ }],
    ['a row without a report date', [SPREADSHEET_HEADER, withCell(2, '')], { row: 2, column: 'Report Date', message: /no report date/ }],
    ['an unreadable report date', [SPREADSHEET_HEADER, withCell(2, 'Friday')], { row: 2, column: 'Report Date', message: /"Friday" is not a date/ }],
    ['a row without a ticker', [SPREADSHEET_HEADER, withCell(0, ' ')], { row: 2, column: 'Ticker', message: /no ticker/ }],
    ['a malformed ticker', [SPREADSHEET_HEADER, withCell(0, 'AAPL<script>')], { row: 2, column: 'Ticker', message: /not 1 to 10 characters/ }],
    ['a date cell past the year 9999', [SPREADSHEET_HEADER, withCell(2, new Date(Date.UTC(10000, 0, 1)))], { row: 2, column: 'Report Date', message: /Row 2 \(AAPL\) is not a valid signal: Report Date: expected a date as yyyy-mm-dd/ }],
    ['a repeated column', [[...SPREADSHEET_HEADER, 'cScore'], [...AAPL_ROW, '1']], { row: 1, column: 'cScore', message: /repeats column "C-Score"/ }],
  ])('%s', (_name, rows, expected) => {
    const problem = problemOf(rows);
    expect(problem.message).toMatch(expected.message);
    if ('row' in expected) expect(problem.row).toBe(expected.row);
    if ('column' in expected) expect(problem.column).toBe(expected.column);
  });
});

describe('signalSheetIndex', () => {
  it.each<[string[], number]>([
    [['Summary', 'Signals'], 1],
    [['Daily signals', 'Notes'], 0],
    [['Sheet1', 'Sheet2'], 0],
    [[], 0],
  ])('%j -> %i', (names, expected) => {
    expect(signalSheetIndex(names)).toBe(expected);
  });
});
