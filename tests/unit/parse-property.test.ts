/**
 * A property-based test of the export parser. Generated and mutated CSV and XLSX files must each be accepted
 * or refused with a message (RefusedFileError naming the file), never throw anything else, and finish in bounded time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExport, RefusedFileError } from '../../src/ingest/parse';
import { EXPORT_HEADER, type ExportLimits } from '../../src/lib/domain/report/export';
import { workbook } from '../../scripts/sample/raw-xlsx';

// Small limits, so generated files reach every limit too.
const LIMITS: ExportLimits = { maxBytes: 200_000, maxUnpackedBytes: 400_000, maxRows: 40, maxColumns: 20, maxTickers: 30, maxCellChars: 300 };
const MS_PER_FILE = 2000;

const cell = fc.oneof(
  fc.constantFrom('AAPL', 'brk.b', 'ıbm', '2026-11-20', '11/20/2026', '26-11-20', '70', '-40.5', '1,234.5', 'TRUE', '', '=HYPERLINK("x")', '\u202eX\u200b'),
  fc.integer({ min: -200, max: 200 }).map(String),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom('"', '""', ',', '\n', '\r\n', 'a"b', 'x'.repeat(400)),
);
const header = fc.oneof(fc.shuffledSubarray([...EXPORT_HEADER], { minLength: 0 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 16 }));
const table = fc.tuple(header, fc.array(fc.array(cell, { maxLength: 18 }), { maxLength: 60 })).map(([head, rows]) => [head, ...rows]);

/** Mutations a file meets on its way: cut short, bytes flipped, bytes inserted, a BOM put in front. */
const mutation = fc.oneof(
  fc.constant((bytes: Buffer) => bytes),
  fc.nat().map((n) => (bytes: Buffer) => bytes.subarray(0, bytes.length === 0 ? 0 : n % bytes.length)),
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => (bytes: Buffer) => {
    const copy = Buffer.from(bytes);
    for (const [at, value] of flips) if (copy.length > 0) copy[at % copy.length] = value;
    return copy;
  }),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([at, extra]) => (bytes: Buffer) => {
    const cut = bytes.length === 0 ? 0 : at % bytes.length;
    return Buffer.concat([bytes.subarray(0, cut), extra, bytes.subarray(cut)]);
  }),
  fc.constantFrom(Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])).map((bom) => (bytes: Buffer) => Buffer.concat([bom, bytes])),
);

async function acceptsOrRefuses(name: string, bytes: Uint8Array): Promise<void> {
  const started = performance.now();
  try {
    const parsed = await parseExport(name, bytes, LIMITS);
    expect(parsed.records.length).toBeGreaterThan(0);
    expect(parsed.records.length).toBeLessThanOrEqual(LIMITS.maxRows);
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    expect(error.message.startsWith(`${name}`)).toBe(true);
    expect(error.message.length).toBeGreaterThan(name.length + 10);
  }
  expect(performance.now() - started).toBeLessThan(MS_PER_FILE);
}

describe('the export parser, property-based', () => {
  it('accepts or refuses every generated and mutated CSV with a message', async () => {
    const csv = (rows: string[][]) => Buffer.from(rows.map((r) => r.map((c) => (/[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n'));
    await fc.assert(
      fc.asyncProperty(table, mutation, fc.constantFrom('signals.csv', 'signals.txt', 'signals.xlsx'), async (rows, mutate, name) => {
        await acceptsOrRefuses(name, mutate(csv(rows)));
      }),
      { numRuns: 300, seed: 2101 },
    );
  });

  it('accepts or refuses every generated and mutated XLSX with a message', async () => {
    const dimension = fc.option(fc.constantFrom('A1', 'A1:N41', 'A1:XFD1048576', 'A1:Z100', 'B2:A1', 'garbage'), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(table, dimension, mutation, async (rows, declared, mutate) => {
        await acceptsOrRefuses('signals.xlsx', mutate(workbook(rows, { dimension: declared })));
      }),
      { numRuns: 150, seed: 2102 },
    );
  });
});
