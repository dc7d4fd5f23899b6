/**
 * What the live chart loads besides the trend: the ticker's daily bars over a span (the bars route's windows, in
 * parallel) and its stored signal ledger (the track record's static file), for the markers.
 */
import type { Bar } from '../domain/market-data/market';
import { BARS_ROUTE_DAYS, barWindows, ledgerRows, type LedgerEntry } from '../domain/trend/chart-series';
import { fetchDailyBars } from './api';
import { staticBody } from './static-files';

/** The bars from `from` to `to` (or today): each window asked once per page, so a wider range only asks for what is new. */
const windows = new Map<string, Promise<{ bars: Bar[]; isDemo: boolean }>>();

export async function fetchBarsSpan(ticker: string, from: string, to: string): Promise<{ bars: Bar[]; isDemo: boolean }> {
  // None after the reader's day; windows counted back from the last, so two ranges ending on the same day share theirs.
  const today = new Date().toISOString().slice(0, 10);
  const parts = barWindows(from, to < today ? to : today, BARS_ROUTE_DAYS, 'end').map(({ from: start, to: end }) => {
    const key = `${ticker}/${start}/${end}`;
    let answer = windows.get(key);
    if (!answer) windows.set(key, (answer = fetchDailyBars(ticker, start, end)));
    return answer;
  });
  const answers = await Promise.all(parts);
  return { bars: answers.flatMap((a) => a.bars), isDemo: answers.some((a) => a.isDemo) };
}

/** Each ticker's ledger, asked once per page while it loads or once it came; a failure is asked again next time. */
const ledgers = new Map<string, Promise<LedgerEntry[]>>();

/** The ticker's ledger rows (GET /api/track-record/{T}); none when the file is missing or locked. */
export function fetchLedger(ticker: string): Promise<LedgerEntry[]> {
  let answer = ledgers.get(ticker);
  if (!answer) {
    answer = staticBody(`/api/track-record/${encodeURIComponent(ticker)}`).then(
      ledgerRows,
      (error: unknown) => {
        ledgers.delete(ticker);
        console.warn(`The signal events of ${ticker} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      },
    );
    ledgers.set(ticker, answer);
  }
  return answer;
}
