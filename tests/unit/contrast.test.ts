/** The text colour on a coloured label (lib/domain/site/contrast): WCAG 2 ratios, and every comparison colour readable. */
import { describe, expect, it } from 'vitest';
import { COMPARE_STYLES } from '../../src/lib/domain/signals/compare';
import { DARK_TEXT, LIGHT_TEXT, TEXT_CONTRAST_MIN, contrastRatio, textColorOn } from '../../src/lib/domain/site/contrast';

describe('contrast', () => {
  it('gives the WCAG 2 ratios: 21 for black on white, 1 for a colour on itself, the same either way round', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#d97706', '#ffffff')).toBeCloseTo(3.19, 2);
    expect(contrastRatio('#ffffff', '#d97706')).toBe(contrastRatio('#d97706', '#ffffff'));
  });

  it('puts black on amber and teal (white there is under 4.5:1), white on blue, purple and pink', () => {
    expect(COMPARE_STYLES.map((s) => [s.color, textColorOn(s.color)])).toEqual([
      ['#2563eb', LIGHT_TEXT],
      ['#d97706', DARK_TEXT],
      ['#9333ea', LIGHT_TEXT],
      ['#0d9488', DARK_TEXT],
      ['#db2777', LIGHT_TEXT],
    ]);
  });

  it('makes every comparison line label readable: at least 4.5:1', () => {
    for (const { color } of COMPARE_STYLES) expect(contrastRatio(textColorOn(color), color), color).toBeGreaterThanOrEqual(TEXT_CONTRAST_MIN);
  });

  it('refuses what is not a hex colour, saying how to give it', () => {
    expect(() => textColorOn('rgb(1, 2, 3)')).toThrow('Not a colour: "rgb(1, 2, 3)". Give it as #rgb or #rrggbb.');
  });
});
