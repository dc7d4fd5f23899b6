/**
 * The stock page's scripts as a script island (no React), hydrated with client:afterpaint at the end of the page so
 * that nothing downloads or runs before its largest paint: the shell (sidebar, theme, search, toasts) and the page's
 * own behaviour (scripts/detail/page.ts: the back link, the logo fallback, the count-up and the live header).
 */
import { scriptIsland } from '../../renderers/script-island';
import type { ChartHeadStart } from '../trend/warm';

/** The trend card's chart, drawn early; its island held from the scroll on, so its start never comes between. */
function startChart(chart: ChartHeadStart & { currentScore: number }): void {
  const card = document.querySelector<HTMLElement>('[data-testid=trend-chart]');
  const island = card?.closest('astro-island');
  island?.setAttribute('data-hold', '');
  import('../trend/early').then(
    ({ startEarlyChart }) => startEarlyChart(card, chart),
    () => island?.removeAttribute('data-hold'),
  );
}

export default scriptIsland<{ chart?: ChartHeadStart & { currentScore: number } }>(async (_element, { chart }) => {
  // The trend chart's library and data load on the first scroll and the library draws the chart in the card's box,
  // without React (early.ts): a reader heading down the page finds it drawn; the card's island takes it over later.
  if (chart) addEventListener('scroll', () => startChart(chart), { once: true, passive: true });
  // Each runs in a task of its own: run together, their first work is one long task that blocks input (the stock
  // page's Total Blocking Time).
  await import('../shell');
  await new Promise((resolve) => setTimeout(resolve, 0));
  await import('../../scripts/detail/page');
});
