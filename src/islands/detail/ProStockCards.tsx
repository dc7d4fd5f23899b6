import { useEffect } from 'react';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import TrendChart from '../TrendChart';
import { HistoryCard, MetricsCard, ScoreCard, SignalInfoCard } from './cards';
import { countUp } from '../../scripts/detail/count-up';

/**
 * A locked top ticker's cards on its stock page, for a signed-in Pro user (PAYWALL=on): the same cards the page
 * renders at build time for every other ticker, from the record /api/pro answered. Mounted by ./mount-pro-stock.ts.
 */
export default function ProStockCards({ record }: { record: SignalRecord }) {
  useEffect(() => {
    const el = document.querySelector<HTMLElement>('[data-pro-stock-cards] [data-countup]');
    return el ? countUp(el) : undefined;
  }, [record.ticker, record.cScore]);
  return (
    <div className="grid content-start gap-4" data-pro-stock-cards>
      <ScoreCard record={record} idPrefix="dt" />
      <SignalInfoCard record={record} idPrefix="dt" />
      <section className="card" aria-labelledby="dt-trend">
        <h2 id="dt-trend" className="card-title">C-Score Trend</h2>
        <TrendChart ticker={record.ticker} currentScore={record.cScore} size="card" />
      </section>
      <div className="grid gap-4 sm:grid-cols-2">
        <MetricsCard record={record} idPrefix="dt" />
        <HistoryCard record={record} idPrefix="dt" />
      </div>
    </div>
  );
}
