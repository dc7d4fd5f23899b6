/**
 * The ledger table of /track-record: sort by any column (a button in each header, `aria-sort` on the sorted one) and
 * filter by ticker, direction and 30-day outcome. The page holds the newest rows; the first sort or filter loads the
 * whole ledger from the CSV (the same cells, ../lib/domain/track-record/ledger-view.ts). Without this script the table is a plain
 * table of the newest rows, and the CSV holds every one.
 */
import { ledgerCells, thirtyDayOutcome, viewsFromCsv, type LedgerView } from '../lib/domain/track-record/ledger-view';
import { fetchLedgerCsv } from '../lib/client/static-files';

type Order = 'ascending' | 'descending';

/** Compares two cells' sort values: numbers as numbers, text as text, blanks last. */
function compareValues(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b);
}

/** One table row as the page renders it. */
function ledgerRow(view: LedgerView): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.ticker = view.ticker;
  row.dataset.direction = view.direction;
  row.dataset.outcome = thirtyDayOutcome(view);
  for (const cell of ledgerCells(view)) {
    const td = document.createElement('td');
    if (cell.sortValue !== undefined) td.dataset.v = cell.sortValue;
    if (cell.label !== undefined) td.dataset.label = cell.label;
    if (cell.href) {
      const link = document.createElement('a');
      link.href = cell.href;
      link.textContent = cell.text;
      td.append(link);
    } else td.append(cell.text);
    if (cell.note) {
      const note = document.createElement('small');
      note.textContent = cell.note;
      td.append(' ', note);
    }
    row.append(td);
  }
  return row;
}

/** Turns the ledger's headers into sort buttons and shows the filter form. */
export function mountLedger(root: Document): void {
  const table = root.querySelector<HTMLTableElement>('[data-ledger]');
  const form = root.querySelector<HTMLFormElement>('[data-ledger-filters]');
  if (!table || !form) return;
  const body = table.tBodies[0]!;
  let rows = [...body.rows];
  const total = Number(table.dataset.total ?? rows.length);
  const headers = [...table.tHead!.rows[0]!.cells];
  const count = form.querySelector<HTMLElement>('[data-ledger-count]')!;
  const q = form.querySelector<HTMLInputElement>('[data-ledger-q]')!;
  const direction = form.querySelector<HTMLSelectElement>('[data-ledger-direction]')!;
  const outcome = form.querySelector<HTMLSelectElement>('[data-ledger-outcome]')!;
  let sorted: { col: number; order: Order } = { col: 0, order: 'descending' };

  // The whole ledger, loaded once, the first time the reader sorts or filters.
  let whole: Promise<void> | null = null;
  const loadWhole = (): Promise<void> => {
    if (rows.length >= total) return Promise.resolve();
    whole ??= fetchLedgerCsv(table.dataset.csv!)
      .then((text) => {
        const fragment = document.createDocumentFragment();
        rows = viewsFromCsv(text).map(ledgerRow);
        for (const row of rows) fragment.append(row);
        body.replaceChildren(fragment);
      })
      .catch((error: Error) => {
        count.textContent = `Only the newest ${rows.length} signals could be sorted and filtered (${error.message}); the CSV holds them all.`;
      });
    count.textContent = `Loading all ${total.toLocaleString('en-US')} signals...`;
    return whole;
  };

  const sort = () => {
    const { col, order } = sorted;
    const sign = order === 'ascending' ? 1 : -1;
    // A cell's sort value: its data-v when its text does not sort right (a price, a return), else its text.
    const keys = new Map(rows.map((row) => [row, row.cells[col]!.dataset.v ?? row.cells[col]!.textContent ?? '']));
    const ordered = [...rows].sort((a, b) => {
      const ka = keys.get(a)!;
      const kb = keys.get(b)!;
      // Blanks stay last whichever way the column is sorted.
      return ka === '' || kb === '' ? compareValues(ka, kb) : sign * compareValues(ka, kb);
    });
    const fragment = document.createDocumentFragment();
    for (const row of ordered) fragment.append(row);
    body.append(fragment);
  };

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

  for (const [col, th] of headers.entries()) {
    const button = root.createElement('button');
    button.type = 'button';
    button.className = 'ledger-sort';
    button.append(th.querySelector('[data-sort-label]')!);
    th.append(button);
    button.addEventListener('click', async () => {
      const order: Order = th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending';
      for (const other of headers) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', order);
      sorted = { col, order };
      await loadWhole();
      sort();
      apply();
    });
  }
  form.addEventListener('input', async () => {
    const loading = rows.length < total;
    await loadWhole();
    if (loading) sort();
    apply();
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  form.hidden = false;
  count.textContent = rows.length < total ? `The newest ${rows.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} signals shown` : `${rows.length.toLocaleString('en-US')} signals shown`;
}
