/** A signal's permalink: its address, and the nearest entries a date without one suggests. */
import { describe, expect, it } from 'vitest';
import { ledgerCells, nearestDates, permalinkParts, signalPermalink } from '../../src/lib/domain/track-record/ledger-view';

describe('a signal\'s permalink', () => {
  it.each([
    ['AAPL', '2026-03-02', '/signal/AAPL/2026-03-02'],
    ['BRK.B', '2026-11-20', '/signal/BRK.B/2026-11-20'],
  ])('%s on %s is %s, and reads back', (ticker, date, path) => {
    expect(signalPermalink(ticker, date)).toBe(path);
    expect(permalinkParts(path)).toEqual({ ticker, date });
    expect(permalinkParts(`${path}/`)).toEqual({ ticker, date });
  });

  it.each(['/signal/AAPL', '/signal/AAPL/March-2', '/signal/AAPL/2026-03-02/x', '/track-record'])('%s is no permalink', (path) => {
    expect(permalinkParts(path)).toBeNull();
  });

  it('a ledger row\'s date links to its permalink, each cell labelled with its column for the phone card', () => {
    const cells = ledgerCells({ date: '2026-03-02', ticker: 'AAPL', direction: 'bullish', cScore: 81.2, entryClose: 100, outcomes: [5, 30, 90].map(() => ({ signalReturn: 0.02, status: 'open' as const, excessReturn: 0.01 })), exitDate: null, exitReturn: null });
    expect(cells[0]).toMatchObject({ text: '2026-03-02', href: '/signal/AAPL/2026-03-02', label: 'Date' });
    expect(cells.map((c) => c.label)).toEqual(['Date', 'Ticker', 'Signal', 'C-Score', 'Entry close', '5 days', '30 days', '90 days', 'Exit', 'To exit']);
    expect(cells[5]).toMatchObject({ text: '+2.00%', note: 'open, +1.00% vs benchmark' });
  });
});

describe('the nearest entries to a date with none', () => {
  const DATES = ['2026-01-05', '2026-02-10', '2026-03-02', '2026-03-20', '2026-06-01'];
  it.each([
    ['2026-03-05', 3, ['2026-02-10', '2026-03-02', '2026-03-20']],
    ['2025-12-01', 2, ['2026-01-05', '2026-02-10']],
    ['2027-01-01', 1, ['2026-06-01']],
    // 2026-03-11 is 9 days from both Mar 2 and Mar 20: the earlier one first, then the later.
    ['2026-03-11', 2, ['2026-03-02', '2026-03-20']],
  ] as const)('near %s, the %i nearest: %j', (date, count, expected) => {
    expect(nearestDates(DATES, date, count)).toEqual(expected);
  });

  it('none recorded: none suggested', () => {
    expect(nearestDates([], '2026-03-05')).toEqual([]);
  });
});
