/**
 * The Stock Not Found screen (/signal/{unknown ticker}): repeats the ticker asked for, puts it in the page's search
 * box and lists the closest tickers of the report (/signal/NVDAA suggests NVDA), each with its C-Score and badge.
 */
import { closestTickers } from '../lib/domain/signals/search';
import { asciiUpper } from '../lib/domain/text/text';
import { loadIndex, resultContent } from './search';

/** The ticker of a /signal/{ticker} address, upper-cased, or null for /signal itself or an unreadable address. */
export function askedTicker(pathname: string): string | null {
  const raw = /^\/signal\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (raw === undefined) return null;
  try {
    const ticker = asciiUpper(decodeURIComponent(raw)).trim().slice(0, 24);
    return ticker === '' || /^INDEX\.HTML?$/.test(ticker) ? null : ticker;
  } catch {
    return null;
  }
}

/** Fills the screen from the address: the ticker asked for, the search box, the closest tickers. */
export function showStockNotFound(): void {
  const ticker = askedTicker(location.pathname);
  if (ticker === null) return;
  const asked = document.querySelector<HTMLElement>('[data-asked]');
  const name = document.querySelector<HTMLElement>('[data-asked-ticker]');
  if (asked && name) {
    name.textContent = ticker;
    asked.hidden = false;
  }
  const box = document.querySelector<HTMLInputElement>('#not-found-search');
  if (box) box.value = ticker;
  void loadIndex().then((entries) => {
    const closest = closestTickers(entries, ticker);
    const section = document.querySelector<HTMLElement>('[data-closest]');
    const list = section?.querySelector('[data-closest-list]');
    if (!section || !list || closest.length === 0) return;
    list.replaceChildren(
      ...closest.map((entry) => {
        const link = document.createElement('a');
        link.href = `/signal/${encodeURIComponent(entry[0])}`;
        link.append(...resultContent(entry));
        return link;
      }),
    );
    section.hidden = false;
  });
}
