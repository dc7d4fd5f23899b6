/**
 * The daily job's "fundamentals" step: with a key, the ratios (P/E, EPS, dividend yield, market cap) and the
 * earnings calendar of every ticker of the report, in `ticker.any_of` batches with every page followed. Each
 * finished batch is saved with the day it was fetched, so a run cut short (an upstream failure) resumes where it
 * stopped on the next run, and a day already fetched costs no call.
 */
import {
  batchesOf,
  daysBefore,
  EARNINGS_LOOKBACK_DAYS,
  fromEarnings,
  fromRatios,
  withoutAbsent,
  type EarningsRow,
  type FundamentalsSource,
  type FundamentalsStore,
  type RatiosRow,
  type StoredFundamentals,
} from '../lib/domain/market-data/fundamentals';
import { readFundamentalsStore, writeFundamentalsStore } from '../storage/fundamentals';

/** What the step did: tickers filled by each part, and whether every ticker is done for the day. */
export interface FundamentalsSummary {
  ratios: number;
  earnings: number;
  complete: boolean;
  /** Why the step stopped early (the next run resumes). */
  stoppedBy: string | null;
}

/** Settings of the step. */
export interface FundamentalsRun {
  tickers: readonly string[];
  source: FundamentalsSource;
  file: string;
  /** The day (yyyy-mm-dd, UTC) the figures are fetched for. */
  today: string;
  batchSize?: number;
  log: (line: string) => void;
}

type Part = 'ratios' | 'earnings';

/** Fetches what the store lacks for today, saving after every batch; never throws for an upstream failure. */
export async function refreshFundamentals(run: FundamentalsRun): Promise<FundamentalsSummary> {
  const store = await readFundamentalsStore(run.file);
  const summary: FundamentalsSummary = { ratios: 0, earnings: 0, complete: false, stoppedBy: null };
  try {
    summary.ratios = await fetchPart(run, store, 'ratios');
    summary.earnings = await fetchPart(run, store, 'earnings');
    summary.complete = true;
  } catch (error) {
    summary.stoppedBy = (error as Error).message;
    run.log(`Fundamentals stopped early (the next run resumes): ${summary.stoppedBy}`);
  }
  return summary;
}

async function fetchPart(run: FundamentalsRun, store: FundamentalsStore, part: Part): Promise<number> {
  const mark = part === 'ratios' ? 'ratiosFetchedOn' : 'earningsFetchedOn';
  const due = run.tickers.filter((ticker) => store.tickers[ticker]?.[mark] !== run.today);
  let filled = 0;
  for (const batch of batchesOf(due, run.batchSize)) {
    const found = part === 'ratios' ? await ratiosOf(run.source, batch) : await earningsOf(run.source, batch, run.today);
    for (const ticker of batch) {
      const figures = found.get(ticker);
      if (figures !== undefined) filled += 1;
      // A ticker the API does not know keeps nothing stale from an earlier day.
      const cleared = part === 'ratios' ? { ratiosAsOf: undefined, trailingPE: undefined, eps: undefined, dividendYield: undefined, marketCap: undefined } : { nextEarningsDate: undefined, lastEarningsDate: undefined, lastActualEps: undefined };
      store.tickers[ticker] = withoutAbsent({ ...store.tickers[ticker], ...cleared, ...figures, [mark]: run.today });
    }
    await writeFundamentalsStore(run.file, store);
  }
  if (due.length > 0) run.log(`Fundamentals: ${part} for ${filled} of ${due.length} tickers.`);
  return filled;
}

async function ratiosOf(source: FundamentalsSource, batch: string[]): Promise<Map<string, Partial<StoredFundamentals>>> {
  const latest = new Map<string, RatiosRow>();
  for await (const page of source.ratios(batch)) {
    for (const row of page) {
      const seen = latest.get(row.ticker);
      if (seen === undefined || (row.date ?? '') >= (seen.date ?? '')) latest.set(row.ticker, row);
    }
  }
  return new Map([...latest].map(([ticker, row]) => [ticker, fromRatios(row)]));
}

async function earningsOf(source: FundamentalsSource, batch: string[], today: string): Promise<Map<string, Partial<StoredFundamentals>>> {
  const rows = new Map<string, EarningsRow[]>();
  for await (const page of source.earningsCalendar(batch, daysBefore(today, EARNINGS_LOOKBACK_DAYS))) {
    for (const row of page) rows.set(row.ticker, [...(rows.get(row.ticker) ?? []), row]);
  }
  return new Map([...rows].map(([ticker, list]) => [ticker, fromEarnings(list, today)]));
}
