import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatChange,
  formatClockTime,
  formatDate,
  formatDividendYield,
  formatMarketCap,
  formatMonthDay,
  formatPercent,
  formatPrice,
  formatScore,
  formatShortDate,
  formatSignedScore,
  formatVolume,
  formatYesterdayScore,
  isCalendarDate,
  scoreBarFill,
} from '../../src/lib/domain/text/format';

describe('formatScore: 2 decimals, exactly 100 and -100 without, missing as a dash', () => {
  it.each([
    [72.456, '72.46'],
    [65, '65.00'],
    [0, '0.00'],
    [-0.001, '0.00'],
    [-68.5, '-68.50'],
    [100, '100'],
    [-100, '-100'],
    [99.999, '100.00'],
    [null, '—'],
    [undefined, '—'],
    [Number.NaN, '—'],
  ])('%s -> %s', (score, text) => expect(formatScore(score)).toBe(text));
});

describe('formatYesterdayScore: 1 decimal', () => {
  it.each([
    [70.06, '70.1'],
    [-65, '-65.0'],
    [0, '0.0'],
    [100, '100.0'],
    [null, '—'],
    [Number.NaN, '—'],
  ])('%s -> %s', (score, text) => expect(formatYesterdayScore(score)).toBe(text));
});

describe('formatSignedScore: signed, 1 decimal', () => {
  it.each([
    [72.44, '+72.4'],
    [-68, '-68.0'],
    [0, '0.0'],
    [-0.04, '0.0'],
    [100, '+100.0'],
    [null, '—'],
  ])('%s -> %s', (score, text) => expect(formatSignedScore(score)).toBe(text));
});

describe('scoreBarFill: centred bar, fill |score| / 2, at most 50% of the bar', () => {
  it.each([
    { score: 72, fill: { side: 'positive', startPercent: 50, widthPercent: 36 } },
    { score: 100, fill: { side: 'positive', startPercent: 50, widthPercent: 50 } },
    { score: 140, fill: { side: 'positive', startPercent: 50, widthPercent: 50 } },
    { score: -65, fill: { side: 'negative', startPercent: 17.5, widthPercent: 32.5 } },
    { score: -100, fill: { side: 'negative', startPercent: 0, widthPercent: 50 } },
    { score: -120, fill: { side: 'negative', startPercent: 0, widthPercent: 50 } },
    { score: 0, fill: { side: 'none', startPercent: 50, widthPercent: 0 } },
    { score: null, fill: { side: 'none', startPercent: 50, widthPercent: 0 } },
  ])('$score', ({ score, fill }) => expect(scoreBarFill(score)).toEqual(fill));
});

describe('formatMarketCap: $x.xxB at or above 1e9, else $x.xxM, N/A when missing', () => {
  it.each([
    [2_950_000_000_000, '$2,950.00B'],
    [1e9, '$1.00B'],
    [999_999_999, '$1,000.00M'],
    [850_500_000, '$850.50M'],
    [12_345_678, '$12.35M'],
    [0, 'N/A'],
    [null, 'N/A'],
    [undefined, 'N/A'],
    [Number.NaN, 'N/A'],
  ])('%s -> %s', (cap, text) => expect(formatMarketCap(cap)).toBe(text));
});

describe('price figures: 2 decimals', () => {
  it.each([
    [formatPrice, 123.456, '$123.46'],
    [formatPrice, 1234.5, '$1,234.50'],
    [formatPrice, 0, '$0.00'],
    [formatPrice, null, '—'],
    [formatChange, 1.234, '+1.23'],
    [formatChange, -0.456, '-0.46'],
    [formatChange, 0, '0.00'],
    [formatChange, undefined, '—'],
    [formatPercent, 1.234, '+1.23%'],
    [formatPercent, -2.5, '-2.50%'],
    [formatPercent, 0, '0.00%'],
    [formatPercent, Number.NaN, '—'],
    [formatDividendYield, 0.0123, '1.23%'],
    [formatDividendYield, 0.005, '0.50%'],
    [formatDividendYield, null, '—'],
    [formatVolume, 1234567, '1,234,567'],
    [formatVolume, 999.6, '1,000'],
    [formatVolume, null, '—'],
  ] as const)('%o(%s) -> %s', (format, value, text) => expect(format(value)).toBe(text));
});

describe('isCalendarDate', () => {
  it.each([
    ['2025-01-05', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-01-00', false],
    ['2025-04-31', false],
    ['2025-12-31', true],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2100-02-29', false],
    ['25-01-05', false],
    ['1/5/2025', false],
    ['', false],
  ])('%s -> %s', (text, valid) => expect(isCalendarDate(text)).toBe(valid));

  it('agrees with a Date round trip for the last days of every month, 1896 to 2104', () => {
    const viaDate = (year: number, month: number, day: number) => {
      const date = new Date(Date.UTC(year, month - 1, day));
      return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    };
    const pad = (n: number) => String(n).padStart(2, '0');
    for (let year = 1896; year <= 2104; year++) {
      for (let month = 1; month <= 12; month++) {
        for (const day of [28, 29, 30, 31, 32]) expect(isCalendarDate(`${year}-${pad(month)}-${pad(day)}`), `${year}-${month}-${day}`).toBe(viaDate(year, month, day));
      }
    }
  });
});

const dateCases = [
  { value: '2025-01-05', long: 'Jan 5, 2025', short: 'Jan 5', monthDay: '1/5' },
  { value: '2026-11-20', long: 'Nov 20, 2026', short: 'Nov 20', monthDay: '11/20' },
  { value: '2026-12-31', long: 'Dec 31, 2026', short: 'Dec 31', monthDay: '12/31' },
  { value: ' 2026-03-02 ', long: 'Mar 2, 2026', short: 'Mar 2', monthDay: '3/2' },
  { value: new Date(Date.UTC(2025, 6, 4)), long: 'Jul 4, 2025', short: 'Jul 4', monthDay: '7/4' },
  { value: '2025-07-04T12:00:00Z', long: 'Jul 4, 2025', short: 'Jul 4', monthDay: '7/4' },
  { value: null, long: 'N/A', short: 'N/A', monthDay: 'N/A' },
  { value: undefined, long: 'N/A', short: 'N/A', monthDay: 'N/A' },
  { value: '', long: 'N/A', short: 'N/A', monthDay: 'N/A' },
  { value: 'not a date', long: 'N/A', short: 'N/A', monthDay: 'N/A' },
  { value: '2025-02-30', long: 'N/A', short: 'N/A', monthDay: 'N/A' },
  { value: new Date(Number.NaN), long: 'N/A', short: 'N/A', monthDay: 'N/A' },
];

// A report date must read as its own calendar day in every time zone, including those far from UTC.
describe.each(['UTC', 'America/Los_Angeles', 'Pacific/Honolulu', 'Pacific/Kiritimati', 'Asia/Tokyo'])(
  'dates with the machine in %s',
  (timeZone) => {
    const saved = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = timeZone;
    });
    afterAll(() => {
      process.env.TZ = saved;
    });

    it('the time zone is really in effect', () => {
      const expectedOffset = { UTC: 0, 'America/Los_Angeles': 480, 'Pacific/Honolulu': 600, 'Pacific/Kiritimati': -840, 'Asia/Tokyo': -540 }[timeZone];
      expect(new Date(Date.UTC(2025, 0, 5)).getTimezoneOffset()).toBe(expectedOffset);
    });

    it.each(dateCases)('$value', ({ value, long, short, monthDay }) => {
      expect(formatDate(value)).toBe(long);
      expect(formatShortDate(value)).toBe(short);
      expect(formatMonthDay(value)).toBe(monthDay);
    });
  },
);

describe('hand-written en-US formats agree with Intl', () => {
  // Intl is the oracle here; the page code avoids it because its first use loads ICU data (a long main-thread task).
  const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const numbers = [0, 0.004, -0.004, 0.5, 2.5, -2.5, 12.345, 999.995, 1000, 1234.5, -1234.567, 98765.4321, 1234567.891, -1234567.891, 1e9, 2.5e12];

  it.each(numbers)('price, volume and market cap of %s', (n) => {
    // One difference on purpose: a value that rounds to zero shows no minus sign ('$0.00', not Intl's '-$0.00').
    expect(formatPrice(n)).toBe(price.format(n).replace(/^-(\$0\.00)$/, '$1'));
    expect(formatVolume(n)).toBe(integer.format(n).replace(/^-0$/, '0'));
    if (n > 0) expect(formatMarketCap(n)).toBe(n >= 1e9 ? `$${twoDecimals.format(n / 1e9)}B` : `$${twoDecimals.format(n / 1e6)}M`);
  });

  it('dates across a leap year and every month', () => {
    const long = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const numeric = new Intl.DateTimeFormat('en-US', { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
    for (let day = 0; day < 366 * 2; day += 7) {
      const date = new Date(Date.UTC(2024, 0, 1 + day));
      const iso = date.toISOString().slice(0, 10);
      expect([formatDate(iso), formatShortDate(iso), formatMonthDay(iso)]).toEqual([long.format(date), short.format(date), numeric.format(date)]);
    }
  });
});

describe('formatClockTime', () => {
  it('agrees with Intl en-US hour and minute for every quarter hour of a day (local time)', () => {
    const clock = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
    for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
      const date = new Date(2026, 10, 20, 0, minutes);
      // ICU puts a narrow no-break space before AM/PM; the page uses a plain space.
      expect(formatClockTime(date)).toBe(clock.format(date).replace(/\s/g, ' '));
    }
    expect(formatClockTime(new Date(2026, 10, 20, 0, 5))).toBe('12:05 AM');
    expect(formatClockTime(new Date(2026, 10, 20, 12, 0))).toBe('12:00 PM');
  });
});
