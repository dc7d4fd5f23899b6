/**
 * Server side of the script-island renderer (./script-island.ts): it takes only script islands. An island renders its
 * children (the markup its script brings to life) in a slot Astro recognises, so they are not sent twice; else nothing.
 */
import type { SSRLoadedRendererValue } from 'astro';
import { SCRIPT_ISLAND_RENDERER, scriptIslandRun } from './script-island';

const renderer: SSRLoadedRendererValue = {
  name: SCRIPT_ISLAND_RENDERER,
  check: async (component) => scriptIslandRun(component) !== null,
  renderToStaticMarkup: async (_component, _props, slots: Record<string, string> = {}) => ({ html: slots.default ? `<astro-slot>${slots.default}</astro-slot>` : '' }),
};

export default renderer;
