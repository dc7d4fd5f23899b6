import { describe, expect, it } from 'vitest';
import { HEATMAP_TEXT, heatmapColor, heatmapScaleGradient, heatmapTextColor } from '../../src/lib/domain/signals/heatmap';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
/** WCAG contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

const LIGHT_PAGE = '#ffffff';
const scores = Array.from({ length: 201 }, (_, i) => i - 100);

describe('the heatmap in the light theme', () => {
  it('tells a qualified tile from an almost-qualified one: 76 against 55, and -76 against -55, at 3:1 or more', () => {
    expect(contrast(heatmapColor(76), heatmapColor(55))).toBeGreaterThanOrEqual(3);
    expect(contrast(heatmapColor(-76), heatmapColor(-55))).toBeGreaterThanOrEqual(3);
  });
  it('sets every qualified tile 3:1 or more apart from every tile below the threshold of its direction', () => {
    for (const sign of [1, -1]) {
      for (let q = 65; q <= 100; q += 1) for (let n = 0; n < 65; n += 1) expect(contrast(heatmapColor(sign * q), heatmapColor(sign * n))).toBeGreaterThanOrEqual(3);
    }
  });
  it('draws a qualified tile at 3:1 or more against the light page, so the scale reads without the outline', () => {
    for (const s of scores.filter((x) => Math.abs(x) >= 65)) expect(contrast(heatmapColor(s), LIGHT_PAGE)).toBeGreaterThanOrEqual(3);
  });
  it("keeps the qualified ring's white 3:1 or more against every qualified tile", () => {
    for (const s of scores.filter((x) => Math.abs(x) >= 65)) expect(contrast('#ffffff', heatmapColor(s))).toBeGreaterThanOrEqual(3);
  });
  it('keeps every tile\'s score text at 4.5:1 or more', () => {
    for (const s of [...scores, 64.99, -64.99, null]) expect(contrast(heatmapTextColor(s), heatmapColor(s))).toBeGreaterThanOrEqual(4.5);
    expect(heatmapTextColor(65)).toBe(HEATMAP_TEXT.qualified);
    expect(heatmapTextColor(64.99)).toBe(HEATMAP_TEXT.other);
  });
  it("steps the legend's scale at the thresholds, with the tiles' own colours", () => {
    const scale = heatmapScaleGradient();
    expect(scale).toContain(`${heatmapColor(65)} 82.5%`);
    expect(scale).toContain(`${heatmapColor(-65)} 17.5%`);
    expect(scale).toContain(`${heatmapColor(0)} 50%`);
  });
});
