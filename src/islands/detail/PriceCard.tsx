import { useStore } from '@nanostores/react';
import { isLoading, quoteStore } from '../../lib/client/query';
import { formatChange, formatClockTime, formatDate, formatDividendYield, formatMarketCap, formatPercent, formatPrice, formatVolume } from '../../lib/domain/text/format';
import type { Quote } from '../../lib/domain/market-data/market';
import { withErrorBoundary } from '../ErrorBoundary';

/** 'Updated at' time of a quote, in the visitor's time zone. */
function updatedAt(iso: string | undefined): string {
  const date = iso ? new Date(iso) : new Date();
  return formatClockTime(Number.isNaN(date.getTime()) ? new Date() : date);
}

/** The rows of the price card: fixed rows, then P/E, EPS, Dividend Yield and Beta only when present, and the modal's extras. */
function priceRows(q: Quote, modal: boolean): [string, string][] {
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
 * Price Information: the live quote with every conditional field; hidden when the quote fails. `expectedFigures`: how
 * many of P/E, EPS and dividend yield the build's fundamentals hold for the ticker, whose rows the loading state keeps.
 */
function PriceCard({ ticker, modal = false, expectedFigures = 0 }: { ticker: string; modal?: boolean; expectedFigures?: number }) {
  // While the island hydrates it reads as the server rendered it (loading), even when the page's header has the quote.
  const quote = useStore(quoteStore(ticker), { ssr: 'initial' });
  // Spec section 2: the price card hides on error.
  if (quote.error && !quote.data) return null;
  const q = quote.data;
  const loading = isLoading(quote);
  return (
    <section className="card" aria-labelledby={`price-${ticker}`} data-testid="price-card">
      <div className="flex items-center justify-between">
        <h2 id={`price-${ticker}`} className="card-title shrink-0">{modal ? 'Price Details' : 'Price Information'}</h2>
        <a className="link shrink-0 text-xs" href={`https://finance.yahoo.com/quote/${encodeURIComponent(ticker)}`} target="_blank" rel="noopener noreferrer">
          Yahoo<span className="sr-only"> Finance quote page for {ticker} (opens in a new tab)</span> <span aria-hidden="true">↗</span>
        </a>
      </div>
      {/* The session the prices belong to (a weekend shows Friday's), whole on a line of its own that is there from the
          first paint, so nothing moves when the quote fills it. */}
      <p className="-mt-2 mb-2 min-h-4 text-xs muted" data-testid="price-session">
        {q?.sessionDate !== undefined && <>as of <time dateTime={q.sessionDate}>{formatDate(q.sessionDate)}</time></>}
      </p>
      {!q ? (
        // While loading, the card keeps the height of its six fixed rows and footer, so the cards below stay put.
        // With the figures the build knows will come (P/E, EPS, dividend yield), it keeps their rows' height too.
        <p className={`text-sm muted${loading ? ' min-h-40' : ''}`} style={loading && expectedFigures > 0 ? { minHeight: `${10 + 3 * (Math.ceil((6 + expectedFigures) / 2) - 3)}rem` } : undefined}>
          {loading ? 'Loading price data...' : 'No price information available for this ticker'}
        </p>
      ) : q.regularMarketPrice === undefined ? (
        <p className="text-sm muted">No price information available for this ticker</p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 text-sm">
            {priceRows(q, modal).map(([label, value]) => (
              <div key={label}>
                <dt className="text-xs muted">{label}</dt>
                <dd className="font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs muted" data-testid="price-source">
            {q.isDemo ? 'Demo prices, not market data' : 'Data from Polygon.io'} • Updated at {updatedAt(q.fetchedAt)}
          </p>
        </>
      )}
    </section>
  );
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(PriceCard, 'PriceCard');
