import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fetchBarsSpan, fetchLedger } from '../lib/client/chart-data';
import { idleStore, trendStore } from '../lib/client/query';
import { decodeTrend } from '../lib/domain/signals/detail';
import { formatScore } from '../lib/domain/text/format';
import type { Bar } from '../lib/domain/market-data/market';
import {
  DEFAULT_TREND_RANGE,
  TREND_RANGES,
  TREND_CHART_HEIGHTS,
  TREND_LINE,
  TREND_REFERENCE_LINES,
  pointsInRange,
  rangesBeyondHistory,
  toChartPoints,
  trendRangeMonths,
  trendRangeStart,
  trendColor,
  validateTrend,
  type TrendPoint,
  type TrendRange,
  type TrendResponse,
} from '../lib/domain/trend/trend';
import { PLOT_VIEWBOX, PRICE_PANE_HEIGHT, TREND_PLOT_INSETS as INSETS, scoreY, trendGeometry, type TrendGeometry } from '../lib/domain/trend/trend-chart';
import { CHART_COLORS as COLORS, priceSeries, scoreSeries, signalMarkers, type LedgerEntry } from '../lib/domain/trend/chart-series';
import type { LiveChart } from './trend/live-chart';
import { withErrorBoundary } from './ErrorBoundary';

/** The averages' reference lines and labels: a dash pattern and a colour each, so the two never read alike. */
const AVERAGE_STYLE = {
  '14d-avg': { line: 'border-violet-600 dark:border-violet-400', text: 'text-violet-700 dark:text-violet-300', dash: 'dashed' },
  '7d-avg': { line: 'border-sky-600 dark:border-sky-400', text: 'text-sky-700 dark:text-sky-300', dash: 'dotted' },
} as const;

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

/** A short text of the chart for screen readers: the number of reports, the current score and the averages. */
function trendSummary(ticker: string, valid: TrendPoint[]): string {
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
          data-x={short(t.x, 4)}
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
      <span className="muted text-xs">Daily prices show in the interactive chart</span>
    </div>
  );
}

/** The daily bars under the chart: none asked yet, or the ones loaded and whether they are the demo provider's. */
type Prices = { bars: Bar[]; isDemo: boolean } | null;

/**
 * The C-Score trend card's chart. First paint (and without JavaScript): the score drawn as HTML and SVG from the
 * embedded data. Once the island runs near the viewport, lightweight-charts loads and draws price and C-Score on one
 * time scale in the same box, with the signal events, pan, zoom, touch and a keyboard crosshair.
 */
function TrendChart({ ticker, currentScore, size = 'card', embedded, complete = true }: TrendChartProps) {
  const height = TREND_CHART_HEIGHTS[size];
  const boxHeight = PRICE_PANE_HEIGHT + height;
  const initial = useMemo<View | null>(() => (embedded === undefined ? null : toView(ticker, decodeTrend(ticker, embedded))), [ticker, embedded]);
  const [range, setRange] = useState<TrendRange>(DEFAULT_TREND_RANGE);
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

  const color = trendColor(currentScore);
  const reportDate = view.state === 'chart' ? view.reportDate : '';
  const all = view.state === 'chart' ? view.valid : null;
  const valid = useMemo(() => (all ? pointsInRange(all, reportDate, range) : null), [all, reportDate, range]);
  const chart = useMemo(() => (valid ? toChartPoints(valid) : null), [valid]);
  const geometry = useMemo(() => (chart ? trendGeometry(chart.points, height) : null), [chart, height]);
  useEffect(() => {
    for (const warning of chart?.warnings ?? []) console.warn(warning);
  }, [chart]);

  // The library: imported once the island runs (it hydrates as the card nears the viewport, or on a first press).
  const host = useRef<HTMLDivElement>(null);
  const legend = useRef<HTMLParagraphElement>(null);
  const live = useRef<HTMLParagraphElement>(null);
  const [liveChart, setLiveChart] = useState<LiveChart | null>(null);
  const [span, setSpan] = useState<{ from: string; to: string } | null>(null);
  const hasChart = view.state === 'chart';
  useEffect(() => {
    if (!hasChart || !host.current) return;
    let made: LiveChart | null = null;
    let current = true;
    void import('./trend/live-chart').then(({ mountLiveChart }) => {
      if (!current || !host.current || !legend.current || !live.current) return;
      made = mountLiveChart(host.current, { legend: legend.current, live: live.current, priceHeight: PRICE_PANE_HEIGHT, scoreHeight: height, onView: (from, to) => setSpan({ from, to }) });
      setLiveChart(made);
    });
    return () => {
      current = false;
      made?.destroy();
      setLiveChart(null);
    };
  }, [hasChart, height]);

  // The whole trend the chart holds (the range only moves its view), the prices of the shown span and the events.
  const allPoints = useMemo(() => (all ? toChartPoints(all).points : null), [all]);
  const scores = useMemo(() => (allPoints ? scoreSeries(allPoints) : null), [allPoints]);
  const rangeStart = scores ? (trendRangeStart(reportDate, range) ?? scores.data[0]?.time ?? null) : null;
  const lastDay = scores?.data.at(-1)?.time ?? null;
  const [prices, setPrices] = useState<Prices>(null);
  const [ledger, setLedger] = useState<LedgerEntry[]>([]);
  useEffect(() => {
    if (!liveChart || !rangeStart || !lastDay) return;
    let current = true;
    const today = new Date().toISOString().slice(0, 10);
    const from = scores!.data[0]!.time > rangeStart ? scores!.data[0]!.time : rangeStart;
    void fetchBarsSpan(ticker, from, lastDay < today ? lastDay : today).then((answer) => {
      if (current) setPrices((before) => (before && before.bars.length >= answer.bars.length ? before : answer));
    });
    return () => {
      current = false;
    };
  }, [liveChart, ticker, rangeStart, lastDay, scores]);
  useEffect(() => {
    if (!liveChart) return;
    let current = true;
    void fetchLedger(ticker).then((rows) => current && setLedger(rows));
    return () => {
      current = false;
    };
  }, [liveChart, ticker]);
  const markers = useMemo(() => (scores ? signalMarkers(ledger, scores.data) : []), [ledger, scores]);
  useEffect(() => {
    if (!liveChart || !scores) return;
    liveChart.update({ score: scores, price: prices ? priceSeries(prices.bars) : null, markers, color, isDemo: prices?.isDemo ?? false });
  }, [liveChart, scores, prices, markers, color]);
  useEffect(() => {
    if (liveChart && lastDay) liveChart.showRange(trendRangeStart(reportDate, range), lastDay);
  }, [liveChart, scores, range, reportDate, lastDay]);

  const summary = valid ? trendSummary(ticker, valid) : '';
  // A range that shows no more than a shorter one is off, with the reason on screen (same before and after hydration).
  const beyond = useMemo(() => rangesBeyondHistory(all ?? [], reportDate, remoteView !== null || (embedded !== undefined && complete)), [all, reportDate, remoteView, embedded, complete]);
  const noteId = `trend-ranges-note-${ticker}-${size}`;
  const drawn = liveChart !== null;

  return (
    <div>
      <div className="mb-2 flex items-center justify-end gap-1" role="group" aria-label={`Trend range for ${ticker}`} data-testid="trend-ranges">
        {prices?.isDemo && <span className="badge badge-neutral mr-auto" data-testid="demo-prices">Demo prices</span>}
        {TREND_RANGES.map((r) => (
          <button
            key={r.id}
            type="button"
            className="btn btn-sm"
            aria-pressed={range === r.id}
            aria-label={`${r.id}: ${r.label}`}
            title={r.label}
            disabled={beyond.same[r.id] !== null}
            data-beyond={beyond.same[r.id] ?? undefined}
            aria-describedby={beyond.same[r.id] !== null ? noteId : undefined}
            aria-busy={range === r.id && loadingLonger ? true : undefined}
            onClick={() => setRange(r.id)}
          >
            {r.id}
          </button>
        ))}
      </div>
      {beyond.note && (
        <p id={noteId} className="muted mb-2 text-right text-xs" data-testid="trend-ranges-note">
          {beyond.note}
        </p>
      )}
      <div
        data-testid="trend-chart"
        data-state={view.state}
        data-range={range}
        data-drawn={drawn ? 'true' : 'false'}
        data-color={color}
        data-visible-from={span?.from}
        data-visible-to={span?.to}
      >
        {view.state === 'chart' && geometry ? (
          <div className="relative" style={{ height: boxHeight }}>
            {!drawn && (
              <div className="absolute inset-0" role="img" aria-label={summary}>
                <PricePlaceholder />
                <Plot geometry={geometry} color={COLORS[color]} height={height} />
              </div>
            )}
            <div
              ref={host}
              className="absolute inset-0 rounded focus-visible:outline-2 focus-visible:outline-offset-2"
              data-testid="trend-live"
              tabIndex={drawn ? 0 : undefined}
              role={drawn ? 'group' : undefined}
              aria-label={drawn ? `Price and C-Score of ${ticker}. Left and right arrow keys move the crosshair between days; Home and End go to the first and last.` : undefined}
              aria-describedby={drawn ? `${noteId}-summary` : undefined}
            />
            <p ref={legend} className="pointer-events-none absolute left-1 top-0 z-10 max-w-[calc(100%-3.5rem)] truncate rounded bg-white/85 px-1 text-[11px] tabular-nums dark:bg-gray-900/85" data-testid="trend-legend" aria-hidden="true" />
            <p ref={live} className="sr-only" aria-live="polite" data-testid="trend-announce" />
            {drawn && <p id={`${noteId}-summary`} className="sr-only" data-testid="trend-summary">{summary}</p>}
          </div>
        ) : (
          <div className="flex flex-col items-center justify-center gap-2 text-center text-sm" style={{ height: boxHeight }}>
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
