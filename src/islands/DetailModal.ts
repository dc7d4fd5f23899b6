/**
 * The list pages' stock-detail dialog, as a script island (client:idle): no React loads until the dialog first opens.
 * A plain left click on a list row's `a[data-detail-link]` applies the paywall rule (spec section 4), then the address
 * becomes /signal/{T}, the title '{SITE_NAME} {T}', and the dialog opens; Escape, the close button and Back close it,
 * restoring the previous address, title and focus. A pointer over, a touch on or focus on a row link starts loading
 * the dialog's code, so it is usually there by the click.
 */
import { atom } from 'nanostores';
import { routeTicker, stockPageTitle } from '../lib/domain/detail';
import { scriptIsland } from '../renderers/script-island';
import { mayOpenStock } from '../stores/paywall';
import { RESET_AFTER_CLOSE_MS } from './detail/modal-timing';
import { mountReactRoot } from './mount-on-demand';

/** The dialog's ticker and whether it is open; null when nothing is mounted (RESET_AFTER_CLOSE_MS after a close). */
export const $detailModal = atom<{ ticker: string; open: boolean } | null>(null);

/** History entries the dialog pushed carry this marker, so popstate knows which ones are ours. */
const MARKER = 'detailModal';
const LINK = 'a[data-detail-link]';
/** What shows an intent to open a row: the dialog's code starts loading on the first of these on a row link. */
const WARM_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

let siteName = '';
let listTitle: string | null = null;
let opener: HTMLElement | null = null;
let resetTimer: ReturnType<typeof setTimeout> | undefined;

const loadDialog = () => mountReactRoot('detail-modal-root', () => import('./detail/ModalRoot'));

// The dialog's address is the stock page's, and so is its title; the list's title returns on close.
function setTitle(ticker: string | null): void {
  if (ticker) {
    listTitle ??= document.title;
    document.title = stockPageTitle(siteName, ticker);
  } else if (listTitle !== null) {
    document.title = listTitle;
    listTitle = null;
  }
}

// Spec section 4's two delays (detail/modal-timing.ts): opening within RESET_AFTER_CLOSE_MS of a close keeps the
// dialog mounted; for another ticker the dialog then drops the held content itself and waits RESET_ON_OPEN_MS before
// showing the loading skeleton.
function show(ticker: string): void {
  clearTimeout(resetTimer);
  $detailModal.set({ ticker, open: true });
  setTitle(ticker);
  void loadDialog();
}

function hide(): void {
  const current = $detailModal.get();
  if (current) $detailModal.set({ ...current, open: false });
  setTitle(null);
  clearTimeout(resetTimer);
  resetTimer = setTimeout(() => $detailModal.set(null), RESET_AFTER_CLOSE_MS);
  const link = opener;
  if (link) requestAnimationFrame(() => link.focus());
}

/** Closing by Escape or the close button goes back in history, so the address before the dialog returns. */
export function closeDetailModal(): void {
  if ((history.state as Record<string, unknown> | null)?.[MARKER]) history.back();
  else hide();
}

function start(name: string): void {
  siteName = name;
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(LINK) : null;
    if (!link) return;
    const url = new URL(link.href, location.href);
    const ticker = url.origin === location.origin && url.pathname.startsWith('/signal/') ? routeTicker(url.pathname.slice('/signal/'.length).replace(/\/$/, '')) : null;
    if (!ticker) return;
    event.preventDefault();
    if (!mayOpenStock(link.dataset.top === 'true')) return;
    opener = link;
    history.pushState({ [MARKER]: ticker }, '', `/signal/${ticker}`);
    show(ticker);
  });
  window.addEventListener('popstate', (event) => {
    const ticker = (event.state as Record<string, unknown> | null)?.[MARKER];
    if (typeof ticker === 'string') show(ticker);
    else hide();
  });
  const warm = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(LINK)) return;
    for (const type of WARM_EVENTS) document.removeEventListener(type, warm);
    void loadDialog();
  };
  for (const type of WARM_EVENTS) document.addEventListener(type, warm, { passive: true });
}

export default scriptIsland<{ siteName: string }>((_element, props) => start(props.siteName));
