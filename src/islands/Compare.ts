/** /compare's view as a script island: plain DOM over the page's markup (../scripts/compare/view), no React at load. */
import { scriptIsland } from '../renderers/script-island';
import { mountCompare } from '../scripts/compare/view';

export default scriptIsland<{ reportDate: string }>((element, { reportDate }) => {
  mountCompare(element.querySelector<HTMLElement>('[data-testid="compare"]')!, { reportDate });
});
