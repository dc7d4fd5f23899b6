import { useEffect, useRef } from 'react';
import { HEADER_LIVE_HTML, mountHeaderLive } from './header-live';

/**
 * The detail modal's live header: the stock page's plain-DOM header (./header-live) mounted into an element React
 * leaves alone, with the modal's earnings forms. A new ticker starts from the loading markup again.
 */
export default function HeaderLive({ ticker, reportDate }: { ticker: string; reportDate: string }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    element.innerHTML = HEADER_LIVE_HTML;
    const stop = mountHeaderLive(element, { ticker, reportDate, modal: true });
    return () => {
      stop();
      element.replaceChildren();
    };
  }, [ticker, reportDate]);
  return <div ref={root} />;
}
