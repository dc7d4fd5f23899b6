import { describe, expect, it } from 'vitest';
import { isTradingDay, nyseHolidays, tradingDaysEnding } from '../../src/lib/domain/market-data/calendar';

// Published NYSE holiday schedules (nyse.com "Holidays & Trading Hours").
const PUBLISHED: Record<number, string[]> = {
  2021: ['2021-01-01', '2021-01-18', '2021-02-15', '2021-04-02', '2021-05-31', '2021-07-05', '2021-09-06', '2021-11-25', '2021-12-24'],
  // 2022: New Year's Day fell on a Saturday and was not observed; Juneteenth observed Monday Jun 20.
  2022: ['2022-01-17', '2022-02-21', '2022-04-15', '2022-05-30', '2022-06-20', '2022-07-04', '2022-09-05', '2022-11-24', '2022-12-26'],
  2023: ['2023-01-02', '2023-01-16', '2023-02-20', '2023-04-07', '2023-05-29', '2023-06-19', '2023-07-04', '2023-09-04', '2023-11-23', '2023-12-25'],
  2024: ['2024-01-01', '2024-01-15', '2024-02-19', '2024-03-29', '2024-05-27', '2024-06-19', '2024-07-04', '2024-09-02', '2024-11-28', '2024-12-25'],
  2025: ['2025-01-01', '2025-01-20', '2025-02-17', '2025-04-18', '2025-05-26', '2025-06-19', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25'],
  2026: ['2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25'],
  2027: ['2027-01-01', '2027-01-18', '2027-02-15', '2027-03-26', '2027-05-31', '2027-06-18', '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24'],
};

describe('nyseHolidays', () => {
  it.each(Object.entries(PUBLISHED))('matches the published list for %s', (year, dates) => {
    expect(nyseHolidays(Number(year))).toEqual(dates);
  });

  it('does not observe a Saturday New Year on the Friday before (2028, 2033)', () => {
    expect(nyseHolidays(2027)).not.toContain('2027-12-31');
    expect(nyseHolidays(2028).some((d) => d.endsWith('-01-01') || d === '2027-12-31')).toBe(false);
    expect(nyseHolidays(2032)).not.toContain('2032-12-31');
    expect(nyseHolidays(2033)[0]).toBe('2033-01-17');
  });

  it('observes a Sunday holiday on the Monday after', () => {
    expect(nyseHolidays(2023)[0]).toBe('2023-01-02');
    expect(nyseHolidays(2022)).toContain('2022-12-26');
  });

  it('has no Juneteenth before 2022', () => {
    expect(nyseHolidays(2021).some((d) => d.slice(5, 7) === '06')).toBe(false);
  });

  it('returns a copy the caller may change', () => {
    nyseHolidays(2026).pop();
    expect(nyseHolidays(2026)).toHaveLength(10);
  });
});

describe('isTradingDay', () => {
  it.each([
    ['2026-11-20', true], // Friday
    ['2026-11-21', false], // Saturday
    ['2026-11-22', false], // Sunday
    ['2026-11-26', false], // Thanksgiving
    ['2026-11-27', true], // day after Thanksgiving (early close, still open)
    ['2026-07-03', false], // Independence Day observed
    ['2026-07-06', true],
    ['2026-09-07', false], // Labor Day
    ['2026-04-03', false], // Good Friday
    ['2025-12-24', true],
    ['2025-12-25', false],
  ] as const)('%s -> %s', (iso, open) => {
    expect(isTradingDay(iso)).toBe(open);
  });

  it('rejects malformed and impossible dates', () => {
    expect(() => isTradingDay('2026-02-30')).toThrow(RangeError);
    expect(() => isTradingDay('11/20/2026')).toThrow(RangeError);
  });
});

describe('tradingDaysEnding', () => {
  it('lists the days ascending, ending on the end date when it trades', () => {
    expect(tradingDaysEnding('2026-11-30', 5)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27', '2026-11-30']);
  });

  it('ends on the last trading day before a closed end date', () => {
    expect(tradingDaysEnding('2026-07-05', 3)).toEqual(['2026-06-30', '2026-07-01', '2026-07-02']);
    expect(tradingDaysEnding('2026-01-01', 2)).toEqual(['2025-12-30', '2025-12-31']);
  });

  it('skips weekends and holidays over a long span', () => {
    const days = tradingDaysEnding('2026-11-20', 60);
    expect(days).toHaveLength(60);
    expect(days[59]).toBe('2026-11-20');
    expect(days[0]).toBe('2026-08-28');
    expect(days).not.toContain('2026-09-07');
    expect(new Set(days).size).toBe(60);
    expect([...days].sort()).toEqual(days);
    for (const d of days) expect(isTradingDay(d)).toBe(true);
  });

  it('counts a full year of trading days (261 weekdays less 10 holidays in 2025 and 2026)', () => {
    expect(tradingDaysEnding('2025-12-31', 260).filter((d) => d.startsWith('2025'))).toHaveLength(251);
    expect(tradingDaysEnding('2026-12-31', 260).filter((d) => d.startsWith('2026'))).toHaveLength(251);
  });

  it('returns nothing for a zero count and refuses a negative one', () => {
    expect(tradingDaysEnding('2026-11-20', 0)).toEqual([]);
    expect(() => tradingDaysEnding('2026-11-20', -1)).toThrow(RangeError);
  });
});
