/** The live chart's reading of a ticker's track-record file (the markers' rows), without a schema library. */
import { describe, expect, it } from 'vitest';
import { ledgerRows, signalMarkers } from '../../src/lib/domain/trend/chart-series';

describe('ledgerRows', () => {
  it('reads the rows the markers need, and drops the fields they do not', () => {
    const file = { ticker: 'NVDA', ledger: [{ date: '2026-09-01', direction: 'bearish', cScore: -70.5, exitDate: '2026-09-08', entryClose: 101 }, { date: '2026-10-01', direction: 'bullish', cScore: 66, exitDate: null }] };
    const rows = ledgerRows(file);
    expect(rows).toEqual([
      { date: '2026-09-01', direction: 'bearish', cScore: -70.5, exitDate: '2026-09-08' },
      { date: '2026-10-01', direction: 'bullish', cScore: 66, exitDate: null },
    ]);
    // Entered 2026-09-01, exited 2026-09-08, entered bullish 2026-10-01: three markers on those days.
    const days = ['2026-09-01', '2026-09-08', '2026-10-01'].map((time) => ({ time, value: 1 }));
    expect(signalMarkers(rows, days).map((m) => [m.time, m.kind])).toEqual([
      ['2026-09-01', 'entered'],
      ['2026-09-08', 'exited'],
      ['2026-10-01', 'entered'],
    ]);
  });

  it('names the first wrong field and what it should be', () => {
    expect(() => ledgerRows({})).toThrow('ledger: expected an array of rows');
    expect(() => ledgerRows(null)).toThrow('ledger: expected an array of rows');
    expect(() => ledgerRows({ ledger: [{ date: '2026-09-01', direction: 'up', cScore: 1, exitDate: null }] })).toThrow('ledger[0].direction: expected "bullish" or "bearish", got "up"');
    expect(() => ledgerRows({ ledger: [{ date: '2026-09-01', direction: 'bullish', cScore: 1, exitDate: null }, { date: '2026-09-02', direction: 'bullish', cScore: '1', exitDate: null }] })).toThrow('ledger[1].cScore: expected a number, got "1"');
    expect(() => ledgerRows({ ledger: [{ direction: 'bullish', cScore: 1, exitDate: null }] })).toThrow('ledger[0].date: expected a date string, got nothing');
    expect(() => ledgerRows({ ledger: [{ date: '2026-09-01', direction: 'bullish', cScore: 1 }] })).toThrow('ledger[0].exitDate: expected a date string or null, got nothing');
  });
});
