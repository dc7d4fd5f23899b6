import { describe, expect, it } from 'vitest';
import { TickMarkType } from 'lightweight-charts';
import { toChartPoints, type TrendPoint } from '../../src/lib/domain/trend/trend';
import { ascendingUnique, averagesReading, axisTick, barWindows, dateLabels, closeOn, dayReading, priceSeries, scoreSeries, signalMarkers, type LedgerEntry } from '../../src/lib/domain/trend/chart-series';
import { demoBars } from '../../src/lib/domain/market-data/demo-prices';

// The spec's example numbers: averages 91.90 and 91.85, yesterday 93.29, today 96.81; given out of order, one day twice.
const trend: TrendPoint[] = [
  { date: '2026-11-20', cScore: 96.81, isCurrentDay: true },
  { date: '2026-11-02', cScore: 91.9, is14DayAvg: true },
  { date: '2026-11-11', cScore: 91.85, is7DayAvg: true },
  { date: '2026-11-06', cScore: 66 },
  { date: '2026-11-02', cScore: 40 },
  { date: '2026-11-03', cScore: 70 },
  { date: '2026-11-19', cScore: 93.29, isYesterday: true },
  { date: '2026-11-03', cScore: 71 },
];
const points = toChartPoints(trend, new Date('2026-11-21T00:00:00Z')).points;

describe('scoreSeries: what the library is given', () => {
  const series = scoreSeries(points);
  it('is one value per day, strictly ascending, with times as yyyy-mm-dd (the library asserts this)', () => {
    const times = series.data.map((d) => d.time);
    expect(times).toEqual(['2026-11-02', '2026-11-03', '2026-11-06', '2026-11-19', '2026-11-20']);
    for (let i = 1; i < times.length; i++) expect(times[i]! > times[i - 1]!).toBe(true);
    for (const t of times) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
  it('keeps the day\'s last value and leaves the averages out of the line', () => {
    expect(series.data.map((d) => d.value)).toEqual([40, 71, 66, 93.29, 96.81]);
    expect(series.types.get('2026-11-20')).toBe('current');
    expect(series.types.get('2026-11-19')).toBe('previous');
  });
  it('reads the averages with the tooltip\'s labels', () => {
    expect(averagesReading(series.averages)).toBe('14D avg. 91.90, 7D avg. 91.85');
  });
  it('gives the averages as labelled price lines: "14D Avg" 91.90 and "7D Avg" 91.85', () => {
    expect(series.averages).toEqual([
      { type: '14d-avg', title: '14D Avg', heading: '14-Day Average', value: 91.9 },
      { type: '7d-avg', title: '7D Avg', heading: '7-Day Average', value: 91.85 },
    ]);
  });
});

describe('priceSeries: the one daily price series', () => {
  it('turns the demo bars into candles, one per trading day, ascending, whatever order they come in', () => {
    const bars = demoBars('AAPL', '2026-11-02', '2026-11-20');
    const series = priceSeries([...bars].reverse().concat(bars[0]!));
    expect(series.kind).toBe('candles');
    expect(series.data.map((d) => d.time)).toEqual(bars.map((b) => new Date(b.t).toISOString().slice(0, 10)));
    expect(series.data).toHaveLength(15);
    // The same close the demo provider gives that day.
    expect(closeOn(series, '2026-11-20')).toBe(bars.at(-1)!.c);
  });
  it('falls back to a line of closes when a bar lacks its open, high or low', () => {
    const series = priceSeries([{ t: Date.parse('2026-11-03'), c: 10, o: Number.NaN, h: 11, l: 9, v: 1 }, { t: Date.parse('2026-11-02'), c: 9, o: 9, h: 9, l: 9, v: 1 }]);
    expect(series).toEqual({ kind: 'line', data: [{ time: '2026-11-02', value: 9 }, { time: '2026-11-03', value: 10 }] });
  });
});

describe('barWindows: the bars route asks for 31 days at most', () => {
  it('covers a 3-month span in windows of at most 31 days, without gaps or overlaps', () => {
    const windows = barWindows('2026-08-20', '2026-11-20', 31);
    expect(windows[0]!.from).toBe('2026-08-20');
    expect(windows.at(-1)!.to).toBe('2026-11-20');
    for (const w of windows) expect((Date.parse(w.to) - Date.parse(w.from)) / 86_400_000).toBeLessThanOrEqual(31);
    for (let i = 1; i < windows.length; i++) expect((Date.parse(windows[i]!.from) - Date.parse(windows[i - 1]!.to)) / 86_400_000).toBe(1);
    expect(windows).toHaveLength(3);
  });
  it('laid back from the end, a longer span ending on the same day reuses the shorter span\'s windows', () => {
    const short = barWindows('2026-10-20', '2026-11-20', 31, 'end');
    const long = barWindows('2026-08-20', '2026-11-20', 31, 'end');
    expect(short).toEqual([{ from: '2026-10-20', to: '2026-11-20' }]);
    expect(long.at(-1)).toEqual(short[0]);
    expect(long[0]!.from).toBe('2026-08-20');
  });
});

describe('signalMarkers: the stored events on the chart', () => {
  const days = ['2026-11-02', '2026-11-03', '2026-11-06', '2026-11-19', '2026-11-20'].map((time) => ({ time, value: 0 }));
  const ledger: LedgerEntry[] = [
    { date: '2026-11-03', direction: 'bullish', cScore: 70, exitDate: '2026-11-06' },
    { date: '2026-11-06', direction: 'bearish', cScore: -70, exitDate: '2026-11-19' },
    { date: '2026-11-19', direction: 'bullish', cScore: 93.29, exitDate: null },
    // Before the chart's first day: no marker.
    { date: '2026-10-01', direction: 'bullish', cScore: 80, exitDate: '2026-10-02' },
  ];
  const markers = signalMarkers(ledger, days);
  it('marks entries, exits and reversals (an exit and an entry the other way on one report), ascending, one a day', () => {
    expect(markers.map((m) => [m.time, m.kind, m.direction])).toEqual([
      ['2026-11-03', 'entered', 'bullish'],
      ['2026-11-06', 'reversed', 'bearish'],
      ['2026-11-19', 'reversed', 'bullish'],
    ]);
  });
  it('says what each marker means with the spec\'s thresholds', () => {
    expect(markers[0]).toMatchObject({ shape: 'arrowUp', position: 'belowBar', color: '#16a34a', meaning: 'Entered a bullish signal (C-Score 65 or more)' });
    expect(markers[1]).toMatchObject({ shape: 'square', color: '#dc2626', meaning: 'Reversed to bearish (C-Score -65 or less)' });
    const exited = signalMarkers([{ date: '2026-11-02', direction: 'bullish', cScore: 70, exitDate: '2026-11-03' }], days);
    expect(exited[1]).toMatchObject({ kind: 'exited', shape: 'circle', color: '#6b7280', meaning: 'Exited the bullish signal (no longer C-Score 65 or more)' });
  });
  it('reads a day for the crosshair: date, close, C-Score and the event', () => {
    expect(dayReading('2026-11-03', 71, 'historical', 123.4, markers)).toBe('Nov 3, 2026, Close $123.40, C-Score 71.00, Entered a bullish signal (C-Score 65 or more)');
    expect(dayReading('2026-11-19', 93.29, 'previous', undefined, markers)).toBe('Nov 19, 2026, Previous day 93.29, Reversed to bullish (C-Score 65 or more)');
    expect(dayReading('2026-11-20', 96.81, 'current', undefined, markers)).toBe('Nov 20, 2026, Current day 96.81');
  });
});

describe('ascendingUnique', () => {
  it('sorts by time and keeps the last item of a time', () => {
    expect(ascendingUnique([{ time: 'b', v: 1 }, { time: 'a', v: 2 }, { time: 'b', v: 3 }])).toEqual([{ time: 'a', v: 2 }, { time: 'b', v: 3 }]);
  });
});

describe('axisTick: the time axis labels', () => {
  it.each([
    ['2026-01-02', 'year', '2026'],
    ['2026-11-02', 'month', 'Nov'],
    ['2026-03-02', 'month', 'Mar'],
    ['2026-11-27', 'day', '27'],
    ['2026-11-05', 'day', '5'],
  ] as const)('%s as a %s tick reads %s', (day, kind, label) => {
    expect(axisTick(day, kind)).toBe(label);
  });
});

describe('dateLabels: what both live charts give the library for dates', () => {
  const labels = dateLabels((time: string) => time);
  it('labels the library\'s tick kinds by its own enum', () => {
    expect(labels.tickMarkFormatter('2026-01-02', TickMarkType.Year)).toBe('2026');
    expect(labels.tickMarkFormatter('2026-11-02', TickMarkType.Month)).toBe('Nov');
    expect(labels.tickMarkFormatter('2026-11-27', TickMarkType.DayOfMonth)).toBe('27');
  });
  it('writes the crosshair\'s date as the tooltip does', () => {
    expect(labels.timeFormatter('2026-11-27')).toBe('Nov 27, 2026');
  });
});
