import { describe, expect, it } from 'vitest';
import { toChartPoints, TREND_CHART_HEIGHTS, type TrendPoint } from '../../src/lib/domain/trend/trend';
import {
  AVERAGE_LABEL_HEIGHT,
  linePath,
  scoreY,
  spreadLabels,
  trendGeometry,
  TREND_PLOT_INSETS,
} from '../../src/lib/domain/trend/trend-chart';

const trend: TrendPoint[] = [
  { date: '2026-11-02', cScore: 91.9, is14DayAvg: true },
  { date: '2026-11-11', cScore: 91.85, is7DayAvg: true },
  { date: '2026-11-02', cScore: 40 },
  { date: '2026-11-03', cScore: 70 },
  { date: '2026-11-06', cScore: 66 },
  { date: '2026-11-19', cScore: 93.29, isYesterday: true },
  { date: '2026-11-20', cScore: 96.81, isCurrentDay: true },
];
const plotHeight = TREND_CHART_HEIGHTS.card - TREND_PLOT_INSETS.top - TREND_PLOT_INSETS.bottom;

describe('scoreY', () => {
  it.each([
    [110, 0],
    [0, 0.5],
    [-110, 1],
    [65, 45 / 220],
    [150, 0], // clamped to the domain
    [-150, 1],
  ])('%d sits at %d of the plot height', (score, y) => {
    expect(scoreY(score)).toBeCloseTo(y, 10);
  });
});

describe('spreadLabels', () => {
  it.each([
    [[50, 52], [50, 65]], // too close: the lower one moves down
    [[52, 50], [65, 50]], // in the order given
    [[0, 1], [7.5, 22.5]], // kept inside at the top
    [[152, 152], [129.5, 144.5]], // and at the bottom
    [[20, 100], [20, 100]], // apart already: untouched
  ])('%j -> %j', (wanted, placed) => {
    expect(spreadLabels(wanted, AVERAGE_LABEL_HEIGHT, plotHeight)).toEqual(placed);
  });
});

/** The y of every point of an "M x,y l dx,dy dx,dy ..." path, made absolute. */
function absoluteYs(path: string): number[] {
  const values = path.slice(1).match(/-?\d+/g)!.map(Number);
  const ys = [values[1]!];
  for (let i = 3; i < values.length; i += 2) ys.push(ys.at(-1)! + values[i]!);
  return ys;
}

describe('linePath', () => {
  it('draws relative straight segments whose ends land on the rounded points', () => {
    const path = linePath([{ x: 0.4, y: 10.2 }, { x: 11.6, y: 49.7 }, { x: 22.5, y: 50.4 }, { x: 30, y: 20 }]);
    expect(path).toBe('M0,10l12,40 11,0 7-30');
    expect(absoluteYs(path)).toEqual([10, 50, 50, 20]);
  });

  it('is empty without points and a move with one', () => {
    expect(linePath([])).toBe('');
    expect(linePath([{ x: 5, y: 7 }])).toBe('M5,7');
  });
});

describe('trendGeometry', () => {
  const { points } = toChartPoints(trend);
  const geometry = trendGeometry(points, TREND_CHART_HEIGHTS.card);

  it('places the days on a calendar time axis from the first to the report date', () => {
    expect(geometry.days.map((d) => [d.point.date, Number(d.x.toFixed(4))])).toEqual([
      ['2026-11-02', 0],
      ['2026-11-03', 0.0556],
      ['2026-11-06', 0.2222],
      ['2026-11-19', 0.9444],
      ['2026-11-20', 1],
    ]);
    expect(geometry.days.at(-1)!.y).toBeCloseTo(scoreY(96.81));
    expect(geometry.path.startsWith('M0,')).toBe(true);
  });

  it('keeps the spec order for the keyboard: the 14-day average, the 7-day average, then the days', () => {
    expect(geometry.averages.map((a) => [a.index, a.point.axisLabel])).toEqual([[0, '14D Avg'], [1, '7D Avg']]);
    expect(geometry.days.map((d) => d.index)).toEqual([2, 3, 4, 5, 6]);
  });

  it('moves two averages of nearly the same score apart so their labels never overlap', () => {
    const [a, b] = geometry.averages;
    expect(Math.abs(a!.labelTop - b!.labelTop)).toBeGreaterThanOrEqual(AVERAGE_LABEL_HEIGHT);
  });

  it('labels at most 4 dates: the first at its start, the report date at its end', () => {
    expect(geometry.xTicks.map((t) => [t.label, t.align])).toEqual([
      ['11/2', 'start'],
      ['11/3', 'middle'],
      ['11/19', 'middle'],
      ['11/20', 'end'],
    ]);
    expect(geometry.yTicks.map((t) => t.value)).toEqual([-100, -65, 0, 65, 100]);
  });
});
