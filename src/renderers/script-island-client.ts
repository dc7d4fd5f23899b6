/** Browser side of the script-island renderer (./script-island.ts): hydrating runs the island's function. */
import { scriptIslandRun } from './script-island';

export default (element: HTMLElement) =>
  async (component: unknown, props: Record<string, unknown>): Promise<void> => {
    const run = scriptIslandRun(component);
    if (!run) throw new Error(`<astro-island> ${element.getAttribute('component-url') ?? ''} is not a script island`);
    await run(element, props);
  };
