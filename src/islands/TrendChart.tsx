import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { fetchBarsSpan, fetchLedger } from '../lib/client/chart-data';
import { idleStore, trendStore } from '../lib/client/query';
import {
  DEFAULT_TREND_RANGE,
  TREND_RANGES,
  TREND_CHART_HEIGHTS,
  pointsInRange,
  rangesBeyondHistory,
  trendRangeStart,
  trendColor,
  type RangesBeyondHistory,
  type TrendRange,
} from '../lib/domain/trend/trend';
import { PRICE_PANE_HEIGHT } from '../lib/domain/trend/trend-chart';
import { barsSpan, type LedgerEntry } from '../lib/domain/trend/chart-series';
import { trendSummary } from './trend/FirstPaint';
import { PARTS_WAIT_MS, liveChartInput, liveChartLabel, trendSeries, trendView, type Prices, type View } from './trend/chart-input';
import { claimChart, earlyChart } from './trend/early';
import type { LiveChart, LiveChartData } from './trend/live-chart';
import { warmTrendChart } from './trend/warm';
import { withErrorBoundary } from './ErrorBoundary';

/** The chart box's own content: none; the library fills it. */
const EMPTY_HTML = { __html: '' };

/** Props: the ticker, its current C-Score and the view size; on the stock page the build's first paint and ranges. */
interface TrendChartProps {
  ticker: string;
  currentScore: number;
  size?: keyof typeof TREND_CHART_HEIGHTS;
  /** The ranges that show no more than a shorter one, from the build's trend (the buttons' state before the trend loads). */
  beyond?: RangesBeyondHistory;
  /** The build's drawing (TrendFirstPaint, static HTML): shown until the library draws the chart in its box. */
  children?: ReactNode;
}

/**
 * The C-Score trend card's chart. First paint (and without JavaScript): the build's drawing, given as children. Once
 * the island runs near the viewport, the trend and lightweight-charts load, and the library draws price and C-Score
 * on one time scale in the same box, with the signal events, pan, zoom, touch and a keyboard crosshair.
 */
function TrendChart({ ticker, currentScore, size = 'card', beyond: built, children }: TrendChartProps) {
  const height = TREND_CHART_HEIGHTS[size];
  const boxHeight = PRICE_PANE_HEIGHT + height;
  const [range, setRange] = useState<TrendRange>(DEFAULT_TREND_RANGE);
  // The trend loads once the island runs (near the viewport, on a first press, or in the dialog), with the library.
  const [running, setRunning] = useState(false);
  useEffect(() => {
    setRunning(true);
    // The trend (now, not a render later), the library and the events load at once; the effects below get them.
    return warmTrendChart({ ticker, modal: size === 'modal' });
    // Once, as the island starts: an island's ticker and size do not change.
  }, []);
  const store = running ? trendStore(ticker, { modal: size === 'modal' }) : idleStore<unknown>();
  const remote = useStore(store, { ssr: 'initial' });
  const remoteView = useMemo(() => (remote.data ? trendView(ticker, remote.data) : null), [ticker, remote.data]);
  const firstPaint = children !== undefined && children !== null;
  const view: View | { state: 'first-paint' } = remoteView
    ? remoteView
    : remote.error
      ? { state: 'error', message: `Error loading trend data for ${ticker}` }
      : firstPaint
        ? { state: 'first-paint' }
        : { state: 'loading' };
  const retry = () => store.revalidate();

  const color = trendColor(currentScore);
  const reportDate = view.state === 'chart' ? view.reportDate : '';
  const all = view.state === 'chart' ? view.valid : null;
  const valid = useMemo(() => (all ? pointsInRange(all, reportDate, range) : null), [all, reportDate, range]);

  // The library: imported once the island runs (it hydrates as the card nears the viewport, or on a first press).
  const host = useRef<HTMLDivElement>(null);
  const [liveChart, setLiveChart] = useState<LiveChart | null>(null);
  const [span, setSpan] = useState<{ from: string; to: string } | null>(null);
  const hasChart = view.state === 'chart';

  // The whole trend the chart holds (the range only moves its view), the prices of the shown span and the events.
  const series = all ? trendSeries(all) : null;
  const chartData = series?.chart ?? null;
  useEffect(() => {
    for (const warning of chartData?.warnings ?? []) console.warn(warning);
  }, [chartData]);
  const scores = series?.scores ?? null;
  const firstDay = scores?.data[0]?.time ?? null;
  const lastDay = scores?.data.at(-1)?.time ?? null;
  const [prices, setPrices] = useState<Prices>(null);
  // Whether the first bars came or failed, and the ledger (null until it comes): the chart waits for both.
  const [pricesSettled, setPricesSettled] = useState(false);
  const [ledger, setLedger] = useState<LedgerEntry[] | null>(null);
  // The bars and the ledger load beside the library, not after it: the chart's first frame then has them all.
  useEffect(() => {
    if (!firstDay || !lastDay) return;
    let current = true;
    const { from, to } = barsSpan({ first: firstDay, last: lastDay }, reportDate, range);
    fetchBarsSpan(ticker, from, to)
      .then((answer) => {
        if (current) setPrices((before) => (before && before.bars.length >= answer.bars.length ? before : answer));
      })
      .catch((error: unknown) => console.warn(`The prices of ${ticker} could not be loaded: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => current && setPricesSettled(true));
    return () => {
      current = false;
    };
  }, [ticker, firstDay, lastDay, reportDate, range]);
  useEffect(() => {
    if (!hasChart) return;
    let current = true;
    void fetchLedger(ticker).then((rows) => current && setLedger(rows));
    return () => {
      current = false;
    };
  }, [hasChart, ticker]);
  // Each drawing of the library costs a long frame: the first waits for the bars and the events, or a slow provider.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (!hasChart) return;
    const timer = setTimeout(() => setWaited(true), PARTS_WAIT_MS);
    return () => clearTimeout(timer);
  }, [hasChart]);
  const partsIn = waited || (pricesSettled && ledger !== null);
  const input = scores ? liveChartInput(scores, prices, ledger, color) : null;
  const viewStart = trendRangeStart(reportDate, range);
  // What the chart is given when it is made, in the same task: a frame drawn empty would cost as much as a full one.
  const latest = useRef({ input, viewStart, lastDay });
  latest.current = { input, viewStart, lastDay };
  const given = useRef<LiveChartData | null>(null);
  const shown = useRef<typeof latest.current | null>(null);
  // On the stock page the chart may have been drawn before the island ran (early.ts): taken over, not made again.
  const [early, setEarly] = useState<'waiting' | 'none' | 'taken'>('waiting');
  useEffect(() => {
    const box = host.current;
    const pending = box ? earlyChart(box) : undefined;
    if (!box || !pending) {
      if (box) claimChart(box);
      setEarly('none');
      return;
    }
    let current = true;
    let taken: LiveChart | null = null;
    void pending.then((made) => {
      if (!current) return;
      if (!made) {
        setEarly('none');
        return;
      }
      taken = made.chart;
      given.current = made.input;
      shown.current = { input: made.input, viewStart: made.viewStart, lastDay: made.lastDay };
      made.onView((from, to) => setSpan({ from, to }));
      setSpan(made.span);
      setPrices((before) => made.prices ?? before);
      if (made.prices) setPricesSettled(true);
      if (made.ledger) setLedger(made.ledger);
      setLiveChart(made.chart);
      setEarly('taken');
    });
    return () => {
      current = false;
      taken?.destroy();
      setLiveChart(null);
    };
    // Once, as the island starts: the box is the build's, and stays.
  }, []);
  useEffect(() => {
    if (!hasChart || !partsIn || early !== 'none' || !host.current) return;
    let made: LiveChart | null = null;
    let current = true;
    void import('./trend/live-chart').then(({ mountLiveChart }) => {
      if (!current || !host.current) return;
      made = mountLiveChart(host.current, { priceHeight: PRICE_PANE_HEIGHT, scoreHeight: height, onView: (from, to) => setSpan({ from, to }) });
      const now = latest.current;
      if (now.input) made.update(now.input);
      given.current = now.input;
      if (now.lastDay) made.showRange(now.viewStart, now.lastDay);
      shown.current = now;
      setLiveChart(made);
    });
    return () => {
      current = false;
      made?.destroy();
      setLiveChart(null);
    };
  }, [hasChart, partsIn, early, height]);
  // A later part (bars of a wider range): given again, skipped when it is what the chart was made with.
  useEffect(() => {
    if (!liveChart || !input || given.current === input) return;
    given.current = input;
    liveChart.update(input);
  }, [liveChart, input]);
  // Again when the bars come: a series that grows on the left moves the view.
  useEffect(() => {
    if (!liveChart || !lastDay) return;
    const was = shown.current;
    if (was && was.input === input && was.viewStart === viewStart && was.lastDay === lastDay) return;
    shown.current = { input, viewStart, lastDay };
    liveChart.showRange(viewStart, lastDay);
  }, [liveChart, input, viewStart, lastDay]);

  const summary = valid ? trendSummary(ticker, valid) : '';
  // A range that shows no more than a shorter one is off, with the reason on screen (same before and after hydration).
  const beyond = useMemo(() => (all ? rangesBeyondHistory(all, reportDate, true) : (built ?? rangesBeyondHistory([], '', true))), [all, reportDate, built]);
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
            disabled={beyond.same[r.id] !== null}
            data-beyond={beyond.same[r.id] ?? undefined}
            aria-describedby={beyond.same[r.id] !== null ? noteId : undefined}
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
        data-state={view.state === 'first-paint' ? 'chart' : view.state}
        data-range={range}
        data-drawn={drawn ? 'true' : 'false'}
        data-color={color}
        data-visible-from={span?.from}
        data-visible-to={span?.to}
      >
        {view.state === 'chart' || view.state === 'first-paint' ? (
          // Contained: the library's size reads and DOM writes lay out this box alone, not the whole page.
          <div className="relative" style={{ height: boxHeight, contain: 'strict' }}>
            {!drawn && children}
            <div
              ref={host}
              className="absolute inset-0 rounded focus-visible:outline-2 focus-visible:outline-offset-2"
              data-testid="trend-live"
              tabIndex={drawn ? 0 : undefined}
              role={drawn ? 'group' : undefined}
              aria-label={drawn ? liveChartLabel(ticker) : undefined}
              aria-describedby={drawn ? `${noteId}-summary` : undefined}
              // The library's DOM (drawn before hydration on the stock page): React leaves the box's content alone.
              dangerouslySetInnerHTML={EMPTY_HTML}
            />
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
