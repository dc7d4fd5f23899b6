import { useEffect, useRef } from 'react';
import { mountPriceCard } from '../../scripts/detail/price-card';
import { withErrorBoundary } from '../ErrorBoundary';

/**
 * The detail dialog's price card: the stock page's plain-DOM card (scripts/detail/price-card.ts) mounted into an
 * element React leaves alone, with the dialog's extra rows.
 */
function PriceCardLive({ ticker }: { ticker: string }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    // Mounted into an empty element, the card starts from its loading markup; emptied again for the next ticker.
    const stop = mountPriceCard(element, ticker, { modal: true });
    return () => {
      stop();
      element.replaceChildren();
    };
  }, [ticker]);
  return <div ref={root} />;
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(PriceCardLive, 'PriceCard');
