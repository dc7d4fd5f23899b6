/** The daily job gives its parse stage's peak heap back before `astro build` starts beside it. */
import { describe, expect, it } from 'vitest';
import { releaseMemory } from '../../src/ingest/memory';

describe('releaseMemory', () => {
  it('returns the pages of a heap that has shrunk: the committed heap falls back near what is live', () => {
    let garbage: number[][] | null = Array.from({ length: 200 }, () => Array.from({ length: 100_000 }, (_, i) => i + 0.5));
    const grown = process.memoryUsage().heapTotal;
    expect(garbage.length).toBe(200);
    garbage = null;
    releaseMemory();
    const after = process.memoryUsage();
    // 200 lists of 100,000 doubles are 160 MB: all of it goes back, not just out of use.
    expect(grown - after.heapTotal).toBeGreaterThan(120 * 2 ** 20);
    expect(after.heapTotal - after.heapUsed).toBeLessThan(40 * 2 ** 20);
  });

  it('can run again: the collector is looked up once', () => {
    releaseMemory();
    expect(() => releaseMemory()).not.toThrow();
  });
});
