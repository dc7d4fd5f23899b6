import { describe, expect, it } from 'vitest';
import { findBrokenText } from '../../src/ingest/smoke';

describe('findBrokenText', () => {
  it.each<[string, string, boolean]>([
    ['a clean page', '<html><body><p>C-Score 72.50</p></body></html>', false],
    ['NaN in text', '<p>C-Score NaN</p>', true],
    ['undefined in text', '<p>vs undefined yesterday</p>', true],
    ['undefined in an attribute', '<a href="/signal/undefined">x</a>', true],
    ['[object Object] in text', '<td>[object Object]</td>', true],
    ['undefined inside a script is code, not text', '<script>if (x === undefined) y();</script><p>ok</p>', false],
    ['NaN inside a style block', '<style>.a{--x:NaN}</style><p>ok</p>', false],
    ['a word that merely contains NaN', '<p>Financial NaNotech Inc.</p>', false],
  ])('%s', (_name, html, broken) => {
    expect(findBrokenText(html) !== null).toBe(broken);
  });
});
