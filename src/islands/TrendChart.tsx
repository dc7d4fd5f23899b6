import { useStore } from '@nanostores/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { fetchDailyBars } from '../lib/client/api';
import { idleStore, trendStore } from '../lib/client/query';
import { decodeTrend } from '../lib/domain/signals/detail';
import { formatDate, formatPrice, formatScore } from '../lib/domain/text/format';
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
  trendColor,
  trendTooltip,
  validateTrend,
  type ChartPoint,
  type TrendPoint,
  type TrendRange,
  type TrendResponse,
} from '../lib/domain/trend/trend';
import {
  PLOT_VIEWBOX,
  PRICE_PANEL_DAYS,
  PRICE_PANEL_HEIGHT,
  TREND_PLOT_INSETS as INSETS,
  nearestDay,
  pricePoints,
  priceWindow,
  scoreY,
  trendGeometry,
  type TrendGeometry,
} from '../lib/domain/trend/trend-chart';
import { withErrorBoundary } from './ErrorBoundary';

const COLORS = { bullish: '#16a34a', bearish: '#dc2626', neutral: '#6b7280' } as const;

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

/** The daily closes under the chart: loading, none, or the bars and whether they are the demo provider's. */
type Prices = { state: 'idle' | 'loading' } | { state: 'ready'; bars: Bar[]; isDemo: boolean };

/** The drawing: thresholds, the averages as labelled horizontal lines, the line, the axes (the same before and after hydration). */
function Plot({ geometry, color, height, active }: { geometry: TrendGeometry; color: string; height: number; active: number | null }) {
  const current = geometry.days.at(-1);
  const activeDay = geometry.days.find((d) => d.index === active);
  const activeAverage = geometry.averages.find((a) => a.index === active);
  return (
    <div className="absolute inset-0" aria-hidden="true">
      <div className="absolute" style={{ top: INSETS.top, right: INSETS.right, bottom: INSETS.bottom, left: INSETS.left }}>
        {TREND_REFERENCE_LINES.map((r) => (
          <div key={r.value} className="absolute inset-x-0 border-t" style={{ top: percent(scoreY(r.value)), borderColor: COLORS[r.tone], borderTopStyle: r.dashed ? 'dashed' : 'solid' }} />
        ))}
        {geometry.averages.map((a) => (
          <div key={a.point.type} data-average={a.point.type} className={`absolute inset-x-0 border-t-2 ${AVERAGE_STYLE[a.point.type as '7d-avg'].line}`} style={{ top: percent(a.y), borderTopStyle: AVERAGE_STYLE[a.point.type as '7d-avg'].dash, opacity: activeAverage && activeAverage !== a ? 0.4 : 0.8 }} />
        ))}
        <svg viewBox={`0 0 ${PLOT_VIEWBOX.width} ${PLOT_VIEWBOX.height}`} preserveAspectRatio="none" width="100%" height="100%" className="absolute inset-0 overflow-visible">
          <path d={geometry.path} fill="none" stroke={color} strokeWidth={TREND_LINE.width} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
        </svg>
        {activeDay && <div className="absolute inset-y-0 border-l border-gray-400 dark:border-gray-500" style={{ left: percent(activeDay.x) }} />}
        {current && <span className="absolute rounded-full" style={{ left: percent(current.x), top: percent(current.y), width: 8, height: 8, transform: 'translate(-50%, -50%)', background: color }} />}
        {activeDay && (
          <span
            data-testid="trend-active-dot"
            className="absolute rounded-full border-2 border-white dark:border-gray-900"
            style={{ left: percent(activeDay.x), top: percent(activeDay.y), width: TREND_LINE.dotRadius * 2, height: TREND_LINE.dotRadius * 2, transform: 'translate(-50%, -50%)', background: color }}
          />
        )}
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

/** The price panel: the daily closes on the chart's time axis, with the active day's close marked. */
function PricePanel({ ticker, geometry, prices, active }: { ticker: string; geometry: TrendGeometry; prices: Prices; active: number | null }) {
  const placed = useMemo(() => (prices.state === 'ready' ? pricePoints(prices.bars, geometry.days) : null), [prices, geometry.days]);
  const activeDate = geometry.days.find((d) => d.index === active)?.point.date;
  const activeClose = placed?.points.find((p) => p.date === activeDate);
  const label =
    placed && placed.points.length > 0
      ? `Daily closes of ${ticker} from ${formatDate(placed.points[0]!.date)} to ${formatDate(placed.points.at(-1)!.date)}: low ${formatPrice(placed.low)}, high ${formatPrice(placed.high)}${prices.state === 'ready' && prices.isDemo ? ' (demo prices)' : ''}.`
      : `Daily closes of ${ticker}`;
  const state = prices.state === 'ready' ? (placed!.points.length > 0 ? 'ready' : 'empty') : 'loading';
  return (
    <div className="mt-2" data-testid="price-panel" data-state={state}>
      <div className="flex items-center justify-between text-xs">
        <span className="muted">{`Daily close, last ${PRICE_PANEL_DAYS} days at most`}</span>
        {prices.state === 'ready' && prices.isDemo && <span className="badge badge-neutral">Demo prices</span>}
      </div>
      <div className="relative" style={{ height: PRICE_PANEL_HEIGHT }} role="img" aria-label={label}>
        <div className="absolute rounded border border-dashed border-gray-300 dark:border-gray-700" style={{ top: 2, bottom: 2, left: INSETS.left, right: INSETS.right }}>
          {placed && placed.points.length > 0 && (
            <>
              <svg viewBox={`0 0 ${PLOT_VIEWBOX.width} 100`} preserveAspectRatio="none" width="100%" height="100%" className="absolute inset-0" aria-hidden="true">
                <path d={placed.path} fill="none" stroke="currentColor" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
              </svg>
              {activeClose && <span className="absolute rounded-full bg-current" style={{ left: percent(activeClose.x), top: percent(activeClose.y), width: 8, height: 8, transform: 'translate(-50%, -50%)' }} />}
            </>
          )}
          {state !== 'ready' && (
            <p className="muted flex h-full items-center justify-center px-2 text-center text-xs">{state === 'loading' ? 'Loading daily closes...' : 'No daily closes for these dates'}</p>
          )}
        </div>
        {placed && placed.points.length > 0 && (
          <>
            <span className="muted absolute text-[10px] leading-none tabular-nums" style={{ right: 0, top: 2, width: INSETS.right - 2 }}>{Math.round(placed.high)}</span>
            <span className="muted absolute text-[10px] leading-none tabular-nums" style={{ right: 0, bottom: 2, width: INSETS.right - 2 }}>{Math.round(placed.low)}</span>
          </>
        )}
      </div>
    </div>
  );
}

/** The tooltip's text of a point, with the day's close when the price panel has it. */
function tooltipOf(point: ChartPoint, close: number | undefined): { heading: string; lines: string[] } {
  const { heading, label } = trendTooltip(point);
  const lines = [`${label}: ${formatScore(point.cScore)}`];
  if (close !== undefined) lines.push(`Close: ${formatPrice(close)}`);
  return { heading, lines };
}

/**
 * The C-Score trend chart: drawn as HTML and SVG from the embedded data, so the first paint is the whole chart
 * (axes, thresholds, averages); once hydrated a tooltip follows the point under the mouse, a tap, or the arrow keys,
 * and the price panel below it loads the daily closes.
 */
function TrendChart({ ticker, currentScore, size = 'card', embedded, complete = true }: TrendChartProps) {
  const height = TREND_CHART_HEIGHTS[size];
  const initial = useMemo<View | null>(() => (embedded === undefined ? null : toView(ticker, decodeTrend(ticker, embedded))), [ticker, embedded]);
  const [range, setRange] = useState<TrendRange>(DEFAULT_TREND_RANGE);
  // The tooltip works once the island runs; a range pressed before that hydrates it and is replayed (client:afterpaint's replay).
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
  const reportDate = view.state === 'chart' ? view.reportDate : '';
  const all = view.state === 'chart' ? view.valid : null;
  const valid = useMemo(() => (all ? pointsInRange(all, reportDate, range) : null), [all, reportDate, range]);
  const chart = useMemo(() => (valid ? toChartPoints(valid) : null), [valid]);
  const geometry = useMemo(() => (chart ? trendGeometry(chart.points, height) : null), [chart, height]);
  useEffect(() => {
    for (const warning of chart?.warnings ?? []) console.warn(warning);
  }, [chart]);

  // The daily closes of the last month of the shown range, once the chart runs in the browser.
  const [prices, setPrices] = useState<Prices>({ state: 'idle' });
  const first = geometry?.days[0]?.point.date;
  const last = geometry?.days.at(-1)?.point.date;
  useEffect(() => {
    if (!live || !first || !last) return;
    let current = true;
    const { from, to } = priceWindow(first, last, new Date().toISOString().slice(0, 10));
    setPrices({ state: 'loading' });
    void fetchDailyBars(ticker, from, to).then((answer) => {
      if (current) setPrices({ state: 'ready', ...answer });
    });
    return () => {
      current = false;
    };
  }, [live, ticker, first, last]);

  // The point the tooltip shows (an index of chart.points), and how it was chosen.
  const [active, setActive] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const wrap = useRef<HTMLDivElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  // A click or tap focuses the chart too: its point, not the keyboard's default (the current day), is the one shown.
  const pressed = useRef(false);
  useEffect(() => setActive(null), [geometry]);
  const closeOf = (point: ChartPoint) => {
    if (prices.state !== 'ready') return undefined;
    const day = point.type === '7d-avg' || point.type === '14d-avg' ? undefined : point.date;
    return prices.bars.find((b) => new Date(b.t).toISOString().slice(0, 10) === day)?.c;
  };
  const activePoint = active === null || !chart ? null : (chart.points[active] ?? null);
  const activeTip = activePoint ? tooltipOf(activePoint, closeOf(activePoint)) : null;

  // The tooltip sits over its point, inside the chart's box: never off to one side, never wider than the page.
  useLayoutEffect(() => {
    const box = wrap.current;
    const el = tip.current;
    if (!box || !el || !geometry || active === null) return;
    const width = box.clientWidth;
    const plotWidth = width - INSETS.left - INSETS.right;
    const plotHeight = height - INSETS.top - INSETS.bottom;
    const day = geometry.days.find((d) => d.index === active);
    const average = geometry.averages.find((a) => a.index === active);
    const x = day ? INSETS.left + day.x * plotWidth : INSETS.left / 2;
    const y = INSETS.top + (day ? day.y * plotHeight : (average?.labelTop ?? 0));
    const left = Math.max(0, Math.min(width - el.offsetWidth, x - el.offsetWidth / 2));
    const above = y - el.offsetHeight - 12;
    el.style.left = `${left}px`;
    el.style.top = `${above >= 0 ? above : Math.min(height - el.offsetHeight, y + 12)}px`;
    el.dataset.x = String(Math.round(x));
  }, [active, geometry, height, activeTip?.lines.length]);

  // A tap elsewhere on the page closes a touch's tooltip.
  useEffect(() => {
    if (active === null) return;
    const away = (event: Event) => {
      if (!wrap.current?.contains(event.target as Node)) setActive(null);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [active]);

  const pointAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = plot.current?.getBoundingClientRect();
    if (!box || !geometry || box.width <= 0) return;
    // Over the averages' labels: that average; over the plot: the day nearest the pointer.
    if (event.clientX < box.left - 4) {
      const y = event.clientY - box.top;
      const label = geometry.averages.find((a) => Math.abs(a.labelTop - y) <= 9);
      if (label) setActive(label.index);
      return;
    }
    const day = nearestDay(geometry.days, (event.clientX - box.left) / box.width);
    if (day) setActive(day.index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!chart || chart.points.length === 0) return;
    const lastIndex = chart.points.length - 1;
    const from = active ?? lastIndex;
    const next =
      event.key === 'ArrowLeft' ? Math.max(0, from - 1)
      : event.key === 'ArrowRight' ? Math.min(lastIndex, from + 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? lastIndex
      : event.key === 'Escape' && active !== null ? null
      : undefined;
    // An Escape with no tooltip open is not ours: the detail dialog closes on it.
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    if (next !== null) {
      const text = tooltipOf(chart.points[next]!, closeOf(chart.points[next]!));
      setAnnounce(`${text.heading}: ${text.lines.join(', ')}`);
    }
  };

  const summary = valid ? trendSummary(ticker, valid) : '';
  // A range that shows no more than a shorter one is off, with the reason on screen (same before and after hydration).
  const beyond = useMemo(() => rangesBeyondHistory(all ?? [], reportDate, remoteView !== null || (embedded !== undefined && complete)), [all, reportDate, remoteView, embedded, complete]);
  const noteId = `trend-ranges-note-${ticker}-${size}`;

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
      <div data-testid="trend-chart" data-state={view.state} data-range={range} data-drawn={live && geometry ? 'true' : 'false'} data-color={trendColor(currentScore)}>
        {view.state === 'chart' && geometry ? (
          <div
            ref={wrap}
            className="relative rounded focus-visible:outline-2 focus-visible:outline-offset-2"
            style={{ height, touchAction: 'pan-y' }}
            tabIndex={0}
            data-tooltip-open={active === null ? undefined : ''}
            role="group"
            aria-label={`C-Score trend for ${ticker}. Left and right arrow keys move between days.`}
            onPointerMove={live ? pointAt : undefined}
            onPointerDown={
              live
                ? (event) => {
                    pressed.current = true;
                    pointAt(event);
                  }
                : undefined
            }
            onPointerLeave={(event) => {
              if (event.pointerType === 'mouse') setActive(null);
            }}
            onKeyDown={live ? onKeyDown : undefined}
            onFocus={() => {
              if (pressed.current) pressed.current = false;
              else if (live && active === null && chart) setActive(chart.points.length - 1);
            }}
            onBlur={() => setActive(null)}
          >
            <div className="absolute inset-0" role="img" aria-label={summary}>
              <Plot geometry={geometry} color={color} height={height} active={active} />
              <div ref={plot} className="absolute" style={{ top: INSETS.top, right: INSETS.right, bottom: INSETS.bottom, left: INSETS.left }} />
            </div>
            {activeTip && (
              <div ref={tip} className="pointer-events-none absolute z-10 whitespace-nowrap rounded bg-gray-900 px-2 py-1 text-xs text-white shadow dark:bg-gray-700" data-testid="trend-tooltip" aria-hidden="true">
                <div className="font-semibold">{activeTip.heading}</div>
                {activeTip.lines.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </div>
            )}
            <p className="sr-only" aria-live="polite">{announce}</p>
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
      {geometry && <PricePanel ticker={ticker} geometry={geometry} prices={prices} active={active} />}
    </div>
  );
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(TrendChart, 'TrendChart');
