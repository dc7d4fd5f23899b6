/**
 * The stock page's scripts as a script island (no React), hydrated with client:afterpaint at the end of the page so
 * that nothing downloads or runs before its largest paint: the shell (sidebar, theme, search, toasts) and the page's
 * own behaviour (scripts/detail/page.ts: the back link, the logo fallback, the count-up and the live header).
 */
import { scriptIsland } from '../../renderers/script-island';
import type { ChartHeadStart } from '../trend/warm';

export default scriptIsland<{ chart?: ChartHeadStart }>(async (_element, { chart }) => {
  // The trend chart's library and data start on the first scroll, beside the chart island's own load (which the
  // same scroll starts): a reader heading down the page finds the chart drawn sooner.
  if (chart) addEventListener('scroll', () => void import('../trend/warm').then(({ warmTrendChart }) => warmTrendChart(chart)), { once: true, passive: true });
  // Each runs in a task of its own: run together, their first work is one long task that blocks input (the stock
  // page's Total Blocking Time).
  await import('../shell');
  await new Promise((resolve) => setTimeout(resolve, 0));
  await import('../../scripts/detail/page');
});
