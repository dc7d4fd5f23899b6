/**
 * Script islands: plain TypeScript behaviour that hydrates like an Astro island (with `client:afterpaint`,
 * `client:visible`, ...) but needs no UI framework in the browser. A script island is a function of its element and
 * props, made with `scriptIsland`; it renders nothing on the server. The renderer is registered in astro.config.mjs
 * (server side ./script-island-server.ts, browser side ./script-island-client.ts).
 */

/** The renderer's name, as astro.config.mjs registers it. */
export const SCRIPT_ISLAND_RENDERER = 'c-score:script-island';

const MARK = Symbol.for('c-score.script-island');

/** What a script island runs in the browser: `element` is its `<astro-island>`. */
export type ScriptIslandRun<P> = (element: HTMLElement, props: P) => void | Promise<void>;

/** A script island as Astro templates use it: a component whose props are `P`. */
export type ScriptIsland<P> = ((props: P) => null) & { [MARK]: ScriptIslandRun<P> };

/** Wraps `run` as a component Astro hands to the script-island renderer. */
export function scriptIsland<P extends Record<string, unknown> = Record<string, unknown>>(run: ScriptIslandRun<P>): ScriptIsland<P> {
  const component = (() => null) as unknown as ScriptIsland<P>;
  component[MARK] = run;
  return component;
}

/** The browser-side function of a script island, or null when `component` is not one. */
export function scriptIslandRun(component: unknown): ScriptIslandRun<Record<string, unknown>> | null {
  if (typeof component !== 'function') return null;
  const run = (component as Partial<ScriptIsland<Record<string, unknown>>>)[MARK];
  return typeof run === 'function' ? run : null;
}
