/**
 * Choosing list rows to compare: a "Compare stocks" button above each list table switches the table to picking, where
 * a click or Enter on a row (./row-choose) chooses it instead of opening it, up to COMPARE_MAX; the "Compare" link
 * then opens /compare with the chosen tickers in the order they were chosen. The page holds only the bar's empty box.
 */
import { COMPARE_MAX, compareHref } from '../../lib/domain/signals/compare';

/** The event row-choose sends instead of opening a row while its table picks. */
export const PICK_EVENT = 'compare-pick';

/** True while `table` picks rows to compare. */
export function isPicking(table: Element | null): boolean {
  return table?.hasAttribute('data-picking') ?? false;
}

function button(text: string, className: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  return b;
}

/** Adds the picking controls above `table`. */
export function enhanceComparePick(table: HTMLTableElement): void {
  const wrap = table.closest('.sig-wrap') ?? table;
  // The table's own bar, kept in the page so nothing moves; a table without one gets a new one.
  const kept = wrap.previousElementSibling;
  const bar = kept?.matches('[data-compare-pick]') ? (kept as HTMLElement) : document.createElement('div');
  bar.className = 'cmp-pick';
  const toggle = button('Compare stocks', 'btn');
  toggle.setAttribute('aria-pressed', 'false');
  const status = document.createElement('span');
  status.className = 'text-sm muted';
  // Read out as it changes; not a status role, which the page's toasts own.
  status.setAttribute('aria-live', 'polite');
  const go = document.createElement('a');
  go.className = 'btn btn-primary';
  go.hidden = true;
  bar.append(toggle, status, go);
  if (bar !== kept) wrap.before(bar);

  const chosen: string[] = [];
  const rowOf = (ticker: string) => table.querySelector<HTMLTableRowElement>(`tr[data-t="${CSS.escape(ticker)}"]`);
  const show = () => {
    const on = isPicking(table);
    toggle.setAttribute('aria-pressed', String(on));
    toggle.textContent = on ? 'Cancel comparing' : 'Compare stocks';
    status.textContent = on ? `Choose up to ${COMPARE_MAX} rows: ${chosen.length} chosen${chosen.length ? ` (${chosen.join(', ')})` : ''}.` : '';
    go.hidden = !on || chosen.length === 0;
    go.href = compareHref(chosen);
    go.textContent = `Compare ${chosen.length} ${chosen.length === 1 ? 'stock' : 'stocks'}`;
  };
  toggle.addEventListener('click', () => {
    if (isPicking(table)) {
      table.removeAttribute('data-picking');
      for (const t of chosen.splice(0)) rowOf(t)?.removeAttribute('aria-selected');
    } else table.setAttribute('data-picking', '');
    show();
  });
  table.addEventListener(PICK_EVENT, (event) => {
    const row = event.target as HTMLTableRowElement;
    const ticker = row.dataset.t!;
    const at = chosen.indexOf(ticker);
    if (at >= 0) chosen.splice(at, 1);
    else if (chosen.length < COMPARE_MAX) chosen.push(ticker);
    row.setAttribute('aria-selected', String(chosen.includes(ticker)));
    show();
  });
}
