/**
 * Per-build indexes for the ticker pages: each page looks its company up by ticker and its similar tickers among
 * the same sector and sub-industry, instead of scanning all of the day's tickers (6,000 pages x 6,000 tickers).
 */
import type { SignalRecord, SiteData, UniverseCompany } from '../../lib/domain/report/schemas';
import { similarFinder, type SimilarTicker } from '../../lib/domain/signals/similar';

interface Index {
  universe: Map<string, UniverseCompany>;
  latest: Map<string, SignalRecord>;
  similar: (record: SignalRecord) => SimilarTicker[];
}

const indexes = new WeakMap<SiteData, Index>();

function indexOf(data: SiteData): Index {
  let index = indexes.get(data);
  if (!index) {
    index = {
      universe: new Map(data.universe.map((c) => [c.ticker, c])),
      latest: new Map(data.history.latest.map((r) => [r.ticker, r])),
      similar: similarFinder(data.history.latest),
    };
    indexes.set(data, index);
  }
  return index;
}

/** The universe file's row of a ticker. */
export function universeRow(data: SiteData, ticker: string): UniverseCompany | undefined {
  return indexOf(data).universe.get(ticker);
}

/** `similarTickers` of the domain, compared only with the records of the same sector or sub-industry. */
export function similarFor(data: SiteData, record: SignalRecord): SimilarTicker[] {
  return indexOf(data).similar(record);
}

/** The latest report's record of a ticker (each permalink page looks its ticker up). */
export function latestRecord(data: SiteData, ticker: string): SignalRecord | undefined {
  return indexOf(data).latest.get(ticker);
}
