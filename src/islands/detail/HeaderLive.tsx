import { useEffect, useRef } from 'react';
import { mountHeaderLive } from '../../scripts/detail/header-live';
import { withErrorBoundary } from '../ErrorBoundary';

/**
 * The detail modal's live header: the stock page's plain-DOM header (scripts/detail/header-live.ts) mounted into an
 * element React leaves alone, with the modal's earnings forms.
 */
function HeaderLive({ ticker, reportDate }: { ticker: string; reportDate: string }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    // Mounted into an empty element, the header starts from its loading markup; emptied again for the next ticker.
    const stop = mountHeaderLive(element, { ticker, reportDate, modal: true });
    return () => {
      stop();
      element.replaceChildren();
    };
  }, [ticker, reportDate]);
  return <div ref={root} />;
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(HeaderLive, 'HeaderLive');
