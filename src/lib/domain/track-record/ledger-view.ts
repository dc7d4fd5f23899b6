/**
 * One ledger row as /track-record's table shows it, from a measured row (the build) or from a row of the
 * ledger CSV (the page's script, which loads the whole ledger when the reader sorts or filters). One source for
 * both, so a row looks the same either way. No heavy imports: the browser runs it.
 */
import { formatPrice, formatScore } from '../text/format';
import { formatReturn } from '../signals/list-price';
import type { HorizonOutcome, LedgerRow } from './track-record';

/** The permalink of one signal: the ticker and the report date it qualified on. */
export function signalPermalink(ticker: string, date: string): string {
  return `/signal/${encodeURIComponent(ticker)}/${date}`;
}

/** An outcome's status in the CSV's words. */
export type LedgerStatus = 'hit' | 'miss' | 'open' | 'stopped-hit' | 'stopped-miss' | 'no-price';

/** What a reader reads for each status: "open" while the horizon lies ahead, "stopped trading" when the ticker left first. */
export const STATUS_TEXT: Record<LedgerStatus, string> = {
  hit: 'hit',
  miss: 'miss',
  open: 'open',
  'stopped-hit': 'hit (stopped trading)',
  'stopped-miss': 'miss (stopped trading)',
  'no-price': 'no price',
};

/** An outcome's status in the CSV's words. */
export function ledgerStatus(o: HorizonOutcome): LedgerStatus {
  if (o.status === 'stopped') return o.hit ? 'stopped-hit' : 'stopped-miss';
  if (o.status === 'closed') return o.hit ? 'hit' : 'miss';
  return o.status;
}

/** An outcome as a reader reads it. */
export function outcomeStatusText(o: HorizonOutcome): string {
  return STATUS_TEXT[ledgerStatus(o)];
}

/** What the table shows of one signal. */
export interface LedgerView {
  date: string;
  ticker: string;
  direction: 'bullish' | 'bearish';
  cScore: number;
  entryClose: number | null;
  outcomes: { signalReturn: number | null; status: LedgerStatus; excessReturn: number | null }[];
  exitDate: string | null;
  exitReturn: number | null;
}

/** The view of a measured ledger row. */
export function viewOf(row: LedgerRow): LedgerView {
  return { ...row, outcomes: row.outcomes.map((o) => ({ signalReturn: o.signalReturn, status: ledgerStatus(o), excessReturn: o.excessReturn ?? null })) };
}

/** One cell: its text, a sort value when the text does not sort right, a note after it, a link. */
export interface LedgerCell {
  text: string;
  sortValue?: string;
  note?: string;
  href?: string;
  /** The column's name, which a phone card shows before the cell. */
  label?: string;
}

// Sort values at the CSV's precision, so a row sorts the same whether the page or the CSV made it.
const key = (value: number | null, digits: number) => (value === null ? '' : String(Number(value.toFixed(digits))));

/** The ledger table's column names, in order (each cell carries its own as the phone card's label). */
export const LEDGER_COLUMNS = ['Date', 'Ticker', 'Signal', 'C-Score', 'Entry close', '5 days', '30 days', '90 days', 'Exit', 'To exit'] as const;

/** The table's cells of a signal, in the columns' order. */
export function ledgerCells(view: LedgerView): LedgerCell[] {
  return cellsOf(view).map((cell, i) => ({ ...cell, label: LEDGER_COLUMNS[i] }));
}

function cellsOf(view: LedgerView): LedgerCell[] {
  return [
    { text: view.date, href: signalPermalink(view.ticker, view.date) },
    { text: view.ticker, href: `/signal/${view.ticker}` },
    { text: view.direction === 'bullish' ? 'Bullish' : 'Bearish' },
    { text: formatScore(view.cScore) },
    { text: formatPrice(view.entryClose), sortValue: key(view.entryClose, 2) },
    ...view.outcomes.map((o) => ({
      text: formatReturn(o.signalReturn),
      sortValue: key(o.signalReturn, 6),
      note: o.excessReturn === null ? STATUS_TEXT[o.status] : `${STATUS_TEXT[o.status]}, ${formatReturn(o.excessReturn)} vs benchmark`,
    })),
    { text: view.exitDate ?? 'still qualified' },
    { text: formatReturn(view.exitReturn), sortValue: key(view.exitReturn, 6) },
  ];
}

/** The 30-day outcome the table's filter reads: hit, miss, open, or '' without a price. */
export function thirtyDayOutcome(view: LedgerView): 'hit' | 'miss' | 'open' | '' {
  const status = view.outcomes[1]?.status;
  if (status === 'open') return 'open';
  if (status === 'hit' || status === 'stopped-hit') return 'hit';
  if (status === 'miss' || status === 'stopped-miss') return 'miss';
  return '';
}

const number = (text: string | undefined) => (text === undefined || text === '' ? null : Number(text));

/** The rows of the ledger CSV (its stable columns, docs/data-flow.md#track-record) as views; its cells never hold a comma. */
export function viewsFromCsv(text: string): LedgerView[] {
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  return lines.slice(1).map((line) => {
    const c = line.split(',');
    return {
      ticker: c[0]!,
      date: c[1]!,
      direction: c[2] === 'bearish' ? 'bearish' : 'bullish',
      cScore: Number(c[3]),
      entryClose: number(c[4]),
      // Each horizon is four columns: close, its date, the return, the status.
      outcomes: [5, 9, 13].map((i, h) => ({ signalReturn: number(c[i + 2]), status: c[i + 3] as LedgerStatus, excessReturn: number(c[20 + h]) })),
      exitDate: c[17] || null,
      exitReturn: number(c[18]),
    };
  });
}

/** A permalink's address split into its ticker and date, or null when the path is not /signal/{T}/{YYYY-MM-DD}. */
export function permalinkParts(pathname: string): { ticker: string; date: string } | null {
  const match = /^\/signal\/([^/]+)\/(\d{4}-\d{2}-\d{2})\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return { ticker: decodeURIComponent(match[1]!).toUpperCase(), date: match[2]! };
  } catch {
    return null;
  }
}

/** The `count` entry dates nearest to `date` (by days apart, the earlier first on a tie), in date order. */
export function nearestDates(dates: readonly string[], date: string, count = 3): string[] {
  const at = Date.parse(`${date}T00:00:00Z`);
  const apart = (d: string) => Math.abs(Date.parse(`${d}T00:00:00Z`) - at);
  return [...new Set(dates)]
    .sort((a, b) => apart(a) - apart(b) || a.localeCompare(b))
    .slice(0, count)
    .sort();
}
