/**
 * /compare's view and the shell as a script island (no React), hydrated with client:afterpaint so that nothing
 * downloads or runs before the page's largest paint (its lead paragraph): the comparison (plain DOM over the page's
 * markup, ../scripts/compare/view) starts its requests first, then the shell loads in a task of its own.
 */
import { scriptIsland } from '../renderers/script-island';
import { mountCompare } from '../scripts/compare/view';

export default scriptIsland<{ reportDate: string }>(async (element, { reportDate }) => {
  mountCompare(element.querySelector<HTMLElement>('[data-testid="compare"]')!, { reportDate });
  await new Promise((resolve) => setTimeout(resolve, 0));
  await import('./shell');
});
