/**
 * The hubs between the lists and the stock pages: one per GICS sector (/sector/{slug}) and sub-industry
 * (/industry/{slug}) of the report, the day's qualified stocks first, with the distribution of their scores. A locked
 * ticker (PAYWALL=on) stays in its hub as "Top signal" but adds nothing to a figure, which would hint its direction.
 */
import type { SignalRecord } from '../report/schemas';
import { isQualified, signalDirection, type SignalDirection } from './signal';

export type HubKind = 'sector' | 'industry';

/** One hub: its address, its name, its stocks (qualified first, strongest first; then the rest by score). */
export interface Hub {
  kind: HubKind;
  slug: string;
  name: string;
  /** The sector an industry hub belongs to (its breadcrumb's middle step); the sector itself for a sector hub. */
  sector: string;
  records: SignalRecord[];
  /** How many of `records` are locked: shown as top signals, counted in no figure. */
  locked: number;
  /** Counts by signal over the unlocked stocks. */
  signals: Record<SignalDirection, number>;
  /** Unlocked stocks per 20-point band of the C-Score, from [-100, -80) up to [80, 100]. */
  bands: number[];
}

/** Past this many stocks a hub's heatmap slice draws only the qualified ones, so the page stays small. */
export const HUB_HEATMAP_LIMIT = 150;

/** How many bands the distribution has (20 points each over -100..100). */
export const HUB_BANDS = 10;

/** A name's address segment: lower case, "&" as "and", every other run of non-alphanumerics one dash. */
export function hubSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A hub's address. */
export function hubHref(hub: Pick<Hub, 'kind' | 'slug'>): string {
  return `/${hub.kind}/${hub.slug}`;
}

/** The words of a link to a sector's hub. */
export function sectorHubText(sector: string): string {
  return `All ${sector} stocks`;
}

/** The address of the hub of a sector or sub-industry by its name (every hub's slug is its name's: buildHubs). */
export function hubAddress(kind: HubKind, name: string): string {
  return hubHref({ kind, slug: hubSlug(name) });
}

/** The band of a score: 0 for [-100, -80), 9 for [80, 100]. */
export function scoreBand(score: number): number {
  return Math.min(HUB_BANDS - 1, Math.max(0, Math.floor((score + 100) / (200 / HUB_BANDS))));
}

/** Qualified first, strongest conviction first; then the others from the highest score down; ticker breaks ties. */
function hubOrder(a: SignalRecord, b: SignalRecord): number {
  const qa = isQualified(a.cScore) ? 1 : 0;
  const qb = isQualified(b.cScore) ? 1 : 0;
  if (qa !== qb) return qb - qa;
  const key = (r: SignalRecord) => (isQualified(r.cScore) ? Math.abs(r.cScore) : r.cScore);
  return key(b) - key(a) || (a.ticker < b.ticker ? -1 : 1);
}

function hubOf(kind: HubKind, name: string, sector: string, records: SignalRecord[], locked: ReadonlySet<string>): Omit<Hub, 'slug'> {
  const open = records.filter((r) => !locked.has(r.ticker));
  const signals: Record<SignalDirection, number> = { bullish: 0, bearish: 0, neutral: 0 };
  const bands = Array.from({ length: HUB_BANDS }, () => 0);
  for (const r of open) {
    signals[signalDirection(r.cScore)] += 1;
    bands[scoreBand(r.cScore)]! += 1;
  }
  return { kind, name, sector, records: [...records].sort(hubOrder), locked: records.length - open.length, signals, bands };
}

/**
 * Every hub of a report: one per sector and one per sub-industry that has stocks, in name order. Two names with one
 * address would make two pages of one file: the build stops and names them.
 */
export function buildHubs(latest: readonly SignalRecord[], locked: ReadonlySet<string> = new Set()): Hub[] {
  const sectors = new Map<string, SignalRecord[]>();
  const industries = new Map<string, { sector: string; records: SignalRecord[] }>();
  for (const record of latest) {
    const sector = record.sector?.trim();
    if (!sector) continue;
    (sectors.get(sector) ?? sectors.set(sector, []).get(sector)!).push(record);
    const industry = record.subIndustry?.trim();
    if (!industry) continue;
    (industries.get(industry) ?? industries.set(industry, { sector, records: [] }).get(industry)!).records.push(record);
  }
  const byName = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hubs: Hub[] = [];
  const taken = new Map<string, string>();
  const add = (hub: Omit<Hub, 'slug'>) => {
    const slug = hubSlug(hub.name) || hub.kind;
    const other = taken.get(`${hub.kind}/${slug}`);
    if (other !== undefined) throw new Error(`The ${hub.kind} names "${other}" and "${hub.name}" both make the address /${hub.kind}/${slug}: correct one of them in the export.`);
    taken.set(`${hub.kind}/${slug}`, hub.name);
    hubs.push({ ...hub, slug });
  };
  for (const [name, records] of byName(sectors)) add(hubOf('sector', name, name, records, locked));
  for (const [name, { sector, records }] of byName(industries)) add(hubOf('industry', name, sector, records, locked));
  return hubs;
}

/** The hub addresses of a stock: its sector's and its sub-industry's (null when the report has none). */
export function stockHubs(hubs: readonly Hub[], record: SignalRecord): { sector: Hub | null; industry: Hub | null } {
  const find = (kind: HubKind, name: string | undefined | null) => (name ? (hubs.find((h) => h.kind === kind && h.name === name.trim()) ?? null) : null);
  return { sector: find('sector', record.sector), industry: find('industry', record.subIndustry) };
}
