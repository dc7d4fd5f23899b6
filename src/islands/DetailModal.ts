/**
 * The list pages' stock-detail dialog, as a script island (client:idle): no React loads until the dialog first opens.
 * A plain left click on a list row's `a[data-detail-link]` applies the paywall rule (spec section 4), then the address
 * becomes /signal/{T}, the title '{SITE_NAME} {T}', and the dialog opens; Escape, the close button and Back close it,
 * restoring the previous address, title and focus. A pointer over, a touch on or focus on a row link starts loading
 * the dialog's code, so it is usually there by the click. The dialog's state lives in stores/detail-modal.ts.
 */
import { routeTicker, stockPageTitle } from '../lib/domain/signals/detail';
import { scriptIsland } from '../renderers/script-island';
import { mountReactRoot } from './mount-on-demand';
import { $detailModal, followHistory, openDetailModal } from '../stores/detail-modal';
import { mayOpenStock } from '../stores/paywall';

const LINK = 'a[data-detail-link]';
/** What shows an intent to open a row: the dialog's code starts loading on the first of these on a row link. */
const WARM_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const;

function start(siteName: string): void {
  const loadDialog = () => mountReactRoot('detail-modal-root', () => import('./detail/ModalRoot'), { siteName });
  let listTitle: string | null = null;
  let opener: HTMLElement | null = null;
  // The dialog's address is the stock page's, and so is its title; on close the list's title returns, and the focus
  // to the row that opened it.
  $detailModal.listen((state, previous) => {
    if (state?.open) {
      listTitle ??= document.title;
      document.title = stockPageTitle(siteName, state.ticker);
      void loadDialog();
    } else if (previous?.open) {
      if (listTitle !== null) document.title = listTitle;
      listTitle = null;
      const link = opener;
      if (link) requestAnimationFrame(() => link.focus());
    }
  });

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
    openDetailModal(ticker);
  });
  window.addEventListener('popstate', (event) => followHistory(event.state));
  const warm = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(LINK)) return;
    for (const type of WARM_EVENTS) document.removeEventListener(type, warm);
    void loadDialog();
  };
  for (const type of WARM_EVENTS) document.addEventListener(type, warm, { passive: true });
}

export default scriptIsland<{ siteName: string }>((_element, props) => start(props.siteName));
