import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { idleStore, trendStore } from '../lib/client/query';
import { decodeTrend } from '../lib/domain/detail';
import { formatScore } from '../lib/domain/format';
import {
  DEFAULT_TREND_RANGE,
  TREND_ANIMATION_MS,
  TREND_RANGES,
  TREND_CHART_HEIGHTS,
  TREND_LINE,
  TREND_REFERENCE_LINES,
  TREND_Y_DOMAIN,
  TREND_Y_TICKS,
  pointsInRange,
  toChartPoints,
  trendRangeMonths,
  trendColor,
  trendTooltip,
  validateTrend,
  type TrendPoint,
  type TrendRange,
  type TrendResponse,
} from '../lib/domain/trend';
import { withErrorBoundary } from './ErrorBoundary';

const COLORS = { bullish: '#16a34a', bearish: '#dc2626', neutral: '#6b7280' } as const;

/** Empty slots on the x-axis before the first point. */
const LEAD = 2;

/** Props: the ticker, its current C-Score, the view size, and the trend embedded at build time (absent: fetched). */
interface TrendChartProps {
  ticker: string;
  currentScore: number;
  size?: keyof typeof TREND_CHART_HEIGHTS;
  /** The trend in `encodeTrend`'s compact text, embedded in the page so the chart needs no request before first paint. */
  embedded?: string;
  /** False when `embedded` holds only the default range of a longer trend: a longer range then loads the full trend. */
  complete?: boolean;
}

const DEFAULT_MONTHS = trendRangeMonths(DEFAULT_TREND_RANGE);

type View =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'empty'; message: string }
  | { state: 'chart'; valid: TrendPoint[]; reportDate: string };

/** Turns a trend response into what the card shows: the valid points, or the spec's empty message. */
function toView(ticker: string, response: unknown): View {
  try {
    const valid = validateTrend(ticker, response);
    const given = typeof response === 'object' && response !== null ? (response as { reportDate?: unknown }).reportDate : undefined;
    const reportDate = typeof given === 'string' ? given : (valid.find((p) => p.isCurrentDay)?.date ?? valid.at(-1)!.date);
    return { state: 'chart', valid, reportDate };
  } catch (error) {
    return { state: 'empty', message: (error as Error).message };
  }
}

/** Scores in the chart's order (averages first, 14-day first; the current day last) for the static drawing. */
function drawingScores(valid: TrendPoint[]): number[] {
  const rank = (p: TrendPoint) => (p.is14DayAvg ? 0 : p.is7DayAvg ? 1 : p.isCurrentDay ? 3 : 2);
  return valid
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => Number(p.cScore));
}

/** A short text of the chart for screen readers: the number of reports, the current score and the averages. */
function trendSummary(ticker: string, valid: TrendPoint[]): string {
  const score = (pick: (p: TrendPoint) => boolean | undefined) => {
    const p = valid.find(pick);
    return p ? formatScore(Number(p.cScore)) : '—';
  };
  const reports = valid.filter((p) => !p.is7DayAvg && !p.is14DayAvg).length;
  return `C-Score trend for ${ticker} over ${reports} reports: current day ${score((p) => p.isCurrentDay)}, 7-day average ${score((p) => p.is7DayAvg)}, 14-day average ${score((p) => p.is14DayAvg)}.`;
}

/** y of a score in a box `height` high, on the domain -110..110. */
function yOf(score: number, height: number): number {
  const [min, max] = TREND_Y_DOMAIN;
  return ((max - score) / (max - min)) * height;
}

/** The static first-paint drawing: the line and the reference lines as SVG, the size of the chart it stands for. */
function StaticChart({ scores, height, color }: { scores: number[]; height: number; color: string }) {
  const width = 300;
  const step = scores.length > 1 ? width / (scores.length - 1) : 0;
  const line = scores.map((s, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${yOf(s, height).toFixed(1)}`).join('');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" width="100%" height={height} aria-hidden="true" className="absolute inset-0">
      {TREND_REFERENCE_LINES.map((r) => (
        <line key={r.value} x1="0" x2={width} y1={yOf(r.value, height)} y2={yOf(r.value, height)} stroke={COLORS[r.tone]} strokeDasharray={r.dashed ? '4 4' : undefined} vectorEffect="non-scaling-stroke" strokeWidth="1" />
      ))}
      <path d={line} fill="none" stroke={color} strokeWidth={TREND_LINE.width} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** The C-Score trend chart: embedded data for first paint, lightweight-charts loaded when the chart is shown. */
function TrendChart({ ticker, currentScore, size = 'card', embedded, complete = true }: TrendChartProps) {
  const height = TREND_CHART_HEIGHTS[size];
  const initial = useMemo<View | null>(() => (embedded === undefined ? null : toView(ticker, decodeTrend(ticker, embedded))), [ticker, embedded]);
  const [range, setRange] = useState<TrendRange>(DEFAULT_TREND_RANGE);
  // The range buttons work once the island runs; in the static page they are there, disabled, so nothing shifts.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  // With embedded data nothing is requested until 'Try Again' or 'Refresh' asks for it, or a range longer than
  // the embedded one is chosen.
  const [fetching, setFetching] = useState(embedded === undefined);
  const wantsFull = fetching || (!complete && trendRangeMonths(range) > DEFAULT_MONTHS);
  const store = wantsFull ? trendStore(ticker, { modal: size === 'modal' }) : idleStore<TrendResponse>();
  const remote = useStore(store, { ssr: 'initial' });
  const remoteView = useMemo(() => (remote.data ? toView(ticker, remote.data) : null), [ticker, remote.data]);
  const loadingLonger = wantsFull && !fetching && !remoteView && !remote.error;
  const view: View = wantsFull
    ? remoteView
      ? remoteView
      : remote.error
        ? { state: 'error', message: `Error loading trend data for ${ticker}` }
        : loadingLonger && initial
          ? initial // the embedded range stays on screen while the longer one loads
          : { state: 'loading' }
    : (initial ?? { state: 'loading' });
  const retry = () => {
    if (wantsFull) store.revalidate();
    else setFetching(true);
  };

  const color = COLORS[trendColor(currentScore)];
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [tip, setTip] = useState<{ x: number; y: number; heading: string; label: string; value: string } | null>(null);
  const reportDate = view.state === 'chart' ? view.reportDate : '';
  const all = view.state === 'chart' ? view.valid : null;
  const valid = useMemo(() => (all ? pointsInRange(all, reportDate, range) : null), [all, reportDate, range]);

  useEffect(() => {
    const el = box.current;
    if (!el || !valid) return;
    // The labelled points are made only in the browser, when the chart is drawn.
    const { points, warnings } = toChartPoints(valid);
    for (const warning of warnings) console.warn(warning);
    let disposed = false;
    let cleanup = () => undefined as void;
    let observer: IntersectionObserver | undefined;
    const draw = async () => {
      const lib = await import('lightweight-charts');
      if (disposed) return;
      const dark = document.documentElement.classList.contains('dark');
      const text = dark ? '#9ca3af' : '#4b5563';
      const chart = lib.createChart(el, {
        autoSize: true,
        height,
        layout: { background: { type: lib.ColorType.Solid, color: 'transparent' }, textColor: text, attributionLogo: false, fontSize: 11 },
        grid: { vertLines: { visible: false }, horzLines: { visible: false } },
        rightPriceScale: { borderVisible: false, scaleMargins: { top: 0, bottom: 0 } },
        timeScale: {
          borderVisible: false,
          fixLeftEdge: true,
          fixRightEdge: true,
          tickMarkFormatter: (time: unknown) => points[Number(time) - LEAD]?.axisLabel ?? '',
        },
        localization: {
          timeFormatter: (time: unknown) => {
            const p = points[Number(time) - LEAD];
            return p ? trendTooltip(p).heading : '';
          },
          // Only the five ticks of the spec get a label on the price axis.
          priceFormatter: (price: number) => (TREND_Y_TICKS.some((t) => Math.abs(t - price) < 1e-6) ? String(Math.round(price)) : ''),
        },
        crosshair: { horzLine: { visible: false, labelVisible: false }, vertLine: { labelVisible: false } },
        handleScroll: false,
        handleScale: false,
      });
      const series = chart.addSeries(lib.LineSeries, {
        color,
        lineWidth: TREND_LINE.width,
        lineType: lib.LineType.Curved,
        pointMarkersVisible: true,
        pointMarkersRadius: TREND_LINE.dotRadius / 2,
        crosshairMarkerRadius: TREND_LINE.dotRadius,
        lastValueVisible: false,
        priceLineVisible: false,
        autoscaleInfoProvider: () => ({ priceRange: { minValue: TREND_Y_DOMAIN[0], maxValue: TREND_Y_DOMAIN[1] } }),
      });
      // Two empty slots before the first point leave room for the average points' labels.
      series.setData([...Array.from({ length: LEAD }, (_, i) => ({ time: i as never })), ...points.map((p, i) => ({ time: (i + LEAD) as never, value: p.cScore }))]);
      for (const r of TREND_REFERENCE_LINES) {
        series.createPriceLine({ price: r.value, color: COLORS[r.tone], lineWidth: 1, lineStyle: r.dashed ? lib.LineStyle.Dashed : lib.LineStyle.Solid, axisLabelVisible: true, axisLabelColor: COLORS[r.tone], axisLabelTextColor: '#ffffff' });
      }
      for (const t of [TREND_Y_TICKS[0], TREND_Y_TICKS[4]]) {
        series.createPriceLine({ price: t, lineVisible: false, axisLabelVisible: true, axisLabelColor: dark ? '#0c0d10' : '#ffffff', axisLabelTextColor: text });
      }
      lib.createSeriesMarkers(
        series,
        points.flatMap((p, i) => (p.type === '7d-avg' || p.type === '14d-avg' ? [{ time: (i + LEAD) as never, position: p.type === '7d-avg' ? ('aboveBar' as const) : ('belowBar' as const), shape: 'circle' as const, color, text: p.axisLabel }] : [])),
      );
      chart.timeScale().fitContent();
      chart.subscribeCrosshairMove((param) => {
        const index = Number(param.time) - LEAD;
        const p = param.time === undefined ? undefined : points[index];
        if (!p || !param.point) return setTip(null);
        const { heading, label } = trendTooltip(p);
        setTip({ x: param.point.x, y: param.point.y, heading, label, value: formatScore(p.cScore) });
      });
      setDrawn(true);
      cleanup = () => chart.remove();
    };
    // The static drawing stands in until the whole chart is on screen; only then is the library fetched.
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer?.disconnect();
          void draw();
        }
      },
      { threshold: 1 },
    );
    observer.observe(el);
    return () => {
      observer?.disconnect();
      disposed = true;
      cleanup();
      setDrawn(false);
    };
  }, [valid, height, color]);

  const summary = valid ? trendSummary(ticker, valid) : '';

  return (
    <div>
      <div className="mb-2 flex justify-end gap-1" role="group" aria-label={`Trend range for ${ticker}`} data-testid="trend-ranges">
        {TREND_RANGES.map((r) => (
          <button
            key={r.id}
            type="button"
            className="btn btn-sm"
            aria-pressed={range === r.id}
            aria-label={`${r.id}: ${r.label}`}
            title={r.label}
            disabled={!live}
            aria-busy={range === r.id && loadingLonger ? true : undefined}
            onClick={() => setRange(r.id)}
          >
            {r.id}
          </button>
        ))}
      </div>
      <div data-testid="trend-chart" data-state={view.state} data-range={range} data-drawn={drawn ? 'true' : 'false'} data-color={trendColor(currentScore)}>
        {view.state === 'chart' && valid ? (
          <div className="relative" style={{ height }} role="img" aria-label={summary}>
            <div ref={box} className="absolute inset-0" style={{ opacity: drawn ? 1 : 0, transition: `opacity ${TREND_ANIMATION_MS}ms` }} />
            {!drawn && <StaticChart scores={drawingScores(valid)} height={height} color={color} />}
            {tip && (
              <div className="pointer-events-none absolute z-10 rounded bg-gray-900 px-2 py-1 text-xs text-white shadow dark:bg-gray-700" style={{ left: Math.min(tip.x + 8, 200), top: Math.max(0, tip.y - 48) }} data-testid="trend-tooltip">
                <div className="font-semibold">{tip.heading}</div>
                <div>
                  {tip.label}: {tip.value}
                </div>
              </div>
            )}
          </div>
        ) : (
          <div className="flex flex-col items-center justify-center gap-2 text-center text-sm" style={{ height }}>
            {view.state === 'loading' && (
              <>
                <div className="skeleton h-3/4 w-full" />
                <p className="muted">Loading trend data for {ticker}...</p>
              </>
            )}
            {view.state === 'error' && (
              <>
                <p className="font-medium">{view.message}</p>
                <p>Unable to load trend data</p>
                <p className="muted">Please try again later</p>
                <button type="button" className="btn" onClick={retry}>Try Again</button>
              </>
            )}
            {view.state === 'empty' && (
              <>
                <p className="font-medium">No C-Score trend data available for {ticker}</p>
                <p className="muted">{view.message}</p>
                <button type="button" className="btn" onClick={retry}>Refresh</button>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(TrendChart, 'TrendChart');
