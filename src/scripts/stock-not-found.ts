/**
 * The Stock Not Found screen (/signal/{unknown ticker}): repeats the ticker asked for, puts it in the page's search
 * box and lists the closest tickers of the report (/signal/NVDAA suggests NVDA), each with its C-Score and badge.
 */
import { closestTickers } from '../lib/domain/signals/search';
import { asciiUpper } from '../lib/domain/text/text';
import { loadIndex, resultContent } from './search';
import { nearestDates, permalinkParts, signalPermalink } from '../lib/domain/track-record/ledger-view';
import { staticJson } from '../lib/client/static-files';
import { TickerTrackFileSchema } from '../lib/domain/track-record/ledger-schema';
import { formatDate } from '../lib/domain/text/format';

/** A /signal/{T}/{date} with no entry: says so and lists that stock's entries nearest the date, from its static ledger JSON. */
export async function showMissingPermalink(pathname: string): Promise<boolean> {
  const parts = permalinkParts(pathname);
  if (parts === null) return false;
  const section = document.querySelector<HTMLElement>('[data-permalink-missing]');
  const text = section?.querySelector('[data-permalink-missing-text]');
  const list = section?.querySelector('[data-permalink-nearest]');
  if (!section || !text || !list) return true;
  text.textContent = `${parts.ticker} has no signal on ${formatDate(parts.date)}.`;
  section.hidden = false;
  try {
    const { ledger } = await staticJson(`/api/track-record/${encodeURIComponent(parts.ticker)}`, TickerTrackFileSchema);
    const byDate = new Map(ledger.map((row) => [row.date, row]));
    const nearest = nearestDates([...byDate.keys()], parts.date);
    if (nearest.length === 0) {
      section.querySelector<HTMLElement>('[data-permalink-lead]')?.setAttribute('hidden', '');
      list.replaceChildren(Object.assign(document.createElement('li'), { textContent: `${parts.ticker} has not qualified as a signal in the published reports.` }));
      return true;
    }
    list.replaceChildren(
      ...nearest.map((date) => {
        const row = byDate.get(date)!;
        const item = document.createElement('li');
        const link = Object.assign(document.createElement('a'), { href: signalPermalink(parts.ticker, date), textContent: formatDate(date), className: 'link' });
        item.append(link, ` ${row.direction} at ${row.cScore.toFixed(2)}`);
        return item;
      }),
    );
  } catch {
    list.replaceChildren(Object.assign(document.createElement('li'), { textContent: `No signal of ${parts.ticker} is published.` }));
  }
  return true;
}

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
  if (permalinkParts(location.pathname) !== null) {
    void showMissingPermalink(location.pathname);
    return;
  }
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
