/**
 * The live trend chart on lightweight-charts: price above, C-Score below, on one time scale. Loaded by dynamic
 * import only (TrendChart), so the library is never in a page's JavaScript before the card nears the viewport.
 */
import {
  CandlestickSeries,
  CrosshairMode,
  LineSeries,
  LineStyle,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type Time,
} from 'lightweight-charts';
import { CHART_COLORS, averagesReading, closeOn, dateLabels, dayReading, type ChartMarker, type PriceSeries, type ScoreSeries } from '../../lib/domain/trend/chart-series';
import { TREND_LINE, TREND_REFERENCE_LINES, TREND_Y_DOMAIN, TREND_Y_TICKS } from '../../lib/domain/trend/trend';
import type { SignalDirection } from '../../lib/domain/signals/signal';

/** The averages' lines: a colour and a dash each, thin and translucent, so the score line stays on top to the eye. */
const AVERAGE_STYLE = {
  '7d-avg': { color: 'rgba(2, 132, 199, 0.7)', style: LineStyle.Dotted },
  '14d-avg': { color: 'rgba(124, 58, 237, 0.7)', style: LineStyle.Dashed },
} as const;

/** What the chart shows; the island hands it over again whenever a part arrives. */
export interface LiveChartData {
  score: ScoreSeries;
  price: PriceSeries | null;
  markers: ChartMarker[];
  color: SignalDirection;
  isDemo: boolean;
}

export interface LiveChart {
  update(data: LiveChartData): void;
  /** Shows `from`..`to` (yyyy-mm-dd); null `from`: everything. */
  showRange(from: string | null, to: string): void;
  destroy(): void;
}

/** A library time as yyyy-mm-dd (the data is given as such; a business day or timestamp is turned back). */
export function dayOf(time: Time): string {
  if (typeof time === 'string') return time;
  if (typeof time === 'number') return new Date(time * 1000).toISOString().slice(0, 10);
  return `${time.year}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}

/** The size the library draws a box of `pixels` at: whole and even. */
function evenPixels(pixels: number): number {
  const whole = Math.floor(pixels);
  return whole - (whole % 2);
}

/**
 * Mounts the chart in `host` (an empty box of the SVG's size, positioned): `onView` hears the visible span.
 */
export function mountLiveChart(host: HTMLElement, parts: { priceHeight: number; scoreHeight: number; onView: (from: string, to: string) => void }): LiveChart {
  const dark = document.documentElement.classList.contains('dark');
  // The crosshair's reading over the price pane, and the live region the keyboard's reading goes to (made here, so
  // the page's HTML carries neither).
  const legend = document.createElement('p');
  legend.dataset.testid = 'trend-legend';
  legend.setAttribute('aria-hidden', 'true');
  Object.assign(legend.style, {
    position: 'absolute', top: '0', left: '4px', zIndex: '10', maxWidth: 'calc(100% - 60px)', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap',
    pointerEvents: 'none', fontSize: '11px', fontVariantNumeric: 'tabular-nums', padding: '0 4px', borderRadius: '4px', background: dark ? 'rgba(21, 23, 28, 0.85)' : 'rgba(255, 255, 255, 0.85)',
  });
  const live = document.createElement('p');
  live.className = 'sr-only';
  live.setAttribute('aria-live', 'polite');
  live.dataset.testid = 'trend-announce';
  const text = dark ? '#9ca3af' : '#4b5563';
  // The card's own colour behind the score axis' tick labels, so they read as plain axis labels.
  const card = getComputedStyle(document.documentElement).getPropertyValue(host.closest('.card') ? '--panel' : '--page-bg').trim() || (dark ? '#15171c' : '#ffffff');
  const grid = dark ? 'rgba(75, 85, 99, 0.35)' : 'rgba(209, 213, 219, 0.6)';
  const labels = dateLabels(dayOf);
  const box = host.getBoundingClientRect();
  let drawn = { width: evenPixels(box.width), height: evenPixels(box.height) };
  const chart: IChartApi = createChart(host, {
    width: box.width,
    height: box.height,
    layout: { background: { color: 'transparent' }, textColor: text, fontSize: 11, attributionLogo: false, panes: { separatorColor: grid } },
    grid: { vertLines: { visible: false }, horzLines: { color: grid } },
    crosshair: { mode: CrosshairMode.Magnet },
    rightPriceScale: { borderVisible: false },
    timeScale: {
      borderVisible: false,
      rightOffset: 1,
      fixLeftEdge: true,
      fixRightEdge: true,
      tickMarkFormatter: labels.tickMarkFormatter,
    },
    localization: { locale: 'en-US', timeFormatter: labels.timeFormatter },
  });
  // Both price series exist from the start (empty until the bars come), so the price pane is always the top one.
  const candles = chart.addSeries(CandlestickSeries, { upColor: CHART_COLORS.bullish, downColor: CHART_COLORS.bearish, wickUpColor: CHART_COLORS.bullish, wickDownColor: CHART_COLORS.bearish, borderVisible: false, priceLineVisible: false }, 0);
  const closes = chart.addSeries(LineSeries, { color: text, lineWidth: 1, priceLineVisible: false }, 0);
  candles.priceScale().applyOptions({ scaleMargins: { top: 0.1, bottom: 0.1 }, borderVisible: false, minimumWidth: 44 });
  const scoreLine: ISeriesApi<'Line'> = chart.addSeries(
    LineSeries,
    {
      lineWidth: TREND_LINE.width,
      priceLineVisible: false,
      lastValueVisible: false,
      crosshairMarkerRadius: 4,
      title: 'C-Score',
      // Whole ticks read as the spec's (100, not 100.00); scores keep their two decimals.
      priceFormat: { type: 'custom', minMove: 0.01, formatter: (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2)) },
      autoscaleInfoProvider: () => ({ priceRange: { minValue: TREND_Y_DOMAIN[0], maxValue: TREND_Y_DOMAIN[1] } }),
    },
    1,
  );
  // The spec's axis: the scale's own labels hidden, the five ticks and the reference lines as price lines.
  scoreLine.priceScale().applyOptions({ scaleMargins: { top: 0, bottom: 0 }, textColor: 'transparent', borderVisible: false, minimumWidth: 44 });
  for (const value of TREND_Y_TICKS) {
    const reference = TREND_REFERENCE_LINES.find((r) => r.value === value);
    scoreLine.createPriceLine({
      price: value,
      color: reference ? CHART_COLORS[reference.tone] : 'transparent',
      lineWidth: 1,
      lineStyle: reference?.dashed ? LineStyle.Dashed : LineStyle.Solid,
      lineVisible: reference !== undefined,
      axisLabelVisible: true,
      axisLabelColor: card,
      axisLabelTextColor: text,
      title: '',
    });
  }
  // In the box, after the library's own element: the island renders the box without children, so hydrating it
  // never meets nodes it did not render.
  host.append(legend, live);
  // The price pane's share of the box: its reserved height against the score's (the time axis below both).
  const [pricePane, scorePane] = chart.panes();
  pricePane?.setStretchFactor(parts.priceHeight);
  scorePane?.setStretchFactor(parts.scoreHeight);
  let markerApi: ISeriesMarkersPluginApi<Time> | null = null;
  let averages: ReturnType<ISeriesApi<'Line'>['createPriceLine']>[] = [];
  let current: LiveChartData | null = null;

  const read = (time: string) => {
    if (!current) return '';
    const score = current.score.data.find((d) => d.time === time)?.value;
    return dayReading(time, score, current.score.types.get(time), current.price ? closeOn(current.price, time) : undefined, current.markers);
  };
  // The tooltip adds the averages after the day; the live region reads the day alone.
  const withAverages = (reading: string) => (current && current.score.averages.length > 0 ? `${reading} · ${averagesReading(current.score.averages)}` : reading);
  const onMove = (param: MouseEventParams<Time>) => {
    legend.textContent = param.time === undefined ? '' : withAverages(read(dayOf(param.time)));
  };
  chart.subscribeCrosshairMove(onMove);
  const onRange = () => {
    const range = chart.timeScale().getVisibleRange();
    if (range) parts.onView(dayOf(range.from), dayOf(range.to));
  };
  chart.timeScale().subscribeVisibleTimeRangeChange(onRange);

  // The keyboard's crosshair: arrow keys step a day, Home and End go to the ends; the live region reads the day.
  let index: number | null = null;
  const onKey = (event: KeyboardEvent) => {
    const days = current?.score.data ?? [];
    if (days.length === 0) return;
    const last = days.length - 1;
    const from = index ?? last;
    const next =
      event.key === 'ArrowLeft' ? Math.max(0, from - 1)
      : event.key === 'ArrowRight' ? Math.min(last, index === null ? last : from + 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : event.key === 'Escape' && index !== null ? null
      : undefined;
    // An Escape with no crosshair shown is not ours: the detail dialog closes on it.
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    index = next;
    // The detail dialog leaves an Escape to a chart whose crosshair is shown.
    if (next === null) delete host.dataset.tooltipOpen;
    else host.dataset.tooltipOpen = '';
    if (next === null) {
      chart.clearCrosshairPosition();
      legend.textContent = '';
      return;
    }
    const day = days[next]!;
    chart.setCrosshairPosition(day.value, day.time, scoreLine);
    const reading = read(day.time);
    legend.textContent = withAverages(reading);
    live.textContent = reading;
  };
  const onBlur = () => {
    index = null;
    delete host.dataset.tooltipOpen;
    chart.clearCrosshairPosition();
  };
  host.addEventListener('keydown', onKey);
  host.addEventListener('blur', onBlur);
  // The chart follows its box, redrawn only when the size it draws at changes. The library's own autoSize redraws the
  // whole chart on the observer's first call whenever the box is not an even number of whole pixels wide.
  const resized = new ResizeObserver((entries) => {
    const entry = entries.at(-1);
    if (!entry) return;
    const { width, height } = entry.contentRect;
    if (evenPixels(width) === drawn.width && evenPixels(height) === drawn.height) return;
    drawn = { width: evenPixels(width), height: evenPixels(height) };
    // At once, in the observer's call: the canvas never shows the old size in the new box.
    chart.resize(width, height, true);
  });
  resized.observe(host);

  return {
    update(data) {
      current = data;
      scoreLine.applyOptions({ color: CHART_COLORS[data.color] });
      scoreLine.setData(data.score.data);
      for (const line of averages) scoreLine.removePriceLine(line);
      averages = data.score.averages.map((a) =>
        scoreLine.createPriceLine({ price: a.value, color: AVERAGE_STYLE[a.type].color, lineWidth: 1, lineStyle: AVERAGE_STYLE[a.type].style, axisLabelVisible: true, title: a.title }),
      );
      const title = data.isDemo ? 'Demo prices' : 'Close';
      candles.applyOptions({ title: data.price?.kind === 'candles' ? title : '' });
      closes.applyOptions({ title: data.price?.kind === 'line' ? title : '' });
      candles.setData(data.price?.kind === 'candles' ? data.price.data : []);
      closes.setData(data.price?.kind === 'line' ? data.price.data : []);
      markerApi ??= createSeriesMarkers(scoreLine, []);
      markerApi.setMarkers(data.markers.map(({ time, position, shape, color, text: label }) => ({ time, position, shape, color, text: label })));
      host.dataset.markers = String(data.markers.length);
    },
    showRange(from, to) {
      // The span is the C-Score's: bars a provider sends from before the first report do not widen it.
      const first = current?.score.data[0]?.time;
      const start = from === null || (first !== undefined && from < first) ? first : from;
      if (start === undefined) chart.timeScale().fitContent();
      else chart.timeScale().setVisibleRange({ from: start, to });
    },
    destroy() {
      resized.disconnect();
      host.removeEventListener('keydown', onKey);
      host.removeEventListener('blur', onBlur);
      legend.remove();
      live.remove();
      chart.remove();
    },
  };
}
