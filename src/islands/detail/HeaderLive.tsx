import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { formatChange, formatDate, formatPercent, formatPrice, formatShortDate } from '../../lib/domain/format';
import { earningsBadgeText } from '../../lib/domain/detail';
import type { Earnings, Quote } from '../../lib/domain/market';
import { showToast } from '../../stores/toast';
import { $watchedSet, toggleWatch } from '../../stores/watchlist';
import { fetchStockRecord } from './stock';
import { EARNINGS_OPTIONS, QUOTE_OPTIONS, useApi } from './use-api';

/** Spec section 9: the URL-copied toast shows for about 2 s. */
const COPIED_TOAST_MS = 2000;

/** The live part of the detail header: price and change, earnings badge, copy-link and watch buttons; `modal` shows the modal's earnings forms. */
export default function HeaderLive({ ticker, reportDate, modal = false }: { ticker: string; reportDate: string; modal?: boolean }) {
  const quote = useApi<Quote>(`/api/stock-price/${encodeURIComponent(ticker)}`, QUOTE_OPTIONS);
  const earnings = useApi<Earnings>(`/api/earnings-date/${encodeURIComponent(ticker)}`, EARNINGS_OPTIONS);
  const watched = useStore($watchedSet).has(ticker);

  // A page left open overnight: when the tab shows again and a newer report exists, load the new day's page.
  useEffect(() => {
    // The modal refetches its own record instead.
    if (modal) return;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      fetchStockRecord(ticker)
        .then((record) => {
          if (record && record.reportDate > reportDate) location.reload();
        })
        .catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [ticker, reportDate, modal]);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      showToast({ title: 'URL copied', durationMs: COPIED_TOAST_MS });
    } catch {
      showToast({ title: 'Could not copy the URL', description: 'Copy it from the address bar instead.', variant: 'destructive', durationMs: COPIED_TOAST_MS });
    }
  };

  const q = quote.data;
  const change = q?.regularMarketChange;
  const tone = change === undefined || change === 0 ? 'muted' : change > 0 ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400';
  const arrow = change === undefined || change === 0 ? '' : change > 0 ? '▲ ' : '▼ ';
  const earningsDate = earnings.data?.earningsAvailable ? (earnings.data.earningsDate ?? earnings.data.nextEarningsDate) : null;
  // Spec section 2: the page shows 'Earnings: Jan 5, 2025' only when a date exists; the modal shows the short
  // date, 'No Earnings Scheduled' or 'Loading'.
  const earningsText = modal
    ? earnings.loading && !earnings.data
      ? 'Earnings: Loading'
      : (earningsBadgeText(earningsDate, formatShortDate) ?? 'No Earnings Scheduled')
    : earningsBadgeText(earningsDate, formatDate);

  return (
    // Below 640 px the price takes a row of its own (28 px, the loaded price line) and the buttons the next, whether
    // the quote is loading or shown, so loading it shifts nothing.
    <div className="flex min-h-19 flex-wrap items-center gap-x-4 gap-y-2 sm:min-h-9">
      <div className="flex min-h-7 min-w-40 basis-full items-baseline gap-2 sm:basis-auto" aria-live="polite">
        {quote.loading && !q ? (
          <span className="skeleton inline-block h-6 w-36" aria-label="Loading price" />
        ) : q?.regularMarketPrice !== undefined ? (
          <>
            <span className="text-xl font-semibold tabular-nums" data-testid="header-price">{formatPrice(q.regularMarketPrice)}</span>
            <span className={`text-sm tabular-nums ${tone}`} data-testid="header-change">
              {arrow}
              {formatChange(change)} ({formatPercent(q.regularMarketChangePercent)})
            </span>
            {q.isDemo && <span className="badge bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">Demo price</span>}
          </>
        ) : null}
      </div>
      {earningsText && (
        <span className="badge bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-200" data-testid="earnings-badge">{earningsText}</span>
      )}
      <div className="ml-auto flex gap-2">
        <button type="button" className="btn" onClick={copyLink} aria-label="Copy link to this page">
          Copy link
        </button>
        <button type="button" className="btn" aria-pressed={watched} onClick={() => toggleWatch(ticker)} data-testid="watch-toggle">
          <span aria-hidden="true">{watched ? '★' : '☆'}</span> {watched ? 'Watching' : 'Watch'}
        </button>
      </div>
    </div>
  );
}
