import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { changesAgainstPublished, megabytes, problemLine, qualifiedCounts } from '../../src/lib/domain/operator/operator';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { checkUploadContent } from '../../src/server/uploads';
import { signalRecord } from '../fixtures/records';

/** A history of two reports: `before` on 2026-11-19, `after` on 2026-11-20 (the latest). */
function history(before: Record<string, number>, after: Record<string, number>): SignalHistory {
  const tickers = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return {
    dates: ['2026-11-19', '2026-11-20'],
    latest: Object.entries(after).map(([ticker, cScore]) => signalRecord(ticker, { cScore })),
    scores: Object.fromEntries(tickers.map((t) => [t, [before[t] ?? null, after[t] ?? null]])),
  };
}

describe('changesAgainstPublished', () => {
  it.each([
    ['a ticker crossing 65 is a new bullish signal', { A: 64 }, { A: 65 }, { newSignals: [{ ticker: 'A', cScore: 65, direction: 'bullish' }], exits: [], reversals: [] }],
    ['a ticker crossing -65 is a new bearish signal', { A: -64.9 }, { A: -65 }, { newSignals: [{ ticker: 'A', cScore: -65, direction: 'bearish' }], exits: [], reversals: [] }],
    ['a ticker new to the report and qualified is a new signal', {}, { A: 90 }, { newSignals: [{ ticker: 'A', cScore: 90, direction: 'bullish' }], exits: [], reversals: [] }],
    ['falling back from 65 to 64 is an exit', { A: 65 }, { A: 64 }, { newSignals: [], exits: [{ ticker: 'A', from: 'bullish', to: 'neutral', date: '2026-11-20' }], reversals: [] }],
    ['a flip from -70 to 70 is a reversal, not a new signal nor an exit', { A: -70 }, { A: 70 }, { newSignals: [], exits: [], reversals: [{ ticker: 'A', from: 'bearish', to: 'bullish', date: '2026-11-20' }] }],
    ['staying qualified changes nothing', { A: 80 }, { A: 70 }, { newSignals: [], exits: [], reversals: [] }],
  ])('%s', (_name, before, after, expected) => {
    expect(changesAgainstPublished(history(before, after), '2026-11-19')).toEqual({ reportDate: '2026-11-20', publishedReportDate: '2026-11-19', ...expected });
  });
});

describe('upload texts', () => {
  it('counts bullish at 65 or more and bearish at -65 or less', () => {
    expect(qualifiedCounts([65, 64.99, -65, -64.99, 100, 0].map((cScore, i) => signalRecord(`T${i}`, { cScore })))).toEqual({ bullish: 2, bearish: 1 });
  });
  it.each([
    [25 * 1024 * 1024, '25 MB'],
    [25 * 1024 * 1024 + 1, '25.1 MB'],
    [251 * 1024 * 1024, '251 MB'],
    [1536 * 1024, '1.5 MB'],
  ])('megabytes(%i) is %s', (bytes, text) => expect(megabytes(bytes)).toBe(text));
  it('writes a problem with its file, row and column', () => {
    expect(problemLine({ file: 'a.csv', row: 4, column: 'C-Score', message: 'C-Score is 150.' })).toBe('a.csv (row 4, column "C-Score"): C-Score is 150.');
    expect(problemLine({ file: 'a.csv', message: 'The file is empty.' })).toBe('a.csv: The file is empty.');
  });
});

describe('checkUploadContent: the content decides, not the name', async () => {
  const workbook = new Uint8Array(await writeExcelFile([{ sheet: 'Signals', data: [['Ticker'], ['AAPL']] }]).toBuffer());
  const zip = new Uint8Array(Buffer.from('UEsDBAoAAAAAAAAAIQAAAAAAAAAAAAAAAAAFAAAAYS50eHRQSwECFAAKAAAAAAAAACEAAAAAAAAAAAAAAAAABQAAAAAAAAAAAAAAAAAAAAAAYS50eHRQSwUGAAAAAAEAAQAzAAAAIwAAAAAA', 'base64'));
  it.each<[string, string, Uint8Array, { name: string; renamed: boolean } | string]>([
    ['an XLSX named .xlsx', 'day.xlsx', workbook, { name: 'day.xlsx', renamed: false }],
    ['an XLSX named .csv', 'day.csv', workbook, { name: 'day.xlsx', renamed: true }],
    ['CSV text named .bin', 'day.bin', new TextEncoder().encode('Ticker,C-Score\nAAPL,70\n'), { name: 'day.csv', renamed: true }],
    ['CSV text with a path in its name', '../../etc/day.csv', new TextEncoder().encode('Ticker\n'), { name: 'day.csv', renamed: false }],
    ['a PDF named .xlsx', 'day.xlsx', new TextEncoder().encode('%PDF-1.7\n1 0 obj'), 'The file is application/pdf (.pdf), not a CSV or XLSX export: export the signals as .csv or .xlsx.'],
    ['a plain ZIP named .xlsx', 'day.xlsx', zip, 'The file is a ZIP archive but not an Excel workbook: upload the .xlsx or .csv export itself.'],
    ['binary bytes named .csv', 'day.csv', new Uint8Array([0x01, 0x02, 0x00, 0xff, 0xfe]), 'The file is binary, not CSV text or an XLSX workbook: export the signals as "CSV UTF-8" or .xlsx.'],
  ])('%s', async (_name, name, bytes, expected) => {
    const checked = await checkUploadContent(name, bytes);
    if (typeof expected === 'string') expect(checked).toEqual({ problem: { file: name.split('/').pop(), message: expected } });
    else expect(checked).toEqual({ file: { name: expected.name, bytes }, renamed: expected.renamed });
  });
});
