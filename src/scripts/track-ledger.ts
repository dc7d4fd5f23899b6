/**
 * The ledger table of /track-record: sort by any column (a button in each header, `aria-sort` on the sorted one) and
 * filter by ticker, direction and 30-day outcome. Without this script the table is the plain, complete table.
 */

type Order = 'ascending' | 'descending';

/** Compares two cells' sort values: numbers as numbers, text as text, blanks last. */
function compareValues(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
}

/** Turns the ledger's headers into sort buttons and shows the filter form. */
export function mountLedger(root: Document): void {
  const table = root.querySelector<HTMLTableElement>('[data-ledger]');
  const form = root.querySelector<HTMLFormElement>('[data-ledger-filters]');
  if (!table || !form) return;
  const body = table.tBodies[0]!;
  const rows = [...body.rows];
  const headers = [...table.tHead!.rows[0]!.cells];
  const count = form.querySelector<HTMLElement>('[data-ledger-count]')!;

  for (const [col, th] of headers.entries()) {
    const label = th.querySelector('[data-sort-label]')!;
    const button = root.createElement('button');
    button.type = 'button';
    button.className = 'ledger-sort';
    button.append(label);
    th.append(button);
    button.addEventListener('click', () => {
      const order: Order = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
      for (const other of headers) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', order);
      const sign = order === 'ascending' ? 1 : -1;
      const key = (row: HTMLTableRowElement) => row.cells[col]!.dataset.v ?? '';
      const sorted = [...rows].sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        // Blanks stay last whichever way the column is sorted.
        if (ka === '' || kb === '') return compareValues(ka, kb);
        return sign * compareValues(ka, kb);
      });
      body.append(...sorted);
    });
  }

  const q = form.querySelector<HTMLInputElement>('[data-ledger-q]')!;
  const direction = form.querySelector<HTMLSelectElement>('[data-ledger-direction]')!;
  const outcome = form.querySelector<HTMLSelectElement>('[data-ledger-outcome]')!;
  const apply = () => {
    const text = q.value.trim().toUpperCase();
    let shown = 0;
    for (const row of rows) {
      const match =
        (text === '' || row.dataset.ticker!.includes(text)) &&
        (direction.value === '' || row.dataset.direction === direction.value) &&
        (outcome.value === '' || row.dataset.outcome === outcome.value);
      row.hidden = !match;
      if (match) shown++;
    }
    count.textContent = `${shown.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} signals shown`;
  };
  form.addEventListener('input', apply);
  form.addEventListener('submit', (event) => event.preventDefault());
  form.hidden = false;
  apply();
}
