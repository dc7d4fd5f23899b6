/**
 * One stock of /compare as the view shows it: its record (or why there is none), its C-Scores and closes over the
 * window, and its hit rate, read from the static JSON and the daily bars and checked with the domain's schemas. It
 * runs in the comparison's worker (./load-worker), so the page's main thread never evaluates the schema library.
 */
import { fetchDailyBars, fetchTrend } from '../../lib/client/api';
import { fetchCompareHitRate, fetchCompareStock } from '../../lib/client/compare';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import type { DatedValue } from '../../lib/domain/signals/compare';

/** One stock of the comparison as it loads. */
export type Loaded =
  | { state: 'loading' }
  | { state: 'unknown' }
  | { state: 'locked'; companyName: string }
  | { state: 'error'; message: string }
  | { state: 'ready'; record: SignalRecord; scores: DatedValue[]; closes: DatedValue[]; isDemo: boolean; hit: { hitRate: number | null; resolved: number } | null };

/** The days a comparison shows, both ends included (yyyy-mm-dd). */
export interface CompareSpan {
  from: string;
  to: string;
}

/** Loads `ticker` for the window `span`; never throws (a failure is the 'error' state, with its message). */
export async function loadStock(ticker: string, span: CompareSpan): Promise<Loaded> {
  try {
    const stock = await fetchCompareStock(ticker);
    if (stock.kind === 'unknown') return { state: 'unknown' };
    if (stock.kind === 'locked') return { state: 'locked', companyName: stock.companyName };
    const [trend, hit, bars] = await Promise.all([
      fetchTrend(ticker).catch(() => null),
      fetchCompareHitRate(ticker).catch(() => null),
      fetchDailyBars(ticker, span.from, span.to),
    ]);
    const scores = (trend?.trend ?? [])
      .filter((p) => !p.is7DayAvg && !p.is14DayAvg && p.date >= span.from && p.date <= span.to)
      .map((p) => ({ date: p.date, value: Number(p.cScore) }))
      .filter((p) => Number.isFinite(p.value));
    const closes = bars.bars.map((b) => ({ date: new Date(b.t).toISOString().slice(0, 10), value: b.c }));
    return { state: 'ready', record: stock.record, scores, closes, isDemo: bars.isDemo, hit };
  } catch (error) {
    return { state: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/** What the page asks the worker: load one stock. */
export interface LoadRequest {
  id: number;
  ticker: string;
  span: CompareSpan;
}

/** What the worker answers: the stock of request `id`. */
export interface LoadAnswer {
  id: number;
  result: Loaded;
}
