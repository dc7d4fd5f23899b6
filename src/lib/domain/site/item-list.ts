/** schema.org ItemList markup of a page's stocks (the lists, the hubs), each at its stock page's canonical address. */
import { canonicalUrl } from './canonical';

/** How many entries the markup names: a 6,000-row list would otherwise weigh more than the page. */
export const ITEM_LIST_LIMIT = 100;

/** The ItemList of `tickers` in page order: the first ITEM_LIST_LIMIT named, `numberOfItems` counting all. */
export function itemListJsonLd(name: string, tickers: readonly string[], siteUrl: string): Record<string, unknown> {
  return {
    '@type': 'ItemList',
    name,
    numberOfItems: tickers.length,
    itemListOrder: 'https://schema.org/ItemListOrderDescending',
    itemListElement: tickers.slice(0, ITEM_LIST_LIMIT).map((ticker, i) => ({ '@type': 'ListItem', position: i + 1, name: ticker, url: canonicalUrl(`/signal/${ticker}`, siteUrl) })),
  };
}
