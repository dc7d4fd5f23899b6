/**
 * A locked top ticker's stock page for a signed-in Pro user (PAYWALL=on): the build leaves the scores out and shows
 * the locked card; this fetches the record from /api/pro/stock/{T} and renders the page's cards and the header's
 * badge in place of it. Loaded (with React) only on such a page, once the user is known to be Pro.
 */
import type { SignalRecord } from '../../lib/domain/report/schemas';

/** Replaces `gate` with the ticker's cards; leaves it when the route refuses (signed out meanwhile, or not Pro). */
export async function mountProStock(ticker: string, gate: HTMLElement): Promise<void> {
  const response = await fetch(`/api/pro/stock/${encodeURIComponent(ticker)}`, { credentials: 'include' });
  if (!response.ok) {
    await response.body?.cancel();
    return;
  }
  const record = (await response.json()) as SignalRecord;
  const [{ createElement }, { createRoot }, { default: ProStockCards }, { SignalBadge }] = await Promise.all([
    import('react'),
    import('react-dom/client'),
    import('../../islands/detail/ProStockCards'),
    import('../../islands/detail/cards'),
  ]);
  const cards = document.createElement('div');
  cards.className = 'grid content-start gap-4';
  gate.replaceWith(cards);
  createRoot(cards).render(createElement(ProStockCards, { record }));
  const heading = document.querySelector('h1');
  if (heading) {
    const badge = document.createElement('span');
    heading.append(badge);
    createRoot(badge).render(createElement(SignalBadge, { score: record.cScore }));
  }
}
