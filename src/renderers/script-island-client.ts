/**
 * Browser side of the script-island renderer (./script-island.ts): hydrating runs the island's function, inside the
 * same error boundary as the React islands: a failure shows the spec's render-failure message in its place.
 */
import { islandFault, RENDER_FAILURE } from '../lib/domain/site/render-failure';
import { scriptIslandRun } from './script-island';

/** The island's name from its module address (`/_astro/DetailModal.B1x2.js` is DetailModal). */
function islandName(element: HTMLElement): string {
  return (element.getAttribute('component-url') ?? '').split('/').pop()!.split('.')[0] ?? '';
}

function showFailure(element: HTMLElement, error: unknown): void {
  console.error('Render failure:', error);
  const box = document.createElement('div');
  box.className = 'app-error';
  box.setAttribute('role', 'alert');
  box.dataset.testid = 'render-failure';
  const text = document.createElement('p');
  text.textContent = RENDER_FAILURE;
  const message = document.createElement('p');
  message.className = 'app-error-message';
  message.textContent = error instanceof Error ? error.message : String(error);
  box.append(text, message);
  element.replaceChildren(box);
}

export default (element: HTMLElement) =>
  async (component: unknown, props: Record<string, unknown>): Promise<void> => {
    const run = scriptIslandRun(component);
    if (!run) throw new Error(`<astro-island> ${element.getAttribute('component-url') ?? ''} is not a script island`);
    try {
      const fault = islandFault(islandName(element));
      if (fault) throw fault;
      await run(element, props);
    } catch (error) {
      showFailure(element, error);
    }
  };
