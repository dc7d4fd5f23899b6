/**
 * The heatmap of DESIGN.md "Lists": every ticker of the latest report as a tile, grouped by sector then
 * sub-industry, coloured from red (-100) through grey (0) to green (+100) with a step at the thresholds, sized by
 * market cap where known.
 */
import type { SignalRecord } from '../report/schemas';
import { isQualified } from './signal';
import { BULLISH_THRESHOLD } from './threshold';

/** A tile: one ticker. `size` is 1 for an unknown market cap, else 1 to 3 by the cap's square root. */
export interface HeatmapTile {
  ticker: string;
  company: string;
  cScore: number;
  isTopTicker: boolean;
  size: number;
}

/** Tiles of one sub-industry. */
export interface HeatmapGroup {
  subIndustry: string;
  tiles: HeatmapTile[];
}

/** Sub-industries of one sector. */
export interface HeatmapSector {
  sector: string;
  count: number;
  groups: HeatmapGroup[];
}

/** Label for tickers the universe file does not place in a sector or sub-industry. */
export const UNCLASSIFIED = 'Unclassified';

/**
 * The tile colours: a light tint for a stock below the threshold (dark text), a deep colour for a qualified one
 * (white text), so a qualified tile never looks like an almost-qualified one (76 against 55); within each band the
 * colour deepens with the score. Each stop is [score, red, green, blue].
 */
const NEUTRAL = [229, 231, 235] as const;
const BANDS = {
  bullish: { light: [134, 239, 172], qualified: [21, 128, 61], strongest: [20, 83, 45] },
  bearish: { light: [252, 165, 165], qualified: [185, 28, 28], strongest: [127, 29, 29] },
} as const;

/** The text colours on a tile: white on a qualified tile, near-black on the light tints. */
export const HEATMAP_TEXT = { qualified: '#ffffff', other: '#111827' } as const;

function hex(channels: readonly number[]): string {
  return `#${channels.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function mix(from: readonly number[], to: readonly number[], f: number): number[] {
  return from.map((c, i) => c + (to[i]! - c) * f);
}

/**
 * Tile colour of a C-Score: grey-white at 0 deepening to a light green (red) just below the threshold, then a deep
 * green (red) from the threshold to +100 (-100); clamped; missing is the neutral tint.
 */
export function heatmapColor(score: number | null | undefined): string {
  if (typeof score !== 'number' || !Number.isFinite(score)) return hex(NEUTRAL);
  const clamped = Math.max(-100, Math.min(100, score));
  const band = BANDS[clamped < 0 ? 'bearish' : 'bullish'];
  const size = Math.abs(clamped);
  if (!isQualified(clamped)) return hex(mix(NEUTRAL, band.light, size / BULLISH_THRESHOLD));
  return hex(mix(band.qualified, band.strongest, (size - BULLISH_THRESHOLD) / (100 - BULLISH_THRESHOLD)));
}

/** The text colour on a score's tile (the stylesheet's .tile and .tile.q hold the same two). */
export function heatmapTextColor(score: number | null | undefined): string {
  return typeof score === 'number' && isQualified(score) ? HEATMAP_TEXT.qualified : HEATMAP_TEXT.other;
}

/** The legend's stops, left (-100) to right (+100), as a CSS gradient with the steps at the thresholds. */
export function heatmapScaleGradient(): string {
  const at = (score: number) => `${((score + 100) / 2).toFixed(2).replace(/\.?0+$/, '')}%`;
  const t = BULLISH_THRESHOLD;
  return `linear-gradient(90deg, ${hex(BANDS.bearish.strongest)}, ${hex(BANDS.bearish.qualified)} ${at(-t)}, ${hex(BANDS.bearish.light)} ${at(-t)}, ${hex(NEUTRAL)} 50%, ${hex(BANDS.bullish.light)} ${at(t)}, ${hex(BANDS.bullish.qualified)} ${at(t)}, ${hex(BANDS.bullish.strongest)})`;
}

/** Tile size from market cap: 1 when unknown, else 1 + 2 x sqrt(cap / largest cap), rounded to a tenth. */
export function tileSize(marketCap: number | null | undefined, largestCap: number): number {
  if (typeof marketCap !== 'number' || !(marketCap > 0) || !(largestCap > 0)) return 1;
  return Math.round((1 + 2 * Math.sqrt(Math.min(1, marketCap / largestCap))) * 10) / 10;
}

/**
 * Groups the records into sectors and sub-industries, both by name (Unclassified last), tiles by C-Score
 * descending then ticker. `marketCaps` maps a ticker to its market cap where known.
 */
export function heatmapLayout(records: readonly SignalRecord[], marketCaps: Readonly<Record<string, number | undefined>> = {}): HeatmapSector[] {
  // A fold, not Math.max(...all): spreading 200,000 records into one call overflows the stack.
  const largest = records.reduce((max, r) => Math.max(max, marketCaps[r.ticker] ?? 0), 0);
  const sectors = new Map<string, Map<string, HeatmapTile[]>>();
  for (const r of records) {
    const sector = r.sector || UNCLASSIFIED;
    const sub = r.subIndustry || UNCLASSIFIED;
    const groups = sectors.get(sector) ?? new Map<string, HeatmapTile[]>();
    sectors.set(sector, groups);
    const tiles = groups.get(sub) ?? [];
    groups.set(sub, tiles);
    tiles.push({ ticker: r.ticker, company: r.companyName, cScore: r.cScore, isTopTicker: r.isTopTicker, size: tileSize(marketCaps[r.ticker], largest) });
  }
  const byName = (a: string, b: string) => (a === UNCLASSIFIED ? 1 : b === UNCLASSIFIED ? -1 : a.localeCompare(b, 'en-US'));
  return [...sectors.keys()].sort(byName).map((sector) => {
    const groups = sectors.get(sector)!;
    const list = [...groups.keys()].sort(byName).map((subIndustry) => ({
      subIndustry,
      tiles: groups.get(subIndustry)!.sort((a, b) => b.cScore - a.cScore || (a.ticker < b.ticker ? -1 : 1)),
    }));
    return { sector, count: list.reduce((n, g) => n + g.tiles.length, 0), groups: list };
  });
}
