/**
 * A locked top ticker's stock page for a signed-in Pro user (PAYWALL=on): the build leaves the scores out and shows
 * the locked card; scripts/list/pro-rows.ts fetches the record from /api/pro/stock/{T} and this renders the page's
 * cards and the header's badge in place of it. Loaded (with React) only on such a page, once the user is known to be Pro.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import ProStockCards from './ProStockCards';
import { SignalBadge } from './cards';

/** Replaces `gate` with the record's cards, and puts its badge after the page's heading. */
export function mountProStock(record: SignalRecord, gate: HTMLElement): void {
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
