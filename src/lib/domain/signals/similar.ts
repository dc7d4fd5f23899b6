/**
 * Similar tickers for the detail page (DESIGN.md "Lists"): same GICS sub-industry first, then same sector.
 */
import type { SignalRecord } from '../report/schemas';
import { asciiUpper } from '../text/text';

/** Most similar tickers shown on a detail page. */
export const SIMILAR_TICKERS_LIMIT = 12;

/** One similar ticker, as GET /api/similar-tickers/{ticker} answers. */
export interface SimilarTicker {
  ticker: string;
  cScore: number;
}

function byConviction(a: SignalRecord, b: SignalRecord): number {
  const ticker = a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0;
  return Math.abs(b.cScore) - Math.abs(a.cScore) || ticker;
}

/** Up to `limit` tickers of the same sub-industry, then of the same sector, each group by |C| descending, never the ticker itself; empty when the ticker is unknown. */
export function similarTickers(
  ticker: string,
  latest: readonly SignalRecord[],
  limit: number = SIMILAR_TICKERS_LIMIT,
): SimilarTicker[] {
  const wanted = asciiUpper(ticker.trim());
  const self = latest.find((r) => asciiUpper(r.ticker) === wanted);
  if (!self) return [];
  const others = latest.filter((r) => asciiUpper(r.ticker) !== wanted);
  // A blank classification is no classification: two unclassified tickers are not alike.
  const sameSubIndustry = self.subIndustry
    ? others.filter((r) => r.subIndustry === self.subIndustry).sort(byConviction)
    : [];
  const sameSector = self.sector
    ? others.filter((r) => r.sector === self.sector && !sameSubIndustry.includes(r)).sort(byConviction)
    : [];
  return [...sameSubIndustry, ...sameSector].slice(0, Math.max(0, limit)).map((r) => ({ ticker: r.ticker, cScore: r.cScore }));
}

function groupBy(records: readonly SignalRecord[], key: (record: SignalRecord) => string | undefined): Map<string, SignalRecord[]> {
  const groups = new Map<string, SignalRecord[]>();
  for (const record of records) {
    const value = key(record);
    if (!value) continue;
    const group = groups.get(value);
    if (group) group.push(record);
    else groups.set(value, [record]);
  }
  return groups;
}

/**
 * `similarTickers` for many records of one report: each sector and sub-industry group is sorted by conviction once,
 * and each record takes its first tickers from its own groups, so similar tickers for every ticker of a 6,000-ticker
 * report cost a few group walks each rather than a sort of the sector.
 */
export function similarFinder(latest: readonly SignalRecord[], limit: number = SIMILAR_TICKERS_LIMIT): (record: SignalRecord) => SimilarTicker[] {
  const bySector = groupBy(latest, (r) => r.sector);
  const bySubIndustry = groupBy(latest, (r) => r.subIndustry);
  for (const group of [...bySector.values(), ...bySubIndustry.values()]) group.sort(byConviction);
  return (self) => {
    const picked: SimilarTicker[] = [];
    const take = (group: readonly SignalRecord[] | undefined, wanted: (r: SignalRecord) => boolean) => {
      for (const r of group ?? []) {
        if (picked.length >= limit) return;
        if (r.ticker !== self.ticker && wanted(r)) picked.push({ ticker: r.ticker, cScore: r.cScore });
      }
    };
    if (self.subIndustry) take(bySubIndustry.get(self.subIndustry), () => true);
    if (self.sector) take(bySector.get(self.sector), (r) => !self.subIndustry || r.subIndustry !== self.subIndustry);
    return picked;
  };
}
