import { describe, expect, it } from 'vitest';
import type { SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';
import {
  TREND_CHART_HEIGHTS,
  TREND_Y_DOMAIN,
  TREND_Y_TICKS,
  buildTrend,
  embeddedTrend,
  PAGE_MIN_REPORTS,
  pageHistory,
  pointsInRange,
  tickerTrend,
  toChartPoints,
  trendRangeStart,
  trendColor,
  trendTooltip,
  validateTrend,
  type ChartPoint,
} from '../../src/lib/domain/trend/trend';
import { signalRecord } from '../fixtures/records';
import { recentlyQualified, reversalsAndExits } from '../../src/lib/domain/signals/lists';
import { signalEvents } from '../../src/lib/domain/alerts/alerts';

function record(ticker: string, cScore: number, avgCScoreL7D: number, avgCScoreL14D: number, reportDate: string): SignalRecord {
  return signalRecord(ticker, { cScore, avgCScoreL7D, avgCScoreL14D, reportDate });
}

// Three reports; AAPL missed the middle one, MSFT has no row in the score table.
const shortHistory: SignalHistory = {
  dates: ['2026-11-18', '2026-11-19', '2026-11-20'],
  latest: [record('AAPL', 72.5, 70.1, 68.2, '2026-11-20'), record('MSFT', -66, -60, -55, '2026-11-20')],
  scores: { AAPL: [66, null, 72.5], GONE: [10, 20, null] },
};

// Sixteen reports, 2026-11-01 to 2026-11-16: the 14th report back is 11-03, the 7th is 11-10.
const longDates = Array.from({ length: 16 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const longHistory: SignalHistory = {
  dates: longDates,
  latest: [record('NVDA', 80, 75.5, 71.25, '2026-11-16')],
  scores: { NVDA: [60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 80] },
};

describe('buildTrend', () => {
  it.each([
    { name: 'a ticker of the latest report, asked in lower case', history: shortHistory, ticker: 'aapl', expected: {
      ticker: 'AAPL',
      reportDate: '2026-11-20',
      trend: [
        { date: '2026-11-18', cScore: 68.2, is14DayAvg: true },
        { date: '2026-11-18', cScore: 70.1, is7DayAvg: true },
        { date: '2026-11-18', cScore: 66, isYesterday: true },
        { date: '2026-11-20', cScore: 72.5, isCurrentDay: true },
      ],
    } },
    { name: 'a ticker without a score row: the record is the current day', history: shortHistory, ticker: 'MSFT', expected: {
      ticker: 'MSFT',
      reportDate: '2026-11-20',
      trend: [
        { date: '2026-11-18', cScore: -55, is14DayAvg: true },
        { date: '2026-11-18', cScore: -60, is7DayAvg: true },
        { date: '2026-11-20', cScore: -66, isCurrentDay: true },
      ],
    } },
    { name: 'averages dated the 14th and 7th report back', history: longHistory, ticker: 'NVDA', expected: {
      ticker: 'NVDA',
      reportDate: '2026-11-16',
      trend: [
        { date: '2026-11-01', cScore: 60 },
        { date: '2026-11-02', cScore: 61 },
        { date: '2026-11-03', cScore: 71.25, is14DayAvg: true },
        { date: '2026-11-03', cScore: 62 },
        { date: '2026-11-04', cScore: 63 },
        { date: '2026-11-05', cScore: 64 },
        { date: '2026-11-06', cScore: 65 },
        { date: '2026-11-07', cScore: 66 },
        { date: '2026-11-08', cScore: 67 },
        { date: '2026-11-09', cScore: 68 },
        { date: '2026-11-10', cScore: 75.5, is7DayAvg: true },
        { date: '2026-11-10', cScore: 69 },
        { date: '2026-11-11', cScore: 70 },
        { date: '2026-11-12', cScore: 71 },
        { date: '2026-11-13', cScore: 72 },
        { date: '2026-11-14', cScore: 73 },
        { date: '2026-11-15', cScore: 74, isYesterday: true },
        { date: '2026-11-16', cScore: 80, isCurrentDay: true },
      ],
    } },
  ])('$name', ({ history, ticker, expected }) => {
    expect(buildTrend(history, ticker)).toEqual(expected);
  });

  it.each([
    ['a ticker in no report', 'TSLA'],
    ['a ticker of older reports only', 'GONE'],
  ])('is null for %s', (_, ticker) => {
    expect(buildTrend(shortHistory, ticker)).toBeNull();
  });

  it('passes its own validation unchanged', () => {
    const response = buildTrend(longHistory, 'NVDA');
    expect(validateTrend('NVDA', response)).toEqual(response?.trend);
  });
});

describe('validateTrend', () => {
  it.each([
    ['no response', undefined],
    ['null', null],
    ['a response without trend', { ticker: 'AAPL' }],
    ['a trend that is not a list', { trend: 'soon' }],
    ['an empty trend', { trend: [] }],
    ['a bare list instead of a response', [{ date: '2026-11-20', cScore: 70 }]],
  ])('%s: no historical data', (_, response) => {
    expect(() => validateTrend('AAPL', response)).toThrow(new Error('No historical C-Score data available for AAPL'));
  });

  it('throws when no point has a numeric, non-zero C-Score', () => {
    const response = {
      trend: [
        { date: '2026-11-16', cScore: 0 },
        { date: '2026-11-17', cScore: '0' },
        { date: '2026-11-18', cScore: 'n/a' },
        { date: '2026-11-19', cScore: Number.NaN },
        { date: '2026-11-20', cScore: null },
        { date: '2026-11-21', cScore: '' },
        { date: '2026-11-22' },
        'not a point',
      ],
    };
    expect(() => validateTrend('AAPL', response)).toThrow(new Error('No valid C-Score values available for AAPL'));
  });

  it('keeps numeric, non-zero points, sorted by date ascending', () => {
    const response = {
      ticker: 'AAPL',
      trend: [
        { date: '2026-11-20', cScore: '72.5', isCurrentDay: true },
        { date: '2026-11-18', cScore: 0 },
        { date: '2026-11-19', cScore: -66, isYesterday: true },
        { date: '2026-11-17', cScore: 'n/a' },
        { date: '2026-11-10', cScore: 70.1, is7DayAvg: true },
      ],
    };
    expect(validateTrend('AAPL', response)).toEqual([
      { date: '2026-11-10', cScore: 70.1, is7DayAvg: true },
      { date: '2026-11-19', cScore: -66, isYesterday: true },
      { date: '2026-11-20', cScore: '72.5', isCurrentDay: true },
    ]);
  });
});

const today = new Date('2026-11-22T15:30:00Z');
const summary = (points: ChartPoint[]) => points.map((p) => [p.type, p.date, p.cScore, p.axisLabel]);

describe('toChartPoints', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an object', { trend: [] }],
    ['a string', '2026-11-20'],
    ['an empty list', []],
  ])('gives an empty chart for %s', (_, points) => {
    expect(toChartPoints(points, today)).toEqual({ points: [], warnings: [] });
  });

  it.each([
    { raw: '2026-11-20', date: '2026-11-20', warned: false },
    { raw: '26-11-20', date: '2026-11-20', warned: false },
    { raw: '1926-11-20', date: '2026-11-20', warned: false },
    { raw: '1925-03-02', date: '2025-03-02', warned: false },
    { raw: '2026-11-20T00:00:00.000Z', date: '2026-11-20', warned: false },
    { raw: 'garbage', date: '2026-11-22', warned: true },
    { raw: '2026-02-30', date: '2026-11-22', warned: true },
    { raw: '11/20/2026', date: '2026-11-22', warned: true },
    { raw: undefined, date: '2026-11-22', warned: true },
  ])('date $raw is shown as $date', ({ raw, date, warned }) => {
    const { points, warnings } = toChartPoints([{ date: raw, cScore: 70 }], today);
    expect(points.map((p) => p.date)).toEqual([date]);
    expect(warnings).toHaveLength(warned ? 1 : 0);
    if (warned) expect(warnings[0]).toContain('2026-11-22');
    if (warned && raw) expect(warnings[0]).toContain(raw);
  });

  // We format calendar dates in UTC, so no "+1 day" display shift is needed: the label is the report date.
  it('shows a report date as that very day: 2026-11-20 reads Nov 20, 2026 and 11/20', () => {
    const [point] = toChartPoints([{ date: '2026-11-20', cScore: 70, isCurrentDay: true }], today).points;
    expect(point).toEqual({ date: '2026-11-20', cScore: 70, type: 'current', axisLabel: '11/20', dateLabel: 'Nov 20, 2026' });
  });

  it.each([
    [72.5, 72.5],
    ['72.5', 72.5],
    [' -66.25 ', -66.25],
    ['12abc', 12],
    ['abc', 0],
    [undefined, 0],
    [null, 0],
    [Number.NaN, 0],
  ])('C-Score %o draws as %s', (cScore, drawn) => {
    expect(toChartPoints([{ date: '2026-11-20', cScore }], today).points[0]?.cScore).toBe(drawn);
  });

  it.each([
    [{ isCurrentDay: true }, 'current'],
    [{ isYesterday: true }, 'previous'],
    [{ is7DayAvg: true }, '7d-avg'],
    [{ is14DayAvg: true }, '14d-avg'],
    [{}, 'historical'],
    [{ isCurrentDay: false, isYesterday: false }, 'historical'],
    [{ isCurrentDay: 'yes' }, 'historical'],
  ])('flags %o make a %s point', (flags, type) => {
    expect(toChartPoints([{ date: '2026-11-20', cScore: 70, ...flags }], today).points[0]?.type).toBe(type);
  });

  it('orders 14-day average, 7-day average, historical by date (undated first), current last', () => {
    const { points, warnings } = toChartPoints(
      [
        { date: '2026-11-20', cScore: 72.5, isCurrentDay: true },
        { date: '2026-11-18', cScore: 66 },
        { date: '2026-11-10', cScore: '70.1', is7DayAvg: true },
        { date: '2026-11-19', cScore: 68, isYesterday: true },
        { date: '2026-11-03', cScore: 68.2, is14DayAvg: true },
        { date: '2026-11-17', cScore: -10 },
        { cScore: 5 },
        { date: 'soon', cScore: 7 },
      ],
      today,
    );
    expect(summary(points)).toEqual([
      ['14d-avg', '2026-11-03', 68.2, '14D Avg'],
      ['7d-avg', '2026-11-10', 70.1, '7D Avg'],
      ['historical', '2026-11-22', 5, '11/22'],
      ['historical', '2026-11-17', -10, '11/17'],
      ['historical', '2026-11-18', 66, '11/18'],
      ['previous', '2026-11-19', 68, '11/19'],
      ['historical', '2026-11-22', 7, '11/22'],
      ['current', '2026-11-20', 72.5, '11/20'],
    ]);
    expect(warnings).toHaveLength(2);
  });

  it('skips an entry that is not a point, with a warning', () => {
    const { points, warnings } = toChartPoints([42, { date: '2026-11-20', cScore: 70 }], today);
    expect(summary(points)).toEqual([['historical', '2026-11-20', 70, '11/20']]);
    expect(warnings).toEqual(['Trend point 1 is not an object and was skipped.']);
  });
});

describe('trendTooltip', () => {
  it.each([
    [{ isCurrentDay: true }, 'Nov 20, 2026', 'Current day'],
    [{ isYesterday: true }, 'Nov 20, 2026', 'Previous day'],
    [{ is7DayAvg: true }, '7-Day Average', '7D avg.'],
    [{ is14DayAvg: true }, '14-Day Average', '14D avg.'],
    [{}, 'Nov 20, 2026', 'C-Score'],
  ])('%o: heading %s, label %s', (flags, heading, label) => {
    const [point] = toChartPoints([{ date: '2026-11-20', cScore: 70, ...flags }], today).points;
    expect(point && trendTooltip(point)).toEqual({ heading, label });
  });
});

describe('trendColor follows the current score only', () => {
  it.each([
    [65, 'bullish'],
    [100, 'bullish'],
    [64.99, 'neutral'],
    [0, 'neutral'],
    [-64.99, 'neutral'],
    [-65, 'bearish'],
    [null, 'neutral'],
  ])('%s -> %s', (score, color) => expect(trendColor(score)).toBe(color));
});

describe('chart constants (spec section 2)', () => {
  it.each([
    ['y domain', TREND_Y_DOMAIN, [-110, 110]],
    ['y ticks', TREND_Y_TICKS, [-100, -65, 0, 65, 100]],
    ['heights', TREND_CHART_HEIGHTS, { card: 180, small: 200, modal: 225 }],
  ])('%s', (_, actual, expected) => expect(actual).toEqual(expected));
});

/** Weekday report dates ending on `last`, `count` of them. */
function weekdays(last: string, count: number): string[] {
  const dates: string[] = [];
  for (let day = new Date(`${last}T00:00:00Z`); dates.length < count; day = new Date(day.getTime() - 86_400_000)) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) dates.unshift(day.toISOString().slice(0, 10));
  }
  return dates;
}

describe('the trend ranges (1M, 3M, 1Y, All) and the embedded window', () => {
  it('start a whole number of calendar months back, on the last day of a shorter month', () => {
    expect(trendRangeStart('2026-11-20', '1M')).toBe('2026-10-20');
    expect(trendRangeStart('2026-11-30', '3M')).toBe('2026-08-30');
    expect(trendRangeStart('2026-05-31', '3M')).toBe('2026-02-28');
    expect(trendRangeStart('2028-05-31', '3M')).toBe('2028-02-29');
    expect(trendRangeStart('2026-01-15', '1Y')).toBe('2025-01-15');
    expect(trendRangeStart('2026-11-20', 'All')).toBeNull();
  });

  // Five years of weekday reports: 1,260 report dates ending 2026-11-20.
  const dates = weekdays('2026-11-20', 1260);
  const last = record('AAPL', 70, 66, 60, '2026-11-20');
  const history: SignalHistory = { dates, latest: [last], scores: { AAPL: dates.map((_, i) => (i % 2 ? 70 : 20)) } };
  const trend = buildTrend(history, 'AAPL')!;

  it('keep the two averages in every range and the report dates from the range\'s first day', () => {
    const month = pointsInRange(trend.trend, trend.reportDate, '1M');
    // Weekdays from 2026-10-20 to 2026-11-20: 24.
    const reports = month.filter((p) => !p.is7DayAvg && !p.is14DayAvg);
    expect(reports[0]!.date).toBe('2026-10-20');
    expect(reports).toHaveLength(24);
    expect(month.filter((p) => p.is7DayAvg || p.is14DayAvg)).toHaveLength(2);
    expect(pointsInRange(trend.trend, trend.reportDate, 'All')).toHaveLength(1262);
    expect(pointsInRange(trend.trend, trend.reportDate, '1Y').filter((p) => !p.is7DayAvg && !p.is14DayAvg)).toHaveLength(262);
  });

  it('embed the default range (3M) only, however long the history, and say whether that is all of it', () => {
    const embedded = embeddedTrend(trend);
    expect(embedded.complete).toBe(false);
    // Weekdays from 2026-08-20 to 2026-11-20: 67, and the two averages.
    expect(embedded.trend.trend).toHaveLength(67 + 2);
    expect(embedded.trend.trend.at(-1)).toMatchObject({ date: '2026-11-20', isCurrentDay: true });
    const short: SignalHistory = { dates: dates.slice(-60), latest: [last], scores: { AAPL: dates.slice(-60).map(() => 70) } };
    const whole = embeddedTrend(buildTrend(short, 'AAPL')!);
    expect(whole.complete).toBe(true);
    expect(whole.trend.trend).toHaveLength(62);
  });
});

describe('pageHistory: the pages read the same from it as from the whole history', () => {
  // 300 weekdays (about 14 months) of 40 tickers: scores that cross ±65 often, gaps, and tickers that start late.
  function longHistory(): SignalHistory {
    const dates: string[] = [];
    for (let day = Date.UTC(2025, 8, 1); dates.length < 300; day += 86_400_000) {
      const weekday = new Date(day).getUTCDay();
      if (weekday !== 0 && weekday !== 6) dates.push(new Date(day).toISOString().slice(0, 10));
    }
    let seed = 7;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
    const scores: SignalHistory['scores'] = {};
    const latest: SignalRecord[] = [];
    for (let t = 0; t < 40; t += 1) {
      const ticker = `T${t}`;
      const start = t % 5 === 0 ? 250 + t : 0; // some list only in the last weeks: their trend is complete
      let score = random() * 200 - 100;
      const series = dates.map((_, i) => {
        if (i < start || random() < 0.05) return null;
        score = Math.max(-100, Math.min(100, score + (random() - 0.5) * 40));
        return Math.round(score * 100) / 100;
      });
      series[series.length - 1] ??= 12.5;
      scores[ticker] = series;
      latest.push(signalRecord(ticker, { reportDate: dates.at(-1)!, cScore: series.at(-1)!, avgCScoreL7D: 10, avgCScoreL14D: 20 }));
    }
    return { dates, latest, scores };
  }

  it('keeps the default range and PAGE_MIN_REPORTS, and gives every page the same answers', () => {
    const full = longHistory();
    const pages = pageHistory(full);
    expect(pages.dates.length).toBeLessThan(full.dates.length / 3);
    expect(pages.dates.length).toBeGreaterThan(PAGE_MIN_REPORTS);
    let incomplete = 0;
    for (const { ticker } of full.latest) {
      const whole = embeddedTrend(buildTrend(full, ticker)!);
      expect(embeddedTrend(buildTrend(pages, ticker)!)).toEqual(whole);
      if (!whole.complete) incomplete += 1;
    }
    // Both kinds are checked: tickers with older scores (incomplete) and the late starters (complete).
    expect(incomplete).toBeGreaterThan(20);
    expect(incomplete).toBeLessThan(40);
    expect(recentlyQualified(pages)).toEqual(recentlyQualified(full));
    expect(reversalsAndExits(pages)).toEqual(reversalsAndExits(full));
    expect(signalEvents(pages)).toEqual(signalEvents(full));
  });

  it('leaves a short history as it is', () => {
    const full = longHistory();
    const short = { ...full, dates: full.dates.slice(-40), scores: Object.fromEntries(Object.entries(full.scores).map(([t, s]) => [t, s.slice(-40)])) };
    expect(pageHistory(short)).toBe(short);
  });
});

describe('tickerTrend', () => {
  it('gives the last reports the ticker was in, oldest first, with the latest report\'s own score', () => {
    const nvda = longHistory.latest[0]!;
    expect(tickerTrend(longHistory, nvda, 3)).toEqual([
      { date: '2026-11-14', cScore: 73 },
      { date: '2026-11-15', cScore: 74 },
      { date: '2026-11-16', cScore: 80 },
    ]);
  });

  it('skips the reports the ticker missed and stops at the first report', () => {
    const aapl = shortHistory.latest[0]!;
    expect(tickerTrend(shortHistory, aapl, 7)).toEqual([
      { date: '2026-11-18', cScore: 66 },
      { date: '2026-11-20', cScore: 72.5 },
    ]);
  });
});
