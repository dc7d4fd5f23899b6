import { describe, expect, it } from 'vitest';
import {
  reportDay,
  SESSION_OPENS_CARRIED,
  sessionOpenMs,
  sessionOpensAfter,
  tradingDaysAgo,
  tradingDaysBehind,
} from '../../src/lib/domain/market-data/report-day';

// New York clock times as UTC instants: November 2026 is EST (UTC-5), so 09:30 New York is 14:30Z.
const ny = (iso: string, hhmm: string, offset = '-05:00') => Date.parse(`${iso}T${hhmm}:00${offset}`);

describe('sessionOpenMs', () => {
  it('is 09:30 New York in winter (EST) and in summer (EDT)', () => {
    expect(new Date(sessionOpenMs('2026-11-23')).toISOString()).toBe('2026-11-23T14:30:00.000Z');
    expect(new Date(sessionOpenMs('2026-07-01')).toISOString()).toBe('2026-07-01T13:30:00.000Z');
  });

  it('follows the clock change: the Monday after the March switch opens at 13:30Z', () => {
    // DST 2026 starts Sun Mar 8.
    expect(new Date(sessionOpenMs('2026-03-06')).toISOString()).toBe('2026-03-06T14:30:00.000Z');
    expect(new Date(sessionOpenMs('2026-03-09')).toISOString()).toBe('2026-03-09T13:30:00.000Z');
  });

  it('refuses what is not a date', () => {
    expect(() => sessionOpenMs('Nov 20')).toThrow(/yyyy-mm-dd/);
  });
});

describe('sessionOpensAfter', () => {
  it('skips the weekend and Thanksgiving (Thu Nov 26 2026)', () => {
    const days = sessionOpensAfter('2026-11-20', 5).map((ms) => new Date(ms).toISOString().slice(0, 10));
    expect(days).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27', '2026-11-30']);
  });

  it('carries one session more than SESSION_OPENS_CARRIED by default, so a page can say "more than"', () => {
    expect(sessionOpensAfter('2026-11-20')).toHaveLength(SESSION_OPENS_CARRIED + 1);
  });
});

describe('tradingDaysBehind and reportDay', () => {
  const FRI = '2026-11-20';

  it('a Friday report is current on Friday, over the weekend and on Monday before the bell', () => {
    for (const at of [ny(FRI, '08:00'), ny(FRI, '23:00'), ny('2026-11-21', '12:00'), ny('2026-11-22', '23:59'), ny('2026-11-23', '09:29')]) {
      expect(reportDay(FRI, at)).toEqual({ reportDate: FRI, behind: 0, current: true, stale: false });
    }
  });

  it('seen on Monday Nov 23 after the bell it is 1 trading day old: not current, not yet stale', () => {
    expect(reportDay(FRI, ny('2026-11-23', '09:30'))).toEqual({ reportDate: FRI, behind: 1, current: false, stale: false });
  });

  it('on Tuesday after the bell it is 2 trading days old: stale', () => {
    expect(reportDay(FRI, ny('2026-11-24', '10:00'))).toMatchObject({ behind: 2, current: false, stale: true });
  });

  it('Thanksgiving does not age a report: Wednesday Nov 25 is current all Thursday, 1 day old on Friday', () => {
    expect(tradingDaysBehind('2026-11-25', ny('2026-11-26', '15:00'))).toBe(0);
    expect(tradingDaysBehind('2026-11-25', ny('2026-11-27', '09:31'))).toBe(1);
  });

  it('the sample report of Fri Nov 20 seen a week later (Fri Nov 27, noon) is 4 trading days old', () => {
    expect(tradingDaysBehind(FRI, ny('2026-11-27', '12:00'))).toBe(4);
  });

  it('a report dated after the visitor clock (published the evening before) is current', () => {
    expect(reportDay('2026-11-23', ny('2026-11-22', '20:00')).current).toBe(true);
  });

  it('a very old report counts past what the page carries', () => {
    expect(tradingDaysBehind('2026-01-02', ny('2026-11-27', '12:00'))).toBe(SESSION_OPENS_CARRIED + 1);
  });
});

describe('tradingDaysAgo', () => {
  it('words the age', () => {
    expect(tradingDaysAgo(1)).toBe('1 trading day ago');
    expect(tradingDaysAgo(4)).toBe('4 trading days ago');
    expect(tradingDaysAgo(SESSION_OPENS_CARRIED + 1)).toBe(`more than ${SESSION_OPENS_CARRIED} trading days ago`);
  });
});
