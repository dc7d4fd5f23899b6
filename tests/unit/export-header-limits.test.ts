/**
 * The export's cell limit holds for the header too, in CSV and XLSX, checked as the CSV streams in; and a refusal or
 * warning quotes at most ~80 characters of the file's text (a 24 MB header used to be refused after 22 s, echoed whole).
 */
import { describe, expect, it } from 'vitest';
import { parseExport, RefusedFileError, WORKBOOK_THREAD_BYTES } from '../../src/ingest/parse';
import { DEFAULT_EXPORT_LIMITS, ExportError, normalizeExport } from '../../src/lib/domain/report/export';
import { excerpt, QUOTED_CHARS } from '../../src/lib/domain/text/text';
import { workbook } from '../../scripts/sample/raw-xlsx';
import { watchEventLoop } from '../fixtures/event-loop';
import { EXPORT_HEADER_LINE } from '../fixtures/exports';

const HEADER = ['Ticker', 'Company Name', 'Report Date', 'C-Score'];
const ROW = 'AAPL,Apple Inc.,2026-11-20,10';
// The longest quote a message may hold: the excerpt and its ellipsis.
const QUOTE_MAX = QUOTED_CHARS + 1;

async function refusal(name: string, bytes: Uint8Array): Promise<string> {
  const error = await parseExport(name, bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedFileError);
  return (error as Error).message;
}

/** The longest run of the file's filler character `char` that `message` quotes. */
function longestQuote(message: string, char: string): number {
  return Math.max(0, ...(message.match(new RegExp(`${char}+`, 'g')) ?? []).map((run) => run.length));
}

describe('header cells and the cell limit', () => {
  it('refuses a CSV header cell over EXPORT_MAX_CELL_CHARS, naming the limit, quoting none of it', async () => {
    const bytes = Buffer.from([`${HEADER.join(',')},${'q'.repeat(1001)}`, `${ROW},x`].join('\n'));
    const message = await refusal('header.csv', bytes);
    expect(message).toBe('header.csv (row 1, column "column 5"): Row 1 (the header): a cell holds 1,001 characters; the limit is 1,000 a cell (EXPORT_MAX_CELL_CHARS). Shorten that cell.');
    // Exactly at the limit it is an unknown column, ignored with a warning that quotes at most ~80 characters of it.
    const parsed = await parseExport('header.csv', Buffer.from([`${HEADER.join(',')},${'q'.repeat(1000)}`, `${ROW},x`].join('\n')));
    const warning = parsed.warnings.find((w) => w.row === 1)!;
    expect(warning.message).toMatch(/^Column "q+…" is not a known field and was ignored\.$/);
    expect(longestQuote(warning.message, 'q')).toBeLessThanOrEqual(QUOTE_MAX);
    expect(warning.column!.length).toBeLessThanOrEqual(QUOTE_MAX);
  });

  it('refuses an XLSX header cell over EXPORT_MAX_CELL_CHARS: as a shared string, as an inline string, and as a cell read', async () => {
    const long = 'w'.repeat(1001);
    expect(await refusal('shared.xlsx', workbook([[...HEADER, long], ['AAPL', 'Apple', '2026-11-20', 10, 'x']]))).toMatch(
      /^shared\.xlsx: A text cell of the workbook holds 1,001 characters; the limit is 1,000 a cell \(EXPORT_MAX_CELL_CHARS\)/,
    );
    const inline = (text: string, col: string) => `<c r="${col}1" t="inlineStr"><is><t>${text}</t></is></c>`;
    const header = `<row r="1">${HEADER.map((label, i) => inline(label, 'ABCD'[i]!)).join('')}${inline(long, 'E')}</row>`;
    expect(await refusal('inline.xlsx', workbook([], { extraCells: header }))).toMatch(/^inline\.xlsx: A text cell of the workbook holds 1,001 characters; the limit is 1,000 a cell \(EXPORT_MAX_CELL_CHARS\)/);
    // What a workbook reader hands over is held to the same rule, header first.
    expect(() => normalizeExport({ sheet: 'Signals', rows: [[...HEADER, long], ['AAPL', 'Apple', '2026-11-20', 10, 'x']] })).toThrow(
      new ExportError({ row: 1, column: 'column 5', message: 'Row 1 (the header): a cell holds 1,001 characters; the limit is 1,000 a cell (EXPORT_MAX_CELL_CHARS). Shorten that cell.' }),
    );
  });

  it('refuses a 24 MB one-line header as it streams, quickly, in a short message naming the limits', async () => {
    for (const header of ['Ticker,C-Score,Report Date,' + 'abcdefghi,'.repeat(2_400_000), 'Ticker,C-Score,Report Date,' + 'z'.repeat(24_000_000), 'z'.repeat(24_000_000)]) {
      const started = performance.now();
      const message = await refusal('header.csv', Buffer.from(`${header}\n${ROW}\n`));
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(message).toBe(
        'header.csv (row 1): Row 1 (the header) runs past 400,000 bytes without ending: a row may hold 100 columns (EXPORT_MAX_COLUMNS) of 1,000 characters a cell (EXPORT_MAX_CELL_CHARS). Shorten its cells or delete the columns the export does not need.',
      );
    }
  });

  it('counts a header of too many short columns before looking for the required ones', async () => {
    const header = Array.from({ length: 150 }, (_, i) => `extra${i}`).join(',');
    expect(await refusal('wide.csv', Buffer.from(`${header}\n${'1,'.repeat(149)}1\n`))).toBe(
      'wide.csv (row 1): The header has 150 columns; the limit is 100 (EXPORT_MAX_COLUMNS). Delete the columns the export does not need.',
    );
  });

  it('quotes at most ~80 characters of a cell in every message that shows one', async () => {
    const long = 'k'.repeat(900);
    const cases: [string, string][] = [
      // No Ticker column: the labels found are listed, cut short.
      ['labels', [`${long},C-Score,Report Date`, `x,1,2026-11-20`].join('\n')],
      ['ticker', [HEADER.join(','), `${long},Apple,2026-11-20,10`].join('\n')],
      ['date', [HEADER.join(','), `AAPL,Apple,${long},10`].join('\n')],
    ];
    for (const [what, csv] of cases) {
      const message = await refusal(`${what}.csv`, Buffer.from(csv));
      expect(longestQuote(message, 'k'), `${what}: ${message}`).toBeLessThanOrEqual(QUOTE_MAX);
      expect(message.length, what).toBeLessThan(400);
    }
    const numbers = await parseExport('n.csv', Buffer.from([`${HEADER.join(',')},Delta Score`, `${ROW},${long}`].join('\n')));
    const warning = numbers.warnings.find((w) => w.column === 'Delta Score')!;
    expect(warning.message).toMatch(/^"k+…" is not a number, read as 0$/);
    expect(longestQuote(warning.message, 'k')).toBeLessThanOrEqual(QUOTE_MAX);
  });

  it('excerpt keeps short text whole and cuts long text to QUOTED_CHARS with an ellipsis, never inside a character', () => {
    expect(excerpt('Ticker')).toBe('Ticker');
    expect(excerpt('x'.repeat(80))).toBe('x'.repeat(80));
    expect(excerpt('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    const emoji = `${'x'.repeat(78)}😀😀`;
    expect(excerpt(emoji)).toBe(`${'x'.repeat(78)}…`);
    expect(DEFAULT_EXPORT_LIMITS.maxCellChars).toBe(1000);
  });

  it('reads a CSV whose multi-byte characters fall across the streaming slices', async () => {
    const names = Array.from({ length: 3000 }, (_, i) => `T${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26) % 26)}${String.fromCharCode(65 + Math.floor(i / 676))},Café ☕ Société ${i},2026-11-20,10`);
    const parsed = await parseExport('utf8.csv', Buffer.from([HEADER.join(','), ...names].join('\r\n')));
    expect(parsed.records).toHaveLength(3000);
    expect(parsed.records.every((r, i) => r.companyName === `Café ☕ Société ${i}`)).toBe(true);
  });

  it('reads and checks a 100,000-row CSV a slice at a time: the event loop is never held 100 ms', async () => {
    const lines = [EXPORT_HEADER_LINE];
    const letters = (n: number) => Array.from({ length: 4 }, (_, k) => String.fromCharCode(65 + (Math.floor(n / 26 ** k) % 26))).join('');
    for (let i = 0; i < 20_000; i += 1) for (const day of [16, 17, 18, 19, 20]) lines.push(`${letters(i)},Company ${i},2026-11-${day},${(i % 200) - 100},0,1,2,3,4,5,6,0,0,FALSE`);
    const stop = watchEventLoop();
    const parsed = await parseExport('large.csv', Buffer.from(lines.join('\n')));
    const { heldMs } = stop();
    expect(parsed.records).toHaveLength(100_000);
    expect(heldMs).toBeLessThan(100);
  }, 60_000);

  it('reads a large workbook in a thread of its own: its records, its refusals, and the event loop never held 100 ms', async () => {
    const rows: (string | number)[][] = [[...HEADER, 'Notes']];
    const letters = (n: number) => Array.from({ length: 4 }, (_, k) => String.fromCharCode(65 + (Math.floor(n / 26 ** k) % 26))).join('');
    for (let i = 0; i < 20_000; i += 1) rows.push([letters(i), `Company ${i}`, '2026-11-20', (i % 200) - 100, `note ${i}`]);
    const bytes = workbook(rows);
    expect(bytes.length).toBeGreaterThan(WORKBOOK_THREAD_BYTES);
    const stop = watchEventLoop();
    const parsed = await parseExport('large.xlsx', bytes);
    const { heldMs } = stop();
    expect(parsed.kind).toBe('xlsx');
    expect(parsed.records).toHaveLength(20_000);
    expect(parsed.records[19_999]).toMatchObject({ ticker: letters(19_999), companyName: 'Company 19999', cScore: (19_999 % 200) - 100 });
    expect(heldMs).toBeLessThan(100);
    // A refusal found in the thread comes back as the same message.
    rows[0]![4] = 'n'.repeat(1001);
    expect(await refusal('long.xlsx', workbook(rows))).toMatch(/^long\.xlsx: A text cell of the workbook holds 1,001 characters; the limit is 1,000 a cell \(EXPORT_MAX_CELL_CHARS\)/);
  }, 60_000);
});
