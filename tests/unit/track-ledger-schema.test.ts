/**
 * The per-ticker ledger's one schema: the writer emits every nullable field (an open row's exitReturn is null, never
 * absent), the schema says nullable rather than optional, and the module is browser-safe (no CSV writer in its bundle),
 * so /compare and the permalinks' not-found screen read the file with it.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LedgerRowSchema, TickerTrackFileSchema } from '../../src/lib/domain/track-record/ledger-schema';
import { tickerTrackJson, trackReport, type TrackData } from '../../src/lib/domain/track-record/track-data';
import type { LedgerRow } from '../../src/lib/domain/track-record/track-record';

const track: TrackData = {
  prices: 'demo',
  days: ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'],
  closes: { AAPL: [100, 102, 101, 104], XOM: [50, 49, 48, 47] },
  entries: [
    { ticker: 'AAPL', date: '2026-11-02', direction: 'bullish', cScore: 70, exitDate: '2026-11-04' },
    { ticker: 'AAPL', date: '2026-11-05', direction: 'bullish', cScore: 72, exitDate: null },
  ],
};

describe('the per-ticker ledger file', () => {
  const report = trackReport(track, () => 'Tech');
  const rows = report.ledger.filter((r) => r.ticker === 'AAPL');

  it('an open row carries exitReturn: null and exitDate: null; an exited one its return', () => {
    const file = JSON.parse(tickerTrackJson(report, rows, 'AAPL')) as { ledger: Record<string, unknown>[] };
    const open = file.ledger.find((r) => r.date === '2026-11-05')!;
    expect(Object.hasOwn(open, 'exitReturn')).toBe(true);
    expect(open.exitReturn).toBeNull();
    expect(open.exitDate).toBeNull();
    expect(file.ledger.find((r) => r.date === '2026-11-02')!.exitReturn).toBeCloseTo(0.01, 6);
    expect(TickerTrackFileSchema.parse(file).ledger).toHaveLength(2);
  });

  it('a row measured without an exit return (an older build\'s) is written with null, not left out', () => {
    const { exitReturn: _left, ...older } = rows.find((r) => r.exitDate === null)!;
    const file = JSON.parse(tickerTrackJson(report, [older as LedgerRow], 'AAPL')) as { ledger: Record<string, unknown>[] };
    expect(Object.hasOwn(file.ledger[0]!, 'exitReturn')).toBe(true);
    expect(file.ledger[0]!.exitReturn).toBeNull();
  });

  it.each([
    ['exitReturn null: valid', { exitReturn: null }, true],
    ['exitReturn a number: valid', { exitReturn: 0.02 }, true],
    ['exitReturn absent: refused', { exitReturn: undefined }, false],
    ['exitDate absent: refused', { exitDate: undefined }, false],
    ['an outcome\'s excessReturn absent: refused', { outcomes: [{ horizon: 5, status: 'open', date: null, close: null, priceReturn: null, signalReturn: null, hit: null, benchmarkReturn: null }] }, false],
  ])('the schema: %s', (_name, change, valid) => {
    const row = JSON.parse(JSON.stringify({ ...rows[0]!, ...change })) as unknown;
    expect(LedgerRowSchema.safeParse(row).success).toBe(valid);
  });

  it('the schema\'s module bundles for the browser without the CSV writer or the track record\'s data module', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, '../../src/lib/domain/track-record/ledger-schema.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('ledger-schema.ts'))).toBe(true);
    expect(inputs.filter((path) => /csv|track-data\.ts|node:/.test(path))).toEqual([]);
  });
});
