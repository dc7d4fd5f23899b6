/**
 * The locked part of a page with PAYWALL=on. Its upgrade buttons open the paywall with the feature's name (skipped
 * for a signed-in Pro user, stores/paywall.ts). For a signed-in Pro user, once the shell has loaded the user (after first paint), the full list
 * comes from /api/pro/lists/{list} and its rows replace the free slice in the page's table; the table code
 * (./table.ts) reads them again, so sorting, filtering and the row window keep working. Loaded only by pages that
 * have something locked.
 */
import { formatScore } from '../../lib/domain/format';
import type { SignalRecord } from '../../lib/domain/schemas';
import { classifySignal, signalDirection, trendDirection } from '../../lib/domain/signal';
import { TREND_ARROW } from '../../components/tone';
import { openPaywall } from '../../stores/paywall';
import { $user } from '../../stores/user';
import { showRowStar } from './stars';

/** The event the table code listens for: the table's body rows were replaced. */
export const ROWS_REPLACED = 'table-rows-replaced';

/** The lists whose page is one full table of records (the others keep their preview for now). */
const FULL_TABLES: Record<string, string> = { 'all-signals': 'all-signals', 'currently-qualified': 'currently-qualified' };

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/** One row as components/SignalTable.astro renders it (the full variant, no extra columns). */
export function signalRow(r: SignalRecord): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.t = r.ticker;
  row.dataset.s = r.sector ?? '';
  const starCell = document.createElement('td');
  const star = document.createElement('button');
  star.className = 'star';
  star.setAttribute('aria-pressed', 'false');
  star.setAttribute('aria-label', `Watch ${r.ticker}`);
  star.textContent = '☆';
  starCell.append(star);
  const tickerCell = document.createElement('td');
  const link = document.createElement('a');
  link.href = `/signal/${r.ticker}`;
  link.dataset.detailLink = '';
  link.dataset.top = String(r.isTopTicker);
  link.textContent = r.ticker;
  const company = document.createElement('span');
  company.className = 'co';
  company.textContent = r.companyName;
  tickerCell.append(link, company);
  const score = document.createElement('td');
  const badge = document.createElement('span');
  badge.className = `badge badge-${signalDirection(r.cScore)}`;
  badge.textContent = classifySignal(r.cScore);
  const trend = TREND_ARROW[trendDirection(r.cScore, r.yesterdayCScore)];
  const arrow = document.createElement('span');
  arrow.setAttribute('role', 'img');
  arrow.setAttribute('aria-label', trend.label);
  arrow.textContent = trend.mark;
  score.append(`${formatScore(r.cScore)} `, badge, ' ', arrow);
  row.append(
    starCell,
    tickerCell,
    score,
    ...[r.deltaScore, r.marketScore, r.accuracyScore, r.relevanceScore, r.avgCScoreL7D, r.avgCScoreL14D].map((n) => cell(formatScore(n))),
    cell(`${r.countL7DWithSignal} of 7`),
    cell(`${r.countL14DWithSignal} of 14`),
  );
  return row;
}

async function showProRows(list: string, gate: HTMLElement): Promise<void> {
  const tableId = FULL_TABLES[list];
  const table = tableId ? document.getElementById(tableId) : null;
  if (!(table instanceof HTMLTableElement)) return;
  const response = await fetch(`/api/pro/lists/${list}`, { credentials: 'include' });
  if (!response.ok) {
    await response.body?.cancel();
    return;
  }
  const { rows } = (await response.json()) as { rows: SignalRecord[] };
  const body = table.tBodies[0]!;
  const fresh = rows.map(signalRow);
  body.replaceChildren(...fresh);
  fresh.forEach(showRowStar);
  table.dispatchEvent(new CustomEvent(ROWS_REPLACED, { bubbles: true }));
  gate.hidden = true;
}

/** Wires the upgrade buttons, and puts the Pro rows in place for a signed-in Pro user. */
export function startProGate(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-paywall-feature]')) {
    button.addEventListener('click', () => openPaywall(button.dataset.paywallFeature ?? 'Pro'));
  }
  const gate = document.querySelector<HTMLElement>('[data-pro-list]');
  const list = gate?.dataset.proList;
  if (!gate || !list || !FULL_TABLES[list]) return;
  let asked = false;
  const unsubscribe = $user.subscribe((user) => {
    if (asked || user.status !== 'signed-in' || !user.isPremium) return;
    asked = true;
    queueMicrotask(() => unsubscribe());
    void showProRows(list, gate);
  });
}
