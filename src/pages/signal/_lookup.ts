/**
 * Per-build indexes for the ticker pages: each page looks its company up by ticker and its similar tickers among
 * the same sector and sub-industry, instead of scanning all of the day's tickers (6,000 pages x 6,000 tickers).
 */
import type { SignalRecord, SiteData, UniverseCompany } from '../../lib/domain/schemas';
import { similarTickers, type SimilarTicker } from '../../lib/domain/similar';

interface Index {
  universe: Map<string, UniverseCompany>;
  bySector: Map<string, SignalRecord[]>;
  bySubIndustry: Map<string, SignalRecord[]>;
}

const indexes = new WeakMap<SiteData, Index>();

function group(records: readonly SignalRecord[], key: (r: SignalRecord) => string | undefined): Map<string, SignalRecord[]> {
  const out = new Map<string, SignalRecord[]>();
  for (const record of records) {
    const k = key(record);
    if (!k) continue;
    const list = out.get(k);
    if (list) list.push(record);
    else out.set(k, [record]);
  }
  return out;
}

function indexOf(data: SiteData): Index {
  let index = indexes.get(data);
  if (!index) {
    index = {
      universe: new Map(data.universe.map((c) => [c.ticker, c])),
      bySector: group(data.history.latest, (r) => r.sector),
      bySubIndustry: group(data.history.latest, (r) => r.subIndustry),
    };
    indexes.set(data, index);
  }
  return index;
}

/** The universe file's row of a ticker. */
export function universeRow(data: SiteData, ticker: string): UniverseCompany | undefined {
  return indexOf(data).universe.get(ticker);
}

/** `similarTickers` of the domain, given only the records that can qualify: the same sector or sub-industry. */
export function similarFor(data: SiteData, record: SignalRecord): SimilarTicker[] {
  const index = indexOf(data);
  const candidates = new Set<SignalRecord>([record]);
  for (const r of (record.sector && index.bySector.get(record.sector)) || []) candidates.add(r);
  for (const r of (record.subIndustry && index.bySubIndustry.get(record.subIndustry)) || []) candidates.add(r);
  return similarTickers(record.ticker, [...candidates]);
}
