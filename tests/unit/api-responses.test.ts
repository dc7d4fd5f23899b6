import { describe, expect, it } from 'vitest';
import {
  archiveListing,
  downloadFileName,
  noSignalMessage,
} from '../../src/lib/domain/site/api-responses';
import { tickerProblem } from '../../src/lib/domain/report/ticker';
import type { ArchivedFile } from '../../src/lib/domain/report/schemas';

describe('tickerProblem (DESIGN.md "Security rules")', () => {
  it.each([
    ['AAPL', null],
    ['aapl', null],
    ['BRK.B', null],
    ['BF-B', null],
    ['ABCDEFGHIJ', null],
    ['', /empty/],
    ['ABCDEFGHIJK', /longer than 10/],
    ['AA PL', /characters other than/],
    ['<script>', /characters other than/],
    ['A/B', /characters other than/],
    ['ÄAPL', /characters other than/],
  ])('%j -> %s', (raw, expected) => {
    const problem = tickerProblem(raw);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe('downloadFileName', () => {
  it.each([
    ['signals-2026-11-20.csv', 'csv', undefined, 'signals-2026-11-20.csv'],
    ['signals-2026-11-20.xlsx', 'xlsx', undefined, 'signals-2026-11-20.xlsx'],
    ['signals-2026-11-20.xlsx', 'csv', 'Top Signals', 'signals-2026-11-20-Top-Signals.csv'],
    ['../../etc/passwd', 'csv', undefined, 'etc-passwd.csv'],
    ['"quoted";name.csv', 'csv', undefined, 'quoted-name.csv'],
    ['...', 'csv', undefined, 'signals.csv'],
  ])('%j as %s (sheet %j) -> %j', (name, extension, sheet, expected) => {
    expect(downloadFileName(name, extension, sheet)).toBe(expected);
  });
});

describe('archiveListing', () => {
  const file = (id: string, fileName: string, date: string, kind: 'csv' | 'xlsx', sheets = 1): ArchivedFile => ({
    id,
    sha256: id.repeat(4),
    fileName,
    kind,
    bytes: 10,
    archivedAt: '2026-11-21T08:00:00.000Z',
    reportDates: [date],
    rowCount: 3,
    sheets: Array.from({ length: sheets }, (_, i) => ({ id: i, sheetName: i === 0 ? 'Signals' : 'Summary', rowCount: 3, isActive: i === 0 })),
  });

  it('lists the newest report first with the spec fields and our download addresses', () => {
    const listed = archiveListing([file('aaaaaaaaaaaaaaaa', 'a.csv', '2026-11-18', 'csv'), file('bbbbbbbbbbbbbbbb', 'b.xlsx', '2026-11-20', 'xlsx', 2)]);
    expect(listed.map((f) => f.id)).toEqual(['bbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaa']);
    expect(listed[0]).toMatchObject({
      displayName: 'b.xlsx',
      fileDate: '2026-11-20',
      uploadedAt: '2026-11-21T08:00:00.000Z',
      sheetCount: 2,
      hasRawFile: true,
      rawUrl: '/api/download-excel/bbbbbbbbbbbbbbbb',
    });
    expect(listed[0]!.sheets[1]).toEqual({ id: 1, sheetName: 'Summary', rowCount: 3, csvContent: null, isActive: false, downloadUrl: '/api/download-csv/bbbbbbbbbbbbbbbb?sheetId=1' });
  });
});

describe('noSignalMessage', () => {
  it('names the ticker and the report, and says what to do', () => {
    expect(noSignalMessage('ZZZZ', '2026-11-20')).toBe('No signal for ZZZZ in the report of 2026-11-20: check the symbol, or pick one from /api/all-signals.');
    expect(noSignalMessage('ZZZZ', null)).toMatch(/run the daily job/);
  });
});
