/**
 * The comparison's chart: each stock's C-Score in the upper pane and its price rebased to 100 in the lower one, on
 * one time scale. The drawing (./first-paint, an SVG of the same lines) paints first; lightweight-charts (a dynamic
 * import of ./live) loads at the reader's first move, or on a device with a mouse once the page is idle after that
 * paint, and takes the same box, so nothing moves. Each line is labelled with its ticker on the price scale and drawn
 * in its own style, so colour is never the only difference.
 */
import { type CompareChartLine } from '../../lib/domain/signals/compare-chart';
import { formatScore } from '../../lib/domain/text/format';
import { element } from '../dom';
import { compareFirstPaint } from './first-paint';

function summary(lines: readonly CompareChartLine[]): string {
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
 * Calls `want` once the library is wanted: at the reader's first move over the figure or the page (a touch, a pointer,
 * a key, a scroll), and on a device with a mouse also when the browser is idle after the drawing has painted (a
 * frame, then an idle period). A phone, where the library's first frame is long work, keeps the drawing until the
 * reader moves.
 */
function whenLibraryWanted(figure: HTMLElement, want: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    for (const type of FIGURE_MOVES) figure.removeEventListener(type, once);
    for (const type of PAGE_MOVES) removeEventListener(type, once);
    want();
  };
  for (const type of FIGURE_MOVES) figure.addEventListener(type, once, { once: true, passive: true });
  for (const type of PAGE_MOVES) addEventListener(type, once, { once: true, passive: true });
  if (matchMedia(IDLE_LOAD_QUERY).matches) {
    requestAnimationFrame(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback(once, { timeout: 2000 }) : setTimeout(once, 50)));
  }
}

/** The chart's figure, and how the view gives it its lines. */
export interface CompareChart {
  figure: HTMLElement;
  /** Draws `lines`; `ready` once every stock has settled (until then the box says it is loading). */
  update(lines: CompareChartLine[], ready: boolean, demo: boolean): void;
}

/** Brings the page's chart figure (its build markup, compare.astro) to life; nothing is drawn until `update`. */
export function createCompareChart(figure: HTMLElement): CompareChart {
  const chart = figure.querySelector<HTMLElement>('[data-testid="compare-chart"]')!;
  const loading = chart.querySelector<HTMLElement>('[data-part="chart-loading"]')!;
  const box = chart.querySelector<HTMLElement>('.cmp-live')!;
  const caption = figure.querySelector('figcaption')!;

  let lines: CompareChartLine[] = [];
  let drawnKey: string | null = null;
  let failed = false;
  let wanted = false;
  let listening = false;
  let drawing: HTMLElement | null = null;
  let remove: (() => void) | null = null;
  let ready = false;
  let demo = false;
  const renderCaption = () =>
    caption.replaceChildren(
      ...(demo ? [element('span', 'Demo prices', { class: 'badge badge-neutral' })] : []),
      ` Upper pane: each stock's C-Score. Lower pane: its daily close, rebased to 100 on the first day shown. ${failed ? 'The chart could not be drawn; the table below has every figure.' : ''}`,
    );
  const keyOf = (of: readonly CompareChartLine[]) => of.map((l) => `${l.ticker}:${l.scores.length}:${l.closes.length}`).join('|');

  const state = () => chart.setAttribute('data-state', drawnKey !== null ? 'drawn' : !ready ? 'loading' : failed ? 'failed' : 'painted');

  const drawLive = () => {
    const key = keyOf(lines);
    if (!ready || !wanted || key === drawnKey) return;
    const drawn = lines;
    import('./live')
      .then(({ drawCompareChart }) => {
        // A newer set of lines came while the library loaded: it draws those.
        if (drawn !== lines) return;
        remove?.();
        remove = drawCompareChart(box, drawn);
        drawnKey = key;
        // The library's canvases are transparent: the drawing under them goes in the same task.
        drawing?.remove();
        drawing = null;
        state();
      })
      .catch(() => {
        if (drawn !== lines) return;
        failed = true;
        state();
        renderCaption();
      });
  };

  return {
    figure,
    update(next, nowReady, nowDemo) {
      const changed = keyOf(next) !== keyOf(lines) || nowReady !== ready;
      lines = next;
      ready = nowReady;
      chart.setAttribute('aria-label', `Chart of C-Score and price rebased to 100. ${summary(lines)}`);
      chart.setAttribute('data-lines', String(lines.length));
      demo = nowDemo;
      renderCaption();
      if (ready) loading.remove();
      if (!changed) return;
      if (ready && drawnKey === null) {
        // The drawing until the library has drawn these lines.
        const fresh = compareFirstPaint(lines);
        if (drawing) drawing.replaceWith(fresh);
        else chart.insertBefore(fresh, box);
        drawing = fresh;
      }
      if (ready && !listening) {
        listening = true;
        whenLibraryWanted(figure, () => {
          wanted = true;
          drawLive();
        });
      }
      state();
      drawLive();
    },
  };
}
