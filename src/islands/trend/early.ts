/**
 * The stock page's trend chart drawn without React: on the reader's first scroll the page's scripts (PageScripts)
 * load the library, the trend, the events and the first bars, and mount the live chart in the card's box before the
 * card is in view. The card's island (TrendChart) holds its own start until then (after-paint's `data-hold`), and
 * once it runs takes the drawn chart over instead of making a second one.
 */
import { fetchBarsSpan, fetchLedger } from '../../lib/client/chart-data';
import { isLoading, trendStore } from '../../lib/client/query';
import type { LedgerEntry } from '../../lib/domain/trend/chart-series';
import { DEFAULT_TREND_RANGE, TREND_CHART_HEIGHTS, trendColor, trendRangeStart } from '../../lib/domain/trend/trend';
import { PRICE_PANE_HEIGHT } from '../../lib/domain/trend/trend-chart';
import { PARTS_WAIT_MS, liveChartInput, liveChartLabel, trendSeries, trendView, type Prices } from './chart-input';
import type { LiveChart, LiveChartData } from './live-chart';
import { warmTrendChart, type ChartHeadStart } from './warm';

/** A chart drawn early: the chart, what it was given, and the span it shows (the island listens from then on). */
export interface EarlyChart {
  chart: LiveChart;
  input: LiveChartData;
  prices: Prices;
  ledger: LedgerEntry[] | null;
  viewStart: string | null;
  lastDay: string;
  span: { from: string; to: string } | null;
  /** Hands the visible span's changes to `listener` from now on. */
  onView(listener: (from: string, to: string) => void): void;
}

/** The early starts under way or done, by the chart's box; and the boxes whose island made its own chart first. */
const started = new WeakMap<HTMLElement, Promise<EarlyChart | null>>();
const claimed = new WeakSet<HTMLElement>();

/** The early chart of `host`: its promise (null when it drew nothing), or undefined when none started. */
export function earlyChart(host: HTMLElement): Promise<EarlyChart | null> | undefined {
  return started.get(host);
}

/** The island makes the chart of `host` itself: an early start after this draws nothing. */
export function claimChart(host: HTMLElement): void {
  claimed.add(host);
}

/** The trend's first answer or failure. */
function trendAnswer(ticker: string): Promise<{ data?: unknown; error?: unknown }> {
  const store = trendStore(ticker);
  return new Promise((resolve) => {
    let stop = () => undefined as void;
    stop = store.listen((value) => {
      if (isLoading(value)) return;
      stop();
      resolve(value);
    });
    const now = store.get();
    if (!isLoading(now)) {
      stop();
      resolve(now);
    }
  });
}

/** A frame painted: the library draws in the frame after it is given its data. */
const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * Starts the trend card's chart of `ticker` in `card` (its data-testid=trend-chart element) and draws it as soon as
 * its parts are in; nothing when the island got there first, or the trend fails or is empty (the island then shows
 * the spec's state). The card's island, held (`data-hold`) by the caller, is let go once the chart is on screen.
 */
export function startEarlyChart(card: HTMLElement | null, head: ChartHeadStart & { currentScore: number }): void {
  const host = card?.querySelector<HTMLElement>('[data-testid=trend-live]');
  const island = card?.closest('astro-island');
  if (!card || !host || started.has(host) || claimed.has(host)) {
    warmTrendChart(head);
    island?.removeAttribute('data-hold');
    return;
  }
  const run = async (): Promise<EarlyChart | null> => {
    warmTrendChart(head);
    const { ticker, firstBars } = head;
    const bars = firstBars ? fetchBarsSpan(ticker, firstBars.from, firstBars.to).catch(() => null) : Promise.resolve(null);
    const ledger = fetchLedger(ticker);
    const library = import('./live-chart');
    const trend = await trendAnswer(ticker);
    const view = trend.data ? trendView(ticker, trend.data) : null;
    if (!view || view.state !== 'chart') return null;
    // The same wait as the island's: the first drawing has the bars and the events, or a slow provider's are left out.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const parts = await Promise.race([Promise.all([bars, ledger]), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PARTS_WAIT_MS)))]);
    clearTimeout(timer);
    const prices: Prices = parts?.[0] ?? null;
    const rows = parts?.[1] ?? null;
    const { mountLiveChart } = await library;
    if (claimed.has(host) || !host.isConnected) return null;
    const { scores } = trendSeries(view.valid);
    const lastDay = scores.data.at(-1)?.time;
    if (!lastDay) return null;
    let listener: ((from: string, to: string) => void) | null = null;
    const made: EarlyChart = {
      chart: mountLiveChart(host, {
        priceHeight: PRICE_PANE_HEIGHT,
        scoreHeight: TREND_CHART_HEIGHTS.card,
        onView: (from, to) => {
          made.span = { from, to };
          listener?.(from, to);
        },
      }),
      input: liveChartInput(scores, prices, rows, trendColor(head.currentScore)),
      prices,
      ledger: rows,
      viewStart: trendRangeStart(view.reportDate, DEFAULT_TREND_RANGE),
      lastDay,
      span: null,
      onView(next) {
        listener = next;
      },
    };
    made.chart.update(made.input);
    made.chart.showRange(made.viewStart, lastDay);
    // The card as the island shows a drawn chart: the build's drawing hidden under the library's, the box focusable.
    for (const slot of card.querySelectorAll<HTMLElement>('astro-slot')) slot.style.visibility = 'hidden';
    host.tabIndex = 0;
    host.setAttribute('role', 'group');
    host.setAttribute('aria-label', liveChartLabel(ticker));
    card.dataset.drawn = 'true';
    return made;
  };
  const done = run().catch((error: unknown) => {
    console.warn(`The trend chart of ${head.ticker} could not start early: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  started.set(host, done);
  // The island starts once the chart is on screen, so its own start never delays the drawing.
  void done.then(painted).finally(() => island?.removeAttribute('data-hold'));
}
