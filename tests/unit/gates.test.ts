/** The data gates as pure rules: the 20% ticker-drop boundary, the trading-day rule, and what an override records. */
import { describe, expect, it } from 'vitest';
import { checkGates, reportSizes } from '../../src/ingest/gates';
import { fileScores } from '../../src/ingest/history-store';
import { newYorkDate } from '../../src/lib/domain/market-data/calendar';
import { nextTradingDay, parseGateNames } from '../../src/lib/domain/operator/gates';
import type { ArchivedFile } from '../../src/lib/domain/report/schemas';
import { signalRecord } from '../fixtures/records';

const report = (fileName: string, date: string, count: number) => ({ fileName, records: Array.from({ length: count }, (_, i) => signalRecord(`T${i}`, { reportDate: date })) });
// A file's report dates, tickers and scores, as the intake and the history store keep them.
const stored = (fileName: string, date: string, count: number) => fileScores(fileName, report(fileName, date, count).records);
const added = (fileName: string, date: string, count: number) => ({ file: { fileName, reportDates: [date] } as ArchivedFile, scores: stored(fileName, date, count) });
// Tuesday 2026-11-24, 10:00 in New York.
const settings = { accept: new Set<never>(), tickerDropPercent: 20, now: Date.parse('2026-11-24T15:00:00Z') };

describe('data gates', () => {
  it('lets the ticker count fall by 20% and holds it at one ticker more', () => {
    const previous = [stored('a.csv', '2026-11-23', 100)];
    expect(checkGates(reportSizes(previous), [added('b.csv', '2026-11-24', 80)], settings)).toEqual({ overrides: [], corrections: [] });
    expect(() => checkGates(reportSizes(previous), [added('b.csv', '2026-11-24', 79)], settings)).toThrow(/b\.csv: held by the gate ticker-drop: the latest report \(2026-11-24\) would have 79 ticker\(s\) against 100 on 2026-11-23, 21\.0% fewer/);
  });

  it('takes the next trading day in New York (Thanksgiving 2026-11-26 closed)', () => {
    expect(newYorkDate(Date.parse('2026-11-25T02:00:00Z'))).toBe('2026-11-24');
    expect(nextTradingDay('2026-11-25')).toBe('2026-11-27');
    expect(nextTradingDay('2026-11-27')).toBe('2026-11-30');
    expect(checkGates(new Map(), [added('wed.csv', '2026-11-25', 5)], settings).overrides).toEqual([]);
    expect(() => checkGates(new Map(), [added('thu.csv', '2026-11-26', 5)], settings)).toThrow(/thu\.csv: refused by the gate future-date: its report date 2026-11-26 is after the next trading day in New York \(2026-11-25\)/);
  });

  it('records an accepted gate with the message it would have stopped with', () => {
    const result = checkGates(reportSizes([stored('a.csv', '2026-11-23', 10)]), [added('b.csv', '2026-11-24', 1)], { ...settings, accept: new Set(['ticker-drop'] as const) });
    expect(result.overrides).toEqual([{ gate: 'ticker-drop', file: 'b.csv', message: expect.stringContaining('would have 1 ticker(s) against 10') }]);
  });

  it('names the gates a command line may accept', () => {
    expect(parseGateNames(['backdated', 'future-date'])).toEqual({ gates: new Set(['backdated', 'future-date']) });
    expect(parseGateNames(['all'])).toEqual({ problem: '--accept all: there is no such gate; the gates are future-date, ticker-drop, backdated.' });
  });
});
