/**
 * The list rows' price cell: the last close as of the report date and its day change, from the
 * daily job's stored bars. Light imports only: the Pro rows' browser script renders the same cell.
 */

import { formatDate, formatPercent, formatPrice, formatShortDate } from '../text/format';

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

/** The day a list's Close column names: its rows' newest close (the last day with closes on or before the report date), or null without closes. */
export function listCloseDate(prices: Iterable<ListPrice>): string | null {
  let newest: string | null = null;
  for (const price of prices) if (newest === null || price.date > newest) newest = price.date;
  return newest;
}

/** The Close column's heading: its words, the date under them, and the tooltip that says what the figure is. */
export function listCloseHeading(date: string | null): { label: string; date: string | null; title: string } {
  return { label: 'Close', date: date === null ? null : formatShortDate(date), title: date === null ? 'Last close' : `Close on ${formatDate(date)}` };
}

/**
 * A list row's price cell: the close, the day change as a signed percent, "demo" under the demo provider. The column's
 * heading names the day (`columnDate`); a stock whose last close is older shows that day in its cell and tooltip.
 */
export function listPriceCell(
  price: ListPrice | undefined,
  prices: PriceSource,
  columnDate: string | null = null,
): { close: string; change: string; demo: boolean; sortValue: string; date: string | null; title: string | null } {
  if (price === undefined) return { close: '—', change: '', demo: false, sortValue: '', date: null, title: null };
  const older = price.date !== columnDate;
  return {
    close: formatPrice(price.close),
    change: formatReturn(price.change),
    demo: prices === 'demo',
    sortValue: String(price.close),
    date: older ? formatShortDate(price.date) : null,
    title: older ? `Close on ${formatDate(price.date)}` : null,
  };
}
