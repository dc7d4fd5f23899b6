import { describe, expect, it } from 'vitest';
import { scriptIsland, scriptIslandRun } from '../../src/renderers/script-island';
import renderer from '../../src/renderers/script-island-server';
import hydrate from '../../src/renderers/script-island-client';

describe('script islands', () => {
  const calls: unknown[][] = [];
  const island = scriptIsland<{ ticker: string }>((element, props) => {
    calls.push([element, props]);
  });

  it('the server renderer takes script islands only, and renders them empty', async () => {
    const check = renderer.check.bind({} as never);
    expect(await check(island, {}, {})).toBe(true);
    // A React function component or any other function stays with its own renderer.
    expect(await check(function Card() {
      return null;
    }, {}, {})).toBe(false);
    expect(await check({ $$typeof: Symbol.for('react.memo') }, {}, {})).toBe(false);
    expect(await renderer.renderToStaticMarkup.call({} as never, island, {}, {})).toEqual({ html: '' });
    // Rendering on the server never runs the island's browser code.
    expect(calls).toEqual([]);
  });

  it('hydrating runs the island with its element and props', async () => {
    const element = { getAttribute: () => '/_astro/x.js' } as unknown as HTMLElement;
    await hydrate(element)(island, { ticker: 'AAPL' });
    expect(calls).toEqual([[element, { ticker: 'AAPL' }]]);
    expect(scriptIslandRun(() => null)).toBeNull();
    await expect(hydrate(element)(() => null, {})).rejects.toThrow('<astro-island> /_astro/x.js is not a script island');
  });
});
