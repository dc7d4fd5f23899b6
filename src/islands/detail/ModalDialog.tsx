import { useStore } from '@nanostores/react';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import { stockRecordStore } from '../../lib/client/query';
import { headerCompanyName } from '../../lib/domain/signals/company-name';
import { STOCK_NOT_FOUND } from '../../lib/domain/signals/detail';
import { formatDate } from '../../lib/domain/text/format';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import TrendChart from '../TrendChart';
import { Avatar, DetailFooter, HistoryCard, MetricsCard, ScoreCard, SignalBadge, SignalInfoCard } from './cards';
import { countUp } from '../../scripts/detail/count-up';
import { RESET_ON_OPEN_MS } from '../../stores/detail-modal';
import HeaderLive from './HeaderLive';
import PriceCardLive from './PriceCardLive';
import WhatMovedDialog from '../../components/detail/WhatMovedDialog';
import '../../styles/detail.css';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; record: SignalRecord };

/**
 * Spec sections 4 and 8: the record by the direct fetch, else from the all-signals list, refetched when the tab shows
 * again. What it returns always belongs to `ticker` (its store is the ticker's own): when the dialog opens for another
 * ticker, the previous record is never returned, not even for the first render (RESET_ON_OPEN_MS).
 */
function useStockRecord(ticker: string): Load {
  const { data, error } = useStore(stockRecordStore(ticker));
  if (data) return { state: 'ready', record: data };
  if (data === null || error) return { state: 'error' };
  return { state: 'loading' };
}

/** True once `ticker` has been loading for RESET_ON_OPEN_MS: only then does the body show the loading skeleton. */
function useSlowLoad(ticker: string, loading: boolean): boolean {
  const [slowFor, setSlowFor] = useState<string | null>(null);
  useEffect(() => {
    if (!loading) return;
    const timer = setTimeout(() => setSlowFor(ticker), RESET_ON_OPEN_MS);
    return () => clearTimeout(timer);
  }, [ticker, loading]);
  return loading && slowFor === ticker;
}

/** The score card with its count-up started once the dialog shows it. */
function CountedScore({ record }: { record: SignalRecord }) {
  useEffect(() => {
    const el = document.querySelector<HTMLElement>('#detail-modal [data-countup]');
    return el ? countUp(el) : undefined;
  }, [record.ticker, record.cScore]);
  return <ScoreCard record={record} idPrefix="dm" />;
}

function Body({ ticker, load, siteName }: { ticker: string; load: Load; siteName: string }) {
  const slow = useSlowLoad(ticker, load.state === 'loading');
  if (load.state === 'loading') {
    // The first RESET_ON_OPEN_MS of a load: an empty body, held at the skeleton's height.
    if (!slow) return <div className="min-h-96" aria-busy="true" />;
    return (
      <div className="grid gap-4" aria-busy="true" aria-label="Loading stock data">
        <div className="card">
          <div className="skeleton h-10 w-32" />
          <div className="skeleton mt-4 h-3 w-full" />
        </div>
        {[0, 1].map((i) => (
          <div key={i} className="card grid grid-cols-2 gap-3">
            {[0, 1, 2, 3].map((j) => (
              <div key={j} className="skeleton h-8" />
            ))}
          </div>
        ))}
        <div className="skeleton h-16" />
        <div className="skeleton h-16" />
      </div>
    );
  }
  if (load.state === 'error') {
    return (
      <div className="py-8 text-center">
        <p className="text-lg font-semibold">{STOCK_NOT_FOUND.title}</p>
        <p className="mt-1 muted">{STOCK_NOT_FOUND.message}</p>
      </div>
    );
  }
  const { record } = load;
  return (
    <div className="grid gap-4">
      <HeaderLive ticker={ticker} reportDate={record.reportDate} />
      <CountedScore record={record} />
      <SignalInfoCard record={record} idPrefix="dm" />
      <section className="card" aria-labelledby="dm-trend">
        <h2 id="dm-trend" className="card-title">C-Score Trend</h2>
        <TrendChart ticker={ticker} currentScore={record.cScore} size="modal" />
      </section>
      <div className="grid gap-4 sm:grid-cols-2">
        <MetricsCard record={record} idPrefix="dm" />
        <HistoryCard record={record} idPrefix="dm" />
      </div>
      <WhatMovedDialog ticker={ticker} />
      <PriceCardLive ticker={ticker} />
      <DetailFooter reportDate={record.reportDate} siteName={siteName} />
    </div>
  );
}

/** The detail dialog: title and description, the modal variant of the detail cards, a link to the full page. */
export default function ModalDialog({ ticker, open, onClose, siteName }: { ticker: string; open: boolean; onClose: () => void; siteName: string }) {
  const load = useStockRecord(ticker);
  useEffect(() => {
    // Neither route knows the ticker right now: the pre-rendered page always has the day's data (or says the
    // stock is not found), so go there instead of leaving an empty dialog.
    if (open && load.state === 'error') location.assign(`/signal/${encodeURIComponent(ticker)}`);
  }, [open, load.state, ticker]);
  const record = load.state === 'ready' ? load.record : null;
  const name = headerCompanyName(ticker, null, record?.companyName);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[200] bg-black/60" />
        <Dialog.Content
          id="detail-modal"
          className="fixed inset-0 z-[200] overflow-y-auto bg-white p-4 text-gray-900 sm:inset-auto sm:top-1/2 sm:left-1/2 sm:max-h-[90vh] sm:w-[min(56rem,95vw)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl sm:p-6 dark:bg-[#0c0d10] dark:text-gray-100"
          onCloseAutoFocus={(event) => event.preventDefault()}
          // Escape on the trend chart with its tooltip open closes the tooltip (TrendChart), not the dialog.
          onEscapeKeyDown={(event) => {
            if (document.activeElement?.closest('[data-tooltip-open]')) event.preventDefault();
          }}
        >
          {/* Below 640 px the description takes the header's full width under the title and the two buttons. */}
          <div className="mb-4 flex flex-wrap items-start gap-x-3 gap-y-1 sm:flex-nowrap">
            {record && <Avatar ticker={ticker} score={record.cScore} />}
            <div className="contents min-w-0 flex-1 sm:block">
              <Dialog.Title className="flex min-w-0 flex-1 flex-wrap items-center gap-2 text-2xl font-bold sm:flex-none">
                {ticker}
                {record?.isTopTicker && <span className="text-amber-500" title="Top Signal" role="img" aria-label="Top Signal">★</span>}
                {record?._signalChangeType === 'new' && <span className="inline-block h-2.5 w-2.5 rounded-full bg-blue-500" title="New Signal" role="img" aria-label="New Signal" />}
                {record && <SignalBadge score={record.cScore} />}
              </Dialog.Title>
              <Dialog.Description className="muted order-last basis-full sm:order-none">
                {record ? `${name}: C-Score detail for the report of ${formatDate(record.reportDate)}` : `C-Score detail for ${ticker}`}
              </Dialog.Description>
            </div>
            <a href={`/signal/${ticker}`} className="btn whitespace-nowrap">Open page</a>
            <Dialog.Close className="btn" aria-label="Close">
              <span aria-hidden="true">✕</span>
            </Dialog.Close>
          </div>
          <Body ticker={ticker} load={load} siteName={siteName} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
