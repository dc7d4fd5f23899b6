/**
 * WCAG 2 contrast of colours, and the one rule for text drawn on a coloured fill (a chart's label on its line's
 * colour): of white and black, the one that reads better on it.
 */

/** Text colours a label on a fill may take. */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#000000';

/** The least contrast of normal-size text (WCAG 2 AA). */
export const TEXT_CONTRAST_MIN = 4.5;

/** The relative luminance of a `#rgb` or `#rrggbb` colour. */
export function relativeLuminance(color: string): number {
  const hex = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(color.trim())?.[1];
  if (hex === undefined) throw new Error(`Not a colour: "${color}". Give it as #rgb or #rrggbb.`);
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The text colour for a label on `fill`: white or black, whichever contrasts more. */
export function textColorOn(fill: string): typeof LIGHT_TEXT | typeof DARK_TEXT {
  return contrastRatio(LIGHT_TEXT, fill) >= contrastRatio(DARK_TEXT, fill) ? LIGHT_TEXT : DARK_TEXT;
}
