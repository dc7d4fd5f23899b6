/** Server side of the script-island renderer (./script-island.ts): it takes only script islands, and renders them empty. */
import type { SSRLoadedRendererValue } from 'astro';
import { SCRIPT_ISLAND_RENDERER, scriptIslandRun } from './script-island';

const renderer: SSRLoadedRendererValue = {
  name: SCRIPT_ISLAND_RENDERER,
  check: async (component) => scriptIslandRun(component) !== null,
  renderToStaticMarkup: async () => ({ html: '' }),
};

export default renderer;
