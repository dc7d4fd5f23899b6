/**
 * The comparison's chart: each stock's C-Score in the upper pane and its price rebased to 100 in the lower one, on
 * one time scale. The drawing (CompareFirstPaint, an SVG of the same lines) paints first; lightweight-charts loads (a
 * dynamic import) at the reader's first move, or on a device with a mouse once the page is idle after that paint,
 * and takes the same box, so nothing moves. Each line is labelled with its ticker on the price scale and drawn in its own style, so colour is
 * never the only difference.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { LineStyle as LineStyleValue, Time } from 'lightweight-charts';
import type { CompareStyle, DatedValue } from '../../lib/domain/signals/compare';
import { COMPARE_AXES, COMPARE_CHART_HEIGHT as HEIGHT, COMPARE_PRICE_MARGINS, COMPARE_SCORE_MARGIN, COMPARE_SCORE_PANE_SHARE } from '../../lib/domain/signals/compare-chart';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../../lib/domain/signals/signal';
import { TREND_Y_DOMAIN } from '../../lib/domain/trend/trend';
import { formatScore } from '../../lib/domain/text/format';
import { CHART_COLORS, dateLabels } from '../../lib/domain/trend/chart-series';
import CompareFirstPaint from './CompareFirstPaint';

/** One stock's lines. */
export interface ChartLine {
  ticker: string;
  style: CompareStyle;
  scores: DatedValue[];
  /** Closes already rebased to 100. */
  closes: DatedValue[];
}

function summary(lines: readonly ChartLine[]): string {
  if (lines.length === 0) return 'No lines to draw.';
  return lines
    .map((l) => {
      const score = l.scores.at(-1);
      const price = l.closes.at(-1);
      return `${l.ticker}: C-Score ${score ? formatScore(score.value) : 'none'}${price ? `, price ${price.value.toFixed(1)} (100 on the first day)` : ', no prices'}`;
    })
    .join('; ');
}

/** The reader's moves that load the library at once, on the figure and on the page. */
const FIGURE_MOVES = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;
const PAGE_MOVES = ['scroll', 'keydown', 'wheel'] as const;

/** A device with a mouse: the library's work is cheap there, and it loads once the page is idle. */
const IDLE_LOAD_QUERY = '(hover: hover) and (pointer: fine)';

/**
 * True once the library is wanted: at the reader's first move over the figure or the page (a touch, a pointer, a
 * key, a scroll), and on a device with a mouse also when the browser is idle after the drawing has painted (a
 * frame, then an idle period). A phone, where the library's first frame is long work, keeps the drawing until the
 * reader moves.
 */
function useLibraryWanted(ready: boolean, figure: RefObject<HTMLElement | null>): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!ready || wanted) return;
    const want = () => setWanted(true);
    const target = figure.current;
    for (const type of FIGURE_MOVES) target?.addEventListener(type, want, { once: true, passive: true });
    for (const type of PAGE_MOVES) addEventListener(type, want, { once: true, passive: true });
    let idle = 0;
    const frame = matchMedia(IDLE_LOAD_QUERY).matches
      ? requestAnimationFrame(() => {
          idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(want, { timeout: 2000 }) : window.setTimeout(want, 50);
        })
      : 0;
    return () => {
      cancelAnimationFrame(frame);
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else clearTimeout(idle);
      for (const type of FIGURE_MOVES) target?.removeEventListener(type, want);
      for (const type of PAGE_MOVES) removeEventListener(type, want);
    };
  }, [ready, wanted]);
  return wanted;
}

export default function CompareChart({ lines, ready, demo }: { lines: ChartLine[]; ready: boolean; demo: boolean }) {
  const figure = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const firstPaint = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<'idle' | 'drawn' | 'failed'>('idle');
  const wanted = useLibraryWanted(ready, figure);

  useEffect(() => {
    if (!ready || !wanted || !box.current) return;
    let disposed = false;
    let remove: (() => void) | null = null;
    const container = box.current;
    void import('lightweight-charts')
      .then(({ createChart, LineSeries, LineStyle }) => {
        if (disposed) return;
        const text = getComputedStyle(container).color;
        // The data's times are yyyy-mm-dd strings, which the library hands back as given.
        const labels = dateLabels((time: Time) => String(time));
        const chart = createChart(container, {
          height: HEIGHT,
          autoSize: true,
          layout: { background: { color: 'transparent' }, textColor: text, attributionLogo: false, panes: { separatorColor: 'rgba(128,128,128,0.4)' } },
          grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
          timeScale: { borderVisible: false, tickMarkFormatter: labels.tickMarkFormatter },
          // At least the drawing's scale width, so the lines keep their place when the library takes over.
          rightPriceScale: { borderVisible: false, minimumWidth: COMPARE_AXES.scale },
          localization: { locale: 'en-US', timeFormatter: labels.timeFormatter },
        });
        for (const line of lines) {
          const base = { color: line.style.color, lineStyle: line.style.lineStyle as LineStyleValue, lineWidth: 2 as const, title: line.ticker, priceLineVisible: false };
          const score = chart.addSeries(LineSeries, { ...base, autoscaleInfoProvider: () => ({ priceRange: { minValue: TREND_Y_DOMAIN[0], maxValue: TREND_Y_DOMAIN[1] } }) }, 0);
          score.setData(line.scores.map((p) => ({ time: p.date, value: p.value })));
          // The fixed -110..110 range fills the pane, as in the drawing.
          score.priceScale().applyOptions({ scaleMargins: { top: COMPARE_SCORE_MARGIN, bottom: COMPARE_SCORE_MARGIN } });
          if (line === lines[0]) {
            score.createPriceLine({ price: 0, color: 'rgba(128,128,128,0.8)', lineWidth: 1, lineStyle: LineStyle.Solid, axisLabelVisible: false, title: '' });
            score.createPriceLine({ price: BULLISH_THRESHOLD, color: CHART_COLORS.bullish, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
            score.createPriceLine({ price: BEARISH_THRESHOLD, color: CHART_COLORS.bearish, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
          }
          const price = chart.addSeries(LineSeries, base, 1);
          price.setData(line.closes.map((p) => ({ time: p.date, value: p.value })));
          price.priceScale().applyOptions({ scaleMargins: COMPARE_PRICE_MARGINS });
        }
        chart.panes()[0]?.setStretchFactor(COMPARE_SCORE_PANE_SHARE);
        chart.panes()[1]?.setStretchFactor(1 - COMPARE_SCORE_PANE_SHARE);
        chart.timeScale().fitContent();
        // The library's canvases are transparent: the drawing under them goes in the same task.
        firstPaint.current?.setAttribute('hidden', '');
        remove = () => chart.remove();
        setDrawn('drawn');
      })
      .catch(() => {
        if (!disposed) setDrawn('failed');
      });
    return () => {
      disposed = true;
      remove?.();
      firstPaint.current?.removeAttribute('hidden');
      setDrawn('idle');
    };
  }, [lines.map((l) => `${l.ticker}:${l.scores.length}:${l.closes.length}`).join('|'), ready, wanted]);

  return (
    <figure className="cmp-figure" ref={figure}>
      <div className="cmp-panes-labels text-xs muted" aria-hidden="true">
        <span>C-Score (−110 to 110; dashed at +{BULLISH_THRESHOLD} and {BEARISH_THRESHOLD})</span>
      </div>
      <div
        className="cmp-chart"
        style={{ height: HEIGHT }}
        role="img"
        aria-label={`Chart of C-Score and price rebased to 100. ${summary(lines)}`}
        data-testid="compare-chart"
        data-state={drawn === 'drawn' ? 'drawn' : ready ? (drawn === 'failed' ? 'failed' : 'painted') : 'loading'}
        data-lines={lines.length}
      >
        {!ready && <p className="muted p-4">Loading the comparison...</p>}
        {ready && drawn !== 'drawn' && <CompareFirstPaint ref={firstPaint} lines={lines} />}
        {/* The library's own markup (a layout table of canvases) is hidden: the label above and the table below speak for it. */}
        <div ref={box} className="cmp-live" aria-hidden="true" />
      </div>
      <figcaption className="text-xs muted mt-1">{demo && <span className="badge badge-neutral">Demo prices</span>} Upper pane: each stock's C-Score. Lower pane: its daily close, rebased to 100 on the first day shown. {drawn === 'failed' && 'The chart could not be drawn; the table below has every figure.'}</figcaption>
    </figure>
  );
}
