/**
 * The comparison's chart: each stock's C-Score in the upper pane and its price rebased to 100 in the lower one, on
 * one time scale. The drawing (CompareFirstPaint, an SVG of the same lines) paints first; lightweight-charts (a
 * dynamic import of ./compare-live) loads at the reader's first move, or on a device with a mouse once the page is
 * idle after that paint, and takes the same box, so nothing moves. Each line is labelled with its ticker on the price
 * scale and drawn in its own style, so colour is never the only difference.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { COMPARE_CHART_HEIGHT as HEIGHT, type CompareChartLine } from '../../lib/domain/signals/compare-chart';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../../lib/domain/signals/signal';
import { formatScore } from '../../lib/domain/text/format';
import CompareFirstPaint from './CompareFirstPaint';

/** One stock's lines (its closes already rebased to 100). */
export type ChartLine = CompareChartLine;

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
    void import('./compare-live')
      .then(({ drawCompareChart }) => {
        if (disposed) return;
        remove = drawCompareChart(container, lines);
        // The library's canvases are transparent: the drawing under them goes in the same task.
        firstPaint.current?.setAttribute('hidden', '');
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
