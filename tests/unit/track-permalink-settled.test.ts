/** When a signal's permalink can no longer change (the daily build keeps it), and what its content key follows. */
import { describe, expect, it } from 'vitest';
import { earlierSignals, isSettled, permalinkContentKey, splitPermalinkId, type PermalinkContent } from '../../src/lib/domain/track-record/permalink';
import type { LedgerRow, OutcomeStatus } from '../../src/lib/domain/track-record/track-record';
import { ledgerRow } from '../fixtures/ledger';

const row = (date: string, exitDate: string | null, statuses: [OutcomeStatus, OutcomeStatus, OutcomeStatus]): LedgerRow => ledgerRow('AAPL', date, exitDate, statuses);

describe('a settled signal', () => {
  it.each([
    ['exited, every horizon closed', row('2026-01-02', '2026-01-09', ['closed', 'closed', 'closed']), true],
    ['exited, 90 days still open', row('2026-01-02', '2026-01-09', ['closed', 'closed', 'open']), false],
    ['still qualified, every horizon closed', row('2026-01-02', null, ['closed', 'closed', 'closed']), false],
    ['exited, stopped trading before 90 days', row('2026-01-02', '2026-01-09', ['closed', 'closed', 'stopped']), false],
    ['exited, no close on its day', row('2026-01-02', '2026-01-09', ['no-price', 'no-price', 'no-price']), false],
  ])('%s -> %s', (_name, r, settled) => {
    expect(isSettled(r)).toBe(settled);
  });
});

describe('a permalink\'s content key', () => {
  const rows = [row('2026-06-01', null, ['open', 'open', 'open']), row('2026-03-02', '2026-03-09', ['closed', 'closed', 'closed']), row('2026-01-02', '2026-01-09', ['closed', 'closed', 'closed'])];
  const content = (change: Partial<PermalinkContent> = {}): PermalinkContent => ({ row: rows[1]!, rows, name: 'Apple Inc.', inLatest: true, benchmark: null, prices: 'demo', asOf: '2026-11-20', ...change });

  it('lists only the earlier signals, so a later one leaves a settled page alone', () => {
    expect(earlierSignals(rows, '2026-03-02').map((r) => r.date)).toEqual(['2026-01-02']);
    expect(permalinkContentKey(content({ rows: rows.slice(1) }))).toBe(permalinkContentKey(content()));
  });

  it.each([
    ['the company name', { name: 'Apple' }],
    ['the ticker leaving the report', { inLatest: false }],
    ['the benchmark', { benchmark: { ticker: 'SPY', demo: false, label: 'SPY' } }],
    ['the prices\' source', { prices: 'polygon' }],
    ['an earlier signal', { rows: [rows[0]!, rows[1]!, { ...rows[2]!, cScore: 71 }] }],
  ])('changes with %s', (_name, change) => {
    expect(permalinkContentKey(content(change as Partial<PermalinkContent>))).not.toBe(permalinkContentKey(content()));
  });

  it('a settled signal\'s key ignores the day the outcomes are measured to; an open one\'s follows it', () => {
    expect(permalinkContentKey(content({ asOf: '2026-11-23' }))).toBe(permalinkContentKey(content()));
    expect(permalinkContentKey(content({ row: rows[0]!, asOf: '2026-11-23' }))).not.toBe(permalinkContentKey(content({ row: rows[0]! })));
  });

  it('an id splits into its ticker and date (a ticker may hold a dot)', () => {
    expect(splitPermalinkId('BRK.B/2026-03-02')).toEqual(['BRK.B', '2026-03-02']);
  });
});
