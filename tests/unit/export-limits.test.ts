/** Every limit refuses with the file, the limit and the value. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExport, RefusedFileError } from '../../src/ingest/parse';
import { pullSource } from '../../src/ingest/pull';
import { DEFAULT_EXPORT_LIMITS } from '../../src/lib/domain/report/export';
import { heatmapLayout } from '../../src/lib/domain/signals/heatmap';
import { signalRecord } from '../fixtures/records';
import { workbook } from '../../scripts/sample/raw-xlsx';

const HEADER = ['Ticker', 'Company Name', 'Report Date', 'C-Score'];
const row = (ticker: string, name = `${ticker} Inc.`) => [ticker, name, '2026-11-20', 10];

async function refusal(name: string, bytes: Uint8Array, limits = DEFAULT_EXPORT_LIMITS): Promise<string> {
  const error = await parseExport(name, bytes, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedFileError);
  return (error as Error).message;
}

/** A ticker of A-Z from a number, unique per number. */
function tickerOf(n: number): string {
  let t = '';
  for (let x = n; t.length === 0 || x > 0; x = Math.floor(x / 26)) t += String.fromCharCode(65 + (x % 26));
  return t;
}

describe('export limits', () => {
  it('refuses a 2 KB XLSX with one cell at XFD1048576 from its declared extent, before expanding it', async () => {
    const bytes = workbook([HEADER, row('AAPL')], { dimension: 'A1:XFD1048576', extraCells: '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>' });
    expect(bytes.length).toBeLessThan(2048);
    const started = performance.now();
    const message = await refusal('huge.xlsx', bytes);
    expect(message).toMatch(/^huge\.xlsx: The sheet sheet1\.xml reaches row 1,048,576 \(dimension A1:XFD1048576\); the limit is 100,000 data rows a file \(EXPORT_MAX_ROWS\)/);
    expect(performance.now() - started).toBeLessThan(2000);
    // Without a dimension, the furthest cell reference says the same.
    const undeclared = workbook([HEADER, row('AAPL')], { extraCells: '<row r="3"><c r="XFD3"><v>1</v></c></row>' });
    expect(await refusal('wide.xlsx', undeclared)).toMatch(/^wide\.xlsx: The sheet sheet1\.xml reaches column 16,384; the limit is 100 columns \(EXPORT_MAX_COLUMNS\)/);
    // Rows without numbers are counted.
    const unnumbered = workbook([HEADER], { extraCells: '<row><c><v>1</v></c></row>'.repeat(100_001) });
    expect(await refusal('rows.xlsx', unnumbered)).toMatch(/^rows\.xlsx: The sheet sheet1\.xml reaches row 100,002; the limit is 100,000 data rows a file/);
  });

  it('refuses a huge company name packed into a small XLSX from its shared strings (and its unpacked size), before the sheet is read', async () => {
    const name = 'A'.repeat(5_000_000);
    const bytes = workbook([HEADER, row('AAPL', name)]);
    expect(bytes.length).toBeLessThan(100_000);
    expect(await refusal('long.xlsx', bytes)).toMatch(/^long\.xlsx: A text cell of the workbook holds 5,000,000 characters; the limit is 1,000 a cell \(EXPORT_MAX_CELL_CHARS\)/);
    const small = { ...DEFAULT_EXPORT_LIMITS, maxUnpackedBytes: 1_000_000 };
    expect(await refusal('long.xlsx', bytes, small)).toMatch(/^long\.xlsx: The workbook's part xl\/sharedStrings\.xml unpacks to 5,000,\d{3} bytes; the limit is 1,000,000 bytes unpacked \(EXPORT_MAX_UNPACKED_BYTES\)/);
  });

  it('holds company names to 200 characters after stripping control, bidi-override and zero-width characters', async () => {
    const csv = (name: string) => Buffer.from([HEADER.join(','), `AAPL,"${name}",2026-11-20,10`].join('\n'));
    expect(await refusal('name.csv', csv('N'.repeat(201)))).toBe('name.csv (row 2, column "Company Name"): Row 2 (AAPL): the company name has 201 characters; the limit is 200. Shorten it.');
    const hidden = `\u202eApple\u200b Inc.\u2066${'\u200d'.repeat(500)}`;
    const parsed = await parseExport('name.csv', csv(hidden));
    expect(parsed.records[0]!.companyName).toBe('Apple Inc.');
    const other = Buffer.from([`${HEADER.join(',')},Notes`, `AAPL,Apple,2026-11-20,10,${'x'.repeat(1001)}`].join('\n'));
    expect(await refusal('notes.csv', other)).toMatch(/^notes\.csv \(row 2, column "Notes"\): Row 2: a cell holds 1,001 characters; the limit is 1,000 a cell \(EXPORT_MAX_CELL_CHARS\)/);
  });

  it('refuses a 1M-row CSV by its rows, without reading past the limit', async () => {
    const lines = [HEADER.join(',')];
    for (let i = 0; i < 1_000_000; i += 1) lines.push(`${tickerOf(i)},x,2026-11-20,1`);
    const bytes = Buffer.from(lines.join('\n'));
    const started = performance.now();
    expect(await refusal('rows.csv', bytes)).toBe('rows.csv: The file has 100,001 data rows; the limit is 100,000 (EXPORT_MAX_ROWS). Split the export into smaller files.');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses more tickers a report than the limit, and a file larger than the byte limit without parsing it', async () => {
    const lines = [HEADER.join(',')];
    for (let i = 0; i < 21; i += 1) lines.push(`${tickerOf(i)},x,2026-11-20,1`);
    const limits = { ...DEFAULT_EXPORT_LIMITS, maxTickers: 20 };
    expect(await refusal('many.csv', Buffer.from(lines.join('\n')), limits)).toBe(
      'many.csv (row 22): The report of 2026-11-20 has more than 20 tickers (row 22 is number 21); the limit is 20 a report (EXPORT_MAX_TICKERS).',
    );
    expect(await refusal('big.csv', Buffer.from(lines.join('\n')), { ...DEFAULT_EXPORT_LIMITS, maxBytes: 100 })).toMatch(
      /^big\.csv: The file is \d{3} bytes; the limit is 100 bytes a file \(EXPORT_MAX_BYTES\)\. Split the export into smaller files\.$/,
    );
  });

  describe('pulling', () => {
    let dir: string;
    afterAll(() => rm(dir, { recursive: true, force: true }));
    it('does not read a file past the byte limit: it is reported by its size', async () => {
      dir = await mkdtemp(join(tmpdir(), 'pull-'));
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'big.csv'), Buffer.alloc(5000, 65));
      await writeFile(join(dir, 'small.csv'), 'Ticker');
      const pulled = await pullSource(dir, 1000);
      expect(pulled.files).toEqual([
        { name: 'big.csv', bytes: new Uint8Array(), tooLarge: 5000 },
        { name: 'small.csv', bytes: Buffer.from('Ticker') },
      ]);
    });

    it('stops downloading a URL past the byte limit, whether or not it declares its length', async () => {
      const server = createServer((req, res) => {
        res.writeHead(200, req.url === '/declared' ? { 'content-type': 'text/csv', 'content-length': '5000' } : { 'content-type': 'text/csv' });
        res.end('A'.repeat(5000));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        expect((await pullSource(`${origin}/declared`, 1000)).files).toEqual([{ name: 'declared.csv', bytes: new Uint8Array(), tooLarge: 5000 }]);
        expect((await pullSource(`${origin}/chunked`, 1000)).files).toEqual([{ name: 'chunked.csv', bytes: new Uint8Array(), tooLarge: 1001 }]);
        expect((await pullSource(`${origin}/chunked`, 10_000)).files[0]!.bytes.length).toBe(5000);
      } finally {
        server.close();
      }
    });
  });

  it('lays out a 200,000-ticker heatmap (no spread of every record into one call)', () => {
    const records = Array.from({ length: 200_000 }, (_, i) => signalRecord(tickerOf(i)));
    const caps = Object.fromEntries(records.map((r, i) => [r.ticker, i + 1]));
    const sectors = heatmapLayout(records, caps);
    expect(sectors.reduce((sum, s) => sum + s.count, 0)).toBe(200_000);
  });
});

describe('the text of an export', () => {
  it('reads a UTF-16 CSV with its byte-order mark as text', async () => {
    const text = [HEADER.join(','), 'AAPL,Äpple Inc.,2026-11-20,10'].join('\r\n');
    for (const [encoding, bom] of [['utf16le', [0xff, 0xfe]], ['utf16be', [0xfe, 0xff]]] as const) {
      const body = Buffer.from(text, 'utf16le');
      if (encoding === 'utf16be') body.swap16();
      const parsed = await parseExport('unicode.csv', Buffer.concat([Buffer.from(bom), body]));
      expect(parsed.records.map((r) => [r.ticker, r.companyName])).toEqual([['AAPL', 'Äpple Inc.']]);
    }
  });

  it('warns about formula-like company names, which pass ingest as text', async () => {
    const parsed = await parseExport('formula.csv', Buffer.from([HEADER.join(','), 'AAPL,"=HYPERLINK(""http://evil"")",2026-11-20,10'].join('\n')));
    expect(parsed.records[0]!.companyName).toBe('=HYPERLINK("http://evil")');
    expect(parsed.warnings).toContainEqual({
      row: 2,
      column: 'Company Name',
      message: '"=HYPERLINK("http://evil")" starts like a spreadsheet formula; the pages show it as text and the CSV downloads prefix it with \'',
    });
  });

  it('upper-cases tickers in ASCII only: ıbm and ß are refused, not read as IBM and SS', async () => {
    const csv = (ticker: string) => Buffer.from([HEADER.join(','), `${ticker},x,2026-11-20,10`].join('\n'));
    expect((await parseExport('t.csv', csv('ibm'))).records[0]!.ticker).toBe('IBM');
    expect(await refusal('t.csv', csv('ıbm'))).toContain('ticker "ıBM" is not 1 to 10 characters');
    expect(await refusal('t.csv', csv('ß'))).toContain('ticker "ß" is not');
  });
});
