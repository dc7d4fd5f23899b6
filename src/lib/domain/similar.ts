/**
 * Similar tickers for the detail page (DESIGN.md "Lists"): same GICS sub-industry first, then same sector.
 */
import type { SignalRecord } from './schemas';

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
  const wanted = ticker.trim().toUpperCase();
  const self = latest.find((r) => r.ticker.toUpperCase() === wanted);
  if (!self) return [];
  const others = latest.filter((r) => r.ticker.toUpperCase() !== wanted);
  // A blank classification is no classification: two unclassified tickers are not alike.
  const sameSubIndustry = self.subIndustry
    ? others.filter((r) => r.subIndustry === self.subIndustry).sort(byConviction)
    : [];
  const sameSector = self.sector
    ? others.filter((r) => r.sector === self.sector && !sameSubIndustry.includes(r)).sort(byConviction)
    : [];
  return [...sameSubIndustry, ...sameSector].slice(0, Math.max(0, limit)).map((r) => ({ ticker: r.ticker, cScore: r.cScore }));
}
