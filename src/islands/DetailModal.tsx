import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { routeTicker } from '../lib/domain/detail';
import { mayOpenStock } from '../stores/paywall';
import { RESET_AFTER_CLOSE_MS } from './detail/modal-timing';

type DialogProps = { ticker: string; open: boolean; onClose: (restoreFocus: boolean) => void };

interface ModalState {
  ticker: string;
  open: boolean;
}

/** History entries the modal pushed carry this marker, so popstate knows which ones are ours. */
const MARKER = 'detailModal';

/**
 * Opens the stock detail in a dialog when a list row's `a[data-detail-link]` is chosen (plain left click):
 * the paywall rule first, then the dialog and the address /signal/{T}; Escape, the close button and Back close
 * it, restoring the previous address and focus. The dialog's code loads on the first open.
 */
export default function DetailModal({ siteName }: { siteName: string }) {
  const [state, setState] = useState<ModalState | null>(null);
  const [Dialog, setDialog] = useState<ComponentType<DialogProps> | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Spec section 4's two delays (detail/modal-timing.ts): opening within RESET_AFTER_CLOSE_MS of a close keeps the
  // dialog mounted; for another ticker it then drops the held content itself and waits RESET_ON_OPEN_MS before
  // showing the loading skeleton.
  const show = useCallback((ticker: string) => {
    clearTimeout(resetTimer.current);
    void import('./detail/ModalDialog').then((module) => setDialog(() => module.default));
    setState({ ticker, open: true });
  }, []);

  const hide = useCallback(() => {
    setState((current) => (current ? { ...current, open: false } : current));
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => setState(null), RESET_AFTER_CLOSE_MS);
    const link = opener.current;
    if (link) requestAnimationFrame(() => link.focus());
  }, []);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-detail-link]') : null;
      if (!link) return;
      const url = new URL(link.href, location.href);
      const ticker = url.origin === location.origin && url.pathname.startsWith('/signal/') ? routeTicker(url.pathname.slice('/signal/'.length).replace(/\/$/, '')) : null;
      if (!ticker) return;
      event.preventDefault();
      if (!mayOpenStock(link.dataset.top === 'true')) return;
      opener.current = link;
      history.pushState({ [MARKER]: ticker }, '', `/signal/${ticker}`);
      show(ticker);
    };
    const onPopState = (event: PopStateEvent) => {
      const ticker = (event.state as Record<string, unknown> | null)?.[MARKER];
      if (typeof ticker === 'string') show(ticker);
      else hide();
    };
    document.addEventListener('click', onClick);
    window.addEventListener('popstate', onPopState);
    return () => {
      document.removeEventListener('click', onClick);
      window.removeEventListener('popstate', onPopState);
    };
  }, [show, hide]);

  // Closing by Escape or the close button goes back in history, so the address before the dialog returns.
  const close = useCallback(() => {
    if ((history.state as Record<string, unknown> | null)?.[MARKER]) history.back();
    else hide();
  }, [hide]);

  // Spec section 2: on /signal/{ticker} the title is the tool name plus the ticker. It changes with the address, before
  // the dialog's code has loaded, and the list's title returns when the dialog closes.
  const titleTicker = state?.open ? state.ticker : null;
  useEffect(() => {
    if (!titleTicker) return;
    const previous = document.title;
    document.title = `${siteName} ${titleTicker}`;
    return () => {
      document.title = previous;
    };
  }, [siteName, titleTicker]);

  if (!state || !Dialog) return null;
  return <Dialog ticker={state.ticker} open={state.open} onClose={close} />;
}
