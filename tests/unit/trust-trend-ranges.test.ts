import { describe, expect, it } from 'vitest';
import { rangesBeyondHistory, type TrendPoint } from '../../src/lib/domain/trend/trend';

/** Weekday report dates ending on `last`, `count` of them, with the two averages. */
function trend(count: number, last = '2026-11-20'): TrendPoint[] {
  const days: TrendPoint[] = [];
  for (let t = Date.parse(last); days.length < count; t -= 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) days.unshift({ date: new Date(t).toISOString().slice(0, 10), cScore: 10 });
  }
  days.at(-1)!.isCurrentDay = true;
  return [...days, { date: last, cScore: 5, is7DayAvg: true }, { date: last, cScore: 5, is14DayAvg: true }];
}

describe('a range longer than the history says so', () => {
  it('60 days of history: 1Y and All show the same as 3M, and the note names the first day', () => {
    const result = rangesBeyondHistory(trend(60), '2026-11-20', true);
    expect(result.same).toEqual({ '1M': null, '3M': null, '1Y': '3M', All: '3M' });
    expect(result.note).toBe('1Y and All show the same as 3M: the history starts on Aug 31, 2026 (60 reports).');
  });
  it('nine months: only All repeats 1Y', () => {
    const result = rangesBeyondHistory(trend(195), '2026-11-20', true);
    expect(result.same).toEqual({ '1M': null, '3M': null, '1Y': null, All: '1Y' });
    expect(result.note).toMatch(/^All shows the same as 1Y: the history starts on /);
  });
  it('two years: every range adds days, no note', () => {
    expect(rangesBeyondHistory(trend(520), '2026-11-20', true)).toEqual({ same: { '1M': null, '3M': null, '1Y': null, All: null }, note: null });
  });
  it('says nothing of a trend that holds only the default range of a longer history', () => {
    expect(rangesBeyondHistory(trend(60), '2026-11-20', false).note).toBeNull();
  });
});
