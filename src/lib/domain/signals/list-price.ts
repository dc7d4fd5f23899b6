/**
 * The list rows' price cell: the last close as of the report date and its day change, from the
 * daily job's stored bars. Light imports only: the Pro rows' browser script renders the same cell.
 */

import { formatPercent, formatPrice } from '../text/format';

/** Where the closes came from: the market-data API, the offline demo provider, or nowhere yet. */
export type PriceSource = 'polygon' | 'demo' | 'none';

/** A list row's price: the last close on or before the report date and its change from the close before. */
export interface ListPrice {
  date: string;
  close: number;
  /** Fraction (0.012 is +1.2%), or null without an earlier close. */
  change: number | null;
}

/** A return given as a fraction, as a signed percent with 2 decimals ('+5.23%', '-1.20%'); missing shows '—'. */
export function formatReturn(fraction: number | null | undefined): string {
  return formatPercent(typeof fraction === 'number' ? fraction * 100 : fraction);
}

/** A list row's price cell: the close, the day change as a signed percent, "demo" under the demo provider. */
export function listPriceCell(price: ListPrice | undefined, prices: PriceSource): { close: string; change: string; demo: boolean; sortValue: string } {
  if (price === undefined) return { close: '—', change: '', demo: false, sortValue: '' };
  return { close: formatPrice(price.close), change: formatReturn(price.change), demo: prices === 'demo', sortValue: String(price.close) };
}
