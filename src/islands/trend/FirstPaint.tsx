/**
 * The trend card's first paint, rendered at build time into the stock page (no JavaScript, the LCP element, the no-JS
 * view): the C-Score line of the default range on the spec's axis, with the price pane's place reserved, in the box
 * the live chart (TrendChart) later fills.
 */
import { formatScore } from '../../lib/domain/text/format';
import {
  DEFAULT_TREND_RANGE,
  TREND_CHART_HEIGHTS,
  TREND_LINE,
  TREND_REFERENCE_LINES,
  pointsInRange,
  toChartPoints,
  trendColor,
  validateTrend,
  type TrendPoint,
  type TrendResponse,
} from '../../lib/domain/trend/trend';
import { PLOT_VIEWBOX, PRICE_PANE_HEIGHT, TREND_PLOT_INSETS as INSETS, scoreY, trendGeometry, type TrendGeometry } from '../../lib/domain/trend/trend-chart';
import { CHART_COLORS as COLORS } from '../../lib/domain/trend/chart-series';

/** The averages' reference lines and labels: a dash pattern and a colour each, so the two never read alike. */
const AVERAGE_STYLE = {
  '14d-avg': { line: 'border-violet-600 dark:border-violet-400', text: 'text-violet-700 dark:text-violet-300', dash: 'dashed' },
  '7d-avg': { line: 'border-sky-600 dark:border-sky-400', text: 'text-sky-700 dark:text-sky-300', dash: 'dotted' },
} as const;

/** A short text of the chart for screen readers: the number of reports, the current score and the averages. */
export function trendSummary(ticker: string, valid: TrendPoint[]): string {
  const score = (pick: (p: TrendPoint) => boolean | undefined) => {
    const p = valid.find(pick);
    return p ? formatScore(Number(p.cScore)) : '—';
  };
  const reports = valid.filter((p) => !p.is7DayAvg && !p.is14DayAvg).length;
  return `C-Score trend for ${ticker} over ${reports} reports: current day ${score((p) => p.isCurrentDay)}, 7-day average ${score((p) => p.is7DayAvg)}, 14-day average ${score((p) => p.is14DayAvg)}.`;
}

/** A number with at most `digits` decimals: the drawing is in every stock page, and longer numbers only add bytes. */
const short = (value: number, digits: number) => Number(value.toFixed(digits));
/** A fraction as a percentage for a style. */
const percent = (fraction: number) => `${short(fraction * 100, 2)}%`;
/** A left offset inside the chart: `x` of the plot box's width past its left inset. */
const plotLeft = (x: number) => `calc(${INSETS.left}px + (100% - ${INSETS.left + INSETS.right}px) * ${short(x, 4)})`;

/** The first paint and the no-JavaScript view: thresholds, the averages as labelled lines, the score line, the axes. */
function Plot({ geometry, color, height }: { geometry: TrendGeometry; color: string; height: number }) {
  const current = geometry.days.at(-1);
  return (
    <div className="absolute inset-x-0 bottom-0" style={{ height }} aria-hidden="true">
      <div className="absolute" style={{ top: INSETS.top, right: INSETS.right, bottom: INSETS.bottom, left: INSETS.left }}>
        {TREND_REFERENCE_LINES.map((r) => (
          <div key={r.value} className="absolute inset-x-0 border-t" style={{ top: percent(scoreY(r.value)), borderColor: COLORS[r.tone], borderTopStyle: r.dashed ? 'dashed' : 'solid' }} />
        ))}
        {geometry.averages.map((a) => (
          <div key={a.point.type} data-average={a.point.type} className={`absolute inset-x-0 border-t-2 opacity-80 ${AVERAGE_STYLE[a.point.type as '7d-avg'].line}`} style={{ top: percent(a.y), borderTopStyle: AVERAGE_STYLE[a.point.type as '7d-avg'].dash }} />
        ))}
        <svg viewBox={`0 0 ${PLOT_VIEWBOX.width} ${PLOT_VIEWBOX.height}`} preserveAspectRatio="none" width="100%" height="100%" className="absolute inset-0 overflow-visible">
          <path d={geometry.path} fill="none" stroke={color} strokeWidth={TREND_LINE.width} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
        </svg>
        {current && <span className="absolute rounded-full" style={{ left: percent(current.x), top: percent(current.y), width: 8, height: 8, transform: 'translate(-50%, -50%)', background: color }} />}
      </div>
      {geometry.yTicks.map((t) => (
        <span key={t.value} className="muted absolute text-[11px] leading-none tabular-nums" style={{ right: 0, width: INSETS.right - 6, top: short(INSETS.top + t.y * (height - INSETS.top - INSETS.bottom), 1), transform: 'translateY(-50%)' }}>
          {t.value}
        </span>
      ))}
      {geometry.xTicks.map((t) => (
        <span
          key={t.date}
          data-date={t.date}
          className="muted absolute bottom-0 whitespace-nowrap text-[11px] leading-4"
          style={{ left: plotLeft(t.x), transform: t.align === 'start' ? undefined : t.align === 'end' ? 'translateX(-100%)' : 'translateX(-50%)' }}
        >
          {t.label}
        </span>
      ))}
      {geometry.averages.map((a) => (
        <span
          key={a.point.type}
          data-average-label={a.point.type}
          className={`absolute left-0 whitespace-nowrap text-[11px] font-semibold leading-none ${AVERAGE_STYLE[a.point.type as '7d-avg'].text}`}
          style={{ top: short(INSETS.top + a.labelTop, 1), transform: 'translateY(-50%)', width: INSETS.left - 6 }}
        >
          {a.point.axisLabel}
        </span>
      ))}
    </div>
  );
}

/** The price pane's place before the library draws it: the same height, so nothing moves when it does. */
function PricePlaceholder() {
  return (
    <div className="absolute inset-x-0 top-0 flex items-center justify-center rounded border border-dashed border-gray-300 dark:border-gray-700" style={{ height: PRICE_PANE_HEIGHT - 8, left: INSETS.left, right: INSETS.right }} aria-hidden="true">
      <span className="muted text-xs">Daily prices: interactive chart</span>
    </div>
  );
}

/** The first paint of a trend: the summary for screen readers, the drawing, and the price pane's reserved place. */
export function TrendFirstPaint({ ticker, currentScore, trend, size = 'card' }: { ticker: string; currentScore: number; trend: TrendResponse; size?: keyof typeof TREND_CHART_HEIGHTS }) {
  const height = TREND_CHART_HEIGHTS[size];
  let valid: TrendPoint[];
  try {
    valid = pointsInRange(validateTrend(ticker, trend), trend.reportDate, DEFAULT_TREND_RANGE);
  } catch {
    // No valid point: no drawing; the island shows the spec's empty state once it runs.
    return null;
  }
  const geometry = trendGeometry(toChartPoints(valid).points, height);
  return (
    <div className="absolute inset-0" role="img" aria-label={trendSummary(ticker, valid)}>
      <PricePlaceholder />
      <Plot geometry={geometry} color={COLORS[trendColor(currentScore)]} height={height} />
    </div>
  );
}
