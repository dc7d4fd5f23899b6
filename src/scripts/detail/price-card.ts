/**
 * Price Information: the live quote with every conditional field, hidden while the quote fails. Plain DOM: on the stock
 * page it is a script island (the page loads no React for it), and the detail dialog mounts the same code.
 */
import type { FetcherValue } from '@nanostores/query';
import { isLoading, quoteStore } from '../../lib/client/query';
import type { Quote } from '../../lib/domain/market-data/market';
import { formatChange, formatClockTime, formatDate, formatDividendYield, formatMarketCap, formatPercent, formatPrice, formatVolume } from '../../lib/domain/text/format';
import { escapeHtml } from '../../lib/domain/text/text';
import { element } from '../dom';

/** 'Updated at' time of a quote, in the visitor's time zone. */
function updatedAt(iso: string | undefined): string {
  const date = iso ? new Date(iso) : new Date();
  return formatClockTime(Number.isNaN(date.getTime()) ? new Date() : date);
}

/** The rows of the price card: fixed rows, then P/E, EPS, Dividend Yield and Beta only when present, and the modal's extras. */
export function priceRows(q: Quote, modal: boolean): [string, string][] {
  const rows: [string, string][] = [
    ['Current Price', formatPrice(q.regularMarketPrice)],
    ['Day Change', `${formatPercent(q.regularMarketChangePercent)} (${formatChange(q.regularMarketChange)})`],
    ['Prev. Close', formatPrice(q.regularMarketPreviousClose)],
    ['Daily Range', q.regularMarketDayLow !== undefined && q.regularMarketDayHigh !== undefined ? `${formatPrice(q.regularMarketDayLow)} - ${formatPrice(q.regularMarketDayHigh)}` : '—'],
    ['Volume', formatVolume(q.regularMarketVolume)],
    ['Market Cap', formatMarketCap(q.marketCap)],
  ];
  if (q.trailingPE !== undefined) rows.push(['P/E Ratio', q.trailingPE.toFixed(2)]);
  if (q.eps !== undefined) rows.push(['EPS', formatPrice(q.eps)]);
  if (q.dividendYield !== undefined) rows.push(['Dividend Yield', formatDividendYield(q.dividendYield)]);
  if (q.beta !== undefined) rows.push(['Beta', q.beta.toFixed(2)]);
  if (modal) {
    rows.push(['Open', formatPrice(q.regularMarketOpen)], ['High', formatPrice(q.regularMarketDayHigh)], ['Low', formatPrice(q.regularMarketDayLow)], ['Last Updated', updatedAt(q.fetchedAt)]);
  }
  return rows;
}

/**
 * The card while its quote loads. It keeps the height of its six fixed rows and footer, so the cards below stay put;
 * `expectedFigures` (how many of P/E, EPS and dividend yield the build's fundamentals hold) keeps their rows' height too.
 */
export function priceCardHtml(ticker: string, { modal = false, expectedFigures = 0 }: { modal?: boolean; expectedFigures?: number } = {}): string {
  const id = `price-${escapeHtml(ticker)}`;
  const height = expectedFigures > 0 ? ` style="min-height: ${10 + 3 * (Math.ceil((6 + expectedFigures) / 2) - 3)}rem"` : '';
  return (
    `<section class="card" aria-labelledby="${id}" data-testid="price-card">` +
    '<div class="flex items-center justify-between">' +
    `<h2 id="${id}" class="card-title shrink-0">${modal ? 'Price Details' : 'Price Information'}</h2>` +
    `<a class="link shrink-0 text-xs" href="https://finance.yahoo.com/quote/${encodeURIComponent(ticker)}" target="_blank" rel="noopener noreferrer">` +
    `Yahoo<span class="sr-only"> Finance quote page for ${escapeHtml(ticker)} (opens in a new tab)</span> <span aria-hidden="true">↗</span></a>` +
    '</div>' +
    // The session the prices belong to (a weekend shows Friday's), on a line of its own from the first paint.
    '<p class="-mt-2 mb-2 min-h-4 text-xs muted" data-testid="price-session"></p>' +
    `<div data-part="body"><p class="min-h-40 text-sm muted"${height}>Loading price data...</p></div>` +
    '</section>'
  );
}

/** The card's body for a quote that came. */
function quoteNodes(q: Quote, modal: boolean): Node[] {
  if (q.regularMarketPrice === undefined) return [element('p', 'No price information available for this ticker', { class: 'text-sm muted' })];
  const list = element('dl', '', { class: 'grid grid-cols-2 gap-3 text-sm' });
  for (const [label, value] of priceRows(q, modal)) {
    const row = element('div');
    row.append(element('dt', label, { class: 'text-xs muted' }), element('dd', value, { class: 'font-semibold tabular-nums' }));
    list.append(row);
  }
  const source = element('p', `${q.isDemo ? 'Demo prices, not market data' : 'Data from Polygon.io'} • Updated at ${updatedAt(q.fetchedAt)}`, { class: 'mt-3 text-xs muted', 'data-testid': 'price-source' });
  return [list, source];
}

/**
 * Brings the card in `root` to life (writing its loading markup first when `root` is empty): it follows the ticker's
 * quote store, which the live header shares, so the card asks for nothing of its own. Answers the function that stops it.
 */
export function mountPriceCard(root: HTMLElement, ticker: string, { modal = false }: { modal?: boolean } = {}): () => void {
  if (root.childElementCount === 0) root.innerHTML = priceCardHtml(ticker, { modal });
  const section = root.querySelector<HTMLElement>('[data-testid="price-card"]')!;
  const place = document.createComment('price card');
  const session = section.querySelector<HTMLElement>('[data-testid="price-session"]')!;
  const body = section.querySelector<HTMLElement>('[data-part="body"]')!;
  let shown: Quote | null | undefined;
  return quoteStore(ticker).subscribe((quote: FetcherValue<Quote>) => {
    if (isLoading(quote)) return;
    // Spec section 2: the price card hides on error, and comes back when a later answer has the quote.
    if (quote.error && !quote.data) {
      if (section.isConnected) section.replaceWith(place);
      return;
    }
    if (!section.isConnected) place.replaceWith(section);
    const q = quote.data ?? null;
    if (q === shown) return;
    shown = q;
    const time = q?.sessionDate === undefined ? null : element('time', formatDate(q.sessionDate), { datetime: q.sessionDate });
    session.replaceChildren(...(time ? ['as of ', time] : []));
    body.replaceChildren(...(q ? quoteNodes(q, modal) : [element('p', 'No price information available for this ticker', { class: 'text-sm muted' })]));
  });
}
