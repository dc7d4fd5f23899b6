/**
 * The heatmap of DESIGN.md "Lists": every ticker of the latest report as a tile, grouped by sector then
 * sub-industry, coloured from red (-100) through grey (0) to green (+100), sized by market cap where known.
 */
import type { SignalRecord } from '../report/schemas';

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

// Dark enough that white score text keeps a 4.5:1 contrast on every tile colour.
const RED = [185, 28, 28] as const;
const GREY = [75, 85, 99] as const;
const GREEN = [21, 128, 61] as const;

function hex(channels: readonly number[]): string {
  return `#${channels.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Tile colour of a C-Score: red at -100, grey at 0, green at +100, linear in between; clamped; missing is grey. */
export function heatmapColor(score: number | null | undefined): string {
  if (typeof score !== 'number' || !Number.isFinite(score)) return hex(GREY);
  const t = Math.max(-100, Math.min(100, score)) / 100;
  const end = t < 0 ? RED : GREEN;
  const f = Math.abs(t);
  return hex(GREY.map((g, i) => g + (end[i]! - g) * f));
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
