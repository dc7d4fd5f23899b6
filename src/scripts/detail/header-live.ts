/**
 * The live part of the detail header: price and change, earnings badge, copy-link and watch buttons. Plain DOM code,
 * without React, so the stock page's first screen loads no framework at all: the page renders `HEADER_LIVE_HTML` at
 * build time and its page script calls `mountHeaderLive` after the first paint; the detail modal (React) mounts the
 * same code into an empty element, with `modal` for its earnings forms.
 */
import type { FetcherValue } from '@nanostores/query';
import { earningsStore, isLoading, quoteStore, stockRecordStore } from '../../lib/client/query';
import { earningsBadgeText } from '../../lib/domain/detail';
import { formatChange, formatDate, formatPercent, formatPrice, formatShortDate } from '../../lib/domain/format';
import type { Earnings, Quote } from '../../lib/domain/market';
import { showToast } from '../../stores/toast';
import { $watchedSet, toggleWatch } from '../../stores/watchlist';

/** Spec section 9: the URL-copied toast shows for about 2 s. */
const COPIED_TOAST_MS = 2000;

const LOADING_PRICE = '<span class="skeleton inline-block h-6 w-36" aria-label="Loading price"></span>';
const UP = 'text-green-700 dark:text-green-400';
const DOWN = 'text-red-700 dark:text-red-400';

const EARNINGS_BADGE_CLASS = 'badge bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-200';
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const HEADER_BUTTONS =
  '<button type="button" class="btn" data-part="copy" aria-label="Copy link to this page">Copy link</button>' +
  '<button type="button" class="btn" aria-pressed="false" data-part="watch" data-testid="watch-toggle"><span aria-hidden="true">☆</span> Watch</button>' +
  '</div></div>';

/**
 * The header's markup while its data loads. Below 640 px the price takes a row of its own (28 px, the loaded price
 * line) and the buttons the next, whether the quote is loading or shown, so loading it shifts nothing. The stock page
 * passes the earnings badge's text from the build (the daily job's calendar), so the badge is there at first paint.
 */
export function headerLiveHtml(earnings: string | null = null): string {
  return (
    '<div class="flex min-h-19 flex-wrap items-center gap-x-4 gap-y-2 sm:min-h-9">' +
    `<div class="flex min-h-7 min-w-40 basis-full items-baseline gap-2 sm:basis-auto" aria-live="polite" data-part="price">${LOADING_PRICE}</div>` +
    '<div class="ml-auto flex items-center gap-2">' +
    (earnings === null ? '' : `<span class="${EARNINGS_BADGE_CLASS}" data-testid="earnings-badge">${escapeHtml(earnings)}</span>`) +
    HEADER_BUTTONS
  );
}

function span(className: string, text: string, testId?: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  if (testId) element.dataset.testid = testId;
  return element;
}

/** The price line's nodes for a quote: price, coloured change with an arrow (colour is never the only signal), demo badge. */
function priceNodes(quote: Quote): Node[] {
  if (quote.regularMarketPrice === undefined) return [];
  const change = quote.regularMarketChange;
  const tone = change === undefined || change === 0 ? 'muted' : change > 0 ? UP : DOWN;
  const arrow = change === undefined || change === 0 ? '' : change > 0 ? '▲ ' : '▼ ';
  const nodes: Node[] = [
    span('text-xl font-semibold tabular-nums', formatPrice(quote.regularMarketPrice), 'header-price'),
    span(`text-sm tabular-nums ${tone}`, `${arrow}${formatChange(change)} (${formatPercent(quote.regularMarketChangePercent)})`, 'header-change'),
  ];
  if (quote.isDemo) nodes.push(span('badge bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200', 'Demo price'));
  return nodes;
}

/**
 * Spec section 2: the page shows 'Earnings: Jan 5, 2025' only when a date exists; the modal shows the short date,
 * 'No Earnings Scheduled' or 'Earnings: Loading'.
 */
function earningsText(earnings: FetcherValue<Earnings>, modal: boolean): string | null {
  const date = earnings.data?.earningsAvailable ? (earnings.data.earningsDate ?? earnings.data.nextEarningsDate) : null;
  if (!modal) return earningsBadgeText(date, formatDate);
  if (isLoading(earnings)) return 'Earnings: Loading';
  return earningsBadgeText(date, formatShortDate) ?? 'No Earnings Scheduled';
}

async function copyLink(): Promise<void> {
  try {
    await navigator.clipboard.writeText(location.href);
    showToast({ title: 'URL copied', durationMs: COPIED_TOAST_MS });
  } catch {
    showToast({ title: 'Could not copy the URL', description: 'Copy it from the address bar instead.', variant: 'destructive', durationMs: COPIED_TOAST_MS });
  }
}

/**
 * Brings the live header to life in `root` (filled with `HEADER_LIVE_HTML` first when empty): reads the quote and the
 * earnings date from their stores, keeps the watch button in step with the watchlist, and, on the page (not the
 * modal, which reads the record itself), loads the new day's page when the tab shows again and a newer report
 * exists. Returns the function that stops it all.
 */
export function mountHeaderLive(root: HTMLElement, { ticker, reportDate, modal = false }: { ticker: string; reportDate: string; modal?: boolean }): () => void {
  if (!root.firstElementChild) root.innerHTML = headerLiveHtml();
  const part = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[data-part="${name}"]`)!;
  const priceLine = part('price');
  const copy = part<HTMLButtonElement>('copy');
  const watch = part<HTMLButtonElement>('watch');
  // The earnings badge is in the header only while it has something to say.
  const badge = root.querySelector<HTMLSpanElement>('[data-testid="earnings-badge"]') ?? span(EARNINGS_BADGE_CLASS, '', 'earnings-badge');

  let shownQuote: Quote | undefined | null = null;
  const showQuote = (quote: FetcherValue<Quote>) => {
    if (isLoading(quote)) return;
    // Only a new answer redraws the line, so a screen reader hears a price once.
    if (quote.data === shownQuote) return;
    shownQuote = quote.data;
    priceLine.replaceChildren(...(quote.data ? priceNodes(quote.data) : []));
  };
  const showEarnings = (earnings: FetcherValue<Earnings>) => {
    // The page's badge from the build stays while the live answer loads, so nothing shifts.
    if (!modal && isLoading(earnings)) return;
    const text = earningsText(earnings, modal);
    if (text === null) {
      badge.remove();
      return;
    }
    badge.textContent = text;
    // Beside the buttons, on the right: the price growing as it loads moves nothing.
    if (!badge.isConnected) copy.before(badge);
  };
  const showWatch = (watched: Set<string>) => {
    const on = watched.has(ticker);
    watch.setAttribute('aria-pressed', String(on));
    watch.firstElementChild!.textContent = on ? '★' : '☆';
    watch.lastChild!.textContent = on ? ' Watching' : ' Watch';
  };

  const onCopy = () => void copyLink();
  const onWatch = () => toggleWatch(ticker);
  copy.addEventListener('click', onCopy);
  watch.addEventListener('click', onWatch);
  const stops = [quoteStore(ticker).subscribe(showQuote), earningsStore(ticker).subscribe(showEarnings), $watchedSet.subscribe(showWatch)];

  // A page left open overnight: from the first time the tab shows again, the record is read (the store fetches it
  // then, and again each time the tab shows); when a newer report exists, the new day's page loads.
  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', onVisible);
    stops.push(
      stockRecordStore(ticker).subscribe(({ data }) => {
        if (data && data.reportDate > reportDate) location.reload();
      }),
    );
  };
  if (!modal) document.addEventListener('visibilitychange', onVisible);

  return () => {
    stops.forEach((stop) => stop());
    copy.removeEventListener('click', onCopy);
    watch.removeEventListener('click', onWatch);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
