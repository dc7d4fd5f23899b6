/**
 * The trend chart's head start: what its first drawing needs (the library, the trend, the signal events and, when the
 * build gave them, the default range's bars), asked at once. The island asks as it starts; on the stock page the
 * chart's early start (early.ts) asks on the reader's first scroll.
 */
import { fetchBarsSpan, fetchLedger } from '../../lib/client/chart-data';
import { isLoading, trendStore } from '../../lib/client/query';

/** The chart: its ticker, the default range's bars from the build, and whether it is the dialog's. */
export interface ChartHeadStart {
  ticker: string;
  firstBars?: { from: string; to: string };
  modal?: boolean;
}

/**
 * Starts the library and the data loading; each is asked once per page and the island gets the same answers. The
 * trend is listened to until its first answer (or the returned stop): the island's own listener keeps it from there.
 */
export function warmTrendChart({ ticker, firstBars, modal = false }: ChartHeadStart): () => void {
  void import('./live-chart');
  const store = trendStore(ticker, { modal });
  // The store may call the listener at once (an answer it holds), before `listen` has returned.
  let stop = () => undefined as void;
  stop = store.listen((value) => {
    if (!isLoading(value)) stop();
  });
  if (!isLoading(store.get())) stop();
  void fetchLedger(ticker);
  if (firstBars) fetchBarsSpan(ticker, firstBars.from, firstBars.to).catch(() => undefined);
  return stop;
}
