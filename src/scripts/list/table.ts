/**
 * Enhances the list tables of a page in place (no re-render from a JSON copy): header buttons sort by any column and
 * the filter form filters by text, direction, sector and watched, with the view kept in the address (./url-state).
 * A table of WINDOW_FROM_ROWS rows or more then keeps only the rows near its scroll position in the page
 * (./row-window). The rules are lib/domain/signals/table.ts's; the stars are ./stars.
 */
import type { SearchEntry } from '../../lib/domain/signals/search';
import { signalDirection } from '../../lib/domain/signals/signal';
import {
  listOrder,
  matchesFilters,
  nextSort,
  parseSortNumber,
  sortPermutation,
  stockCountText,
  strengthPermutation,
  tableStateToQuery,
  WINDOW_FROM_ROWS,
  type FilterableRow,
  type ListOrder,
  type SortValue,
  type TableState,
} from '../../lib/domain/signals/table';
import { $watchedSet } from '../../stores/watchlist';
import { renderWindow, startWindow, type RowView } from './row-window';
import { showClosest } from './no-match';
import { enhanceStars, showRowStar } from './stars';
import { enhanceRowChoice, makeRowChoosable } from './row-choose';
import { enhanceComparePick } from './compare-pick';
import { fillForm, readForm, readUrlState, writeUrlState } from './url-state';
import { hubAddress, sectorHubText } from '../../lib/domain/signals/hubs';

interface Table {
  element: HTMLTableElement;
  body: HTMLTableSectionElement;
  rows: HTMLTableRowElement[];
  info: FilterableRow[];
  headers: Map<string, { th: HTMLTableCellElement; index: number; kind: 'num' | 'text'; button: HTMLButtonElement }>;
  values: Map<string, SortValue[]>;
  shownOrder: string;
  /** The row order of the last sort asked for, kept while only the filters change. */
  sorted: { signature: string; order: number[] };
  /** Set once the table shows only the rows near its scroll position. */
  view?: RowView;
}

/** The values of one column, read once from the pre-rendered cells. */
function columnValues(table: Table, key: string): SortValue[] {
  let values = table.values.get(key);
  if (values) return values;
  const column = table.headers.get(key)!;
  values = table.rows.map((row) => {
    if (key === 'ticker') return row.dataset.t ?? '';
    const cell = row.cells[column.index];
    const text = cell?.dataset.v ?? cell?.textContent?.trim() ?? '';
    return column.kind === 'num' ? parseSortNumber(text) : text;
  });
  table.values.set(key, values);
  return values;
}

function readTable(element: HTMLTableElement): Table {
  const body = element.tBodies[0]!;
  const rows = [...body.rows];
  const headers: Table['headers'] = new Map();
  [...(element.tHead?.rows[0]?.cells ?? [])].forEach((th, index) => {
    const key = th.dataset.key;
    if (!key) return;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort-btn';
    button.append(...th.childNodes);
    th.append(button);
    headers.set(key, { th, index, kind: th.dataset.kind === 'num' ? 'num' : 'text', button });
  });
  return { element, body, rows, info: [], headers, values: new Map(), shownOrder: 'list', sorted: { signature: 'list', order: rows.map((_, i) => i) } };
}

/** What the filters read from each row, read once on the first filtering. */
function filterInfo(table: Table): FilterableRow[] {
  if (table.info.length === table.rows.length) return table.info;
  const scores = table.headers.has('cScore') ? columnValues(table, 'cScore') : [];
  table.info = table.rows.map((row, i) => ({
    ticker: row.dataset.t ?? '',
    company: row.querySelector('.co')?.textContent ?? '',
    direction: signalDirection(typeof scores[i] === 'number' ? scores[i] : null),
    sector: row.dataset.s ?? '',
  }));
  return table.info;
}

/**
 * The table's rows that every filter but the text lets through, as search entries (ticker, company, C-Score): the
 * closest matches of an empty result never offer a bullish stock under a Bearish filter.
 */
function searchEntries(table: Table, state: TableState, watched: ReadonlySet<string>): SearchEntry[] {
  const info = filterInfo(table);
  const scores = table.headers.has('cScore') ? columnValues(table, 'cScore') : [];
  const others = { ...state, q: '' };
  const entries: SearchEntry[] = [];
  info.forEach((row, i) => {
    if (matchesFilters(row, others, watched)) entries.push([row.ticker, row.company, typeof scores[i] === 'number' ? scores[i] : null]);
  });
  return entries;
}

/** Shows the rows in `order` (row indexes), moving existing rows; skipped when the order is already shown. */
function showOrder(table: Table, order: number[], signature: string): void {
  if (table.shownOrder === signature) return;
  // Moving rows inside a detached body spares the live table an invalidation per row.
  const { body } = table;
  const parent = body.parentNode!;
  const next = body.nextSibling;
  body.remove();
  for (const i of order) body.append(table.rows[i]!);
  parent.insertBefore(body, next);
  table.shownOrder = signature;
}

function apply(tables: Table[], state: TableState, form: HTMLFormElement | null): void {
  const watched = $watchedSet.get();
  // The count counts stocks (a ticker with two rows is one stock), or rows where the count says `changes`.
  const shown = new Set<string>();
  const total = new Set<string>();
  let shownRows = 0;
  let totalRows = 0;
  for (const table of tables) {
    // A table just switched to its window was measured there: measuring again now would lay out every row.
    const measured = !table.view && table.rows.length >= WINDOW_FROM_ROWS && windowed(table);
    const info = filterInfo(table);
    const how = listOrder(state, (key) => table.headers.has(key));
    const order = sortedOrder(table, how);
    let visible = 0;
    if (table.view) {
      table.view.order = order.filter((i) => matchesFilters(info[i]!, state, watched));
      visible = table.view.order.length;
      for (const i of table.view.order) shown.add(info[i]!.ticker);
      shownRows += visible;
      renderWindow(table.view, true, !measured);
    } else {
      table.rows.forEach((row, i) => {
        const match = matchesFilters(info[i]!, state, watched);
        row.hidden = !match;
        if (match) {
          visible += 1;
          shownRows += 1;
          shown.add(info[i]!.ticker);
        }
      });
      showOrder(table, order, orderSignature(how));
    }
    for (const row of info) total.add(row.ticker);
    totalRows += info.length;
    const noMatch = table.element.parentElement?.querySelector<HTMLElement>('[data-no-match]');
    if (noMatch) {
      noMatch.hidden = visible > 0 || table.rows.length === 0;
      showClosest(noMatch, () => searchEntries(table, state, watched), state.q);
    }
    for (const [key, header] of table.headers) {
      if (how.by === 'column' && key === how.key) header.th.setAttribute('aria-sort', state.order === 'asc' ? 'ascending' : 'descending');
      else header.th.removeAttribute('aria-sort');
    }
  }
  const count = form?.querySelector<HTMLElement>('[data-count]');
  if (count) count.textContent = count.dataset.count === 'changes' ? stockCountText(shownRows, totalRows, 'changes') : stockCountText(shown.size, total.size);
}

/** Brings a row coming into a window up to date: its star, and focusable to be chosen. */
function showRow(row: HTMLTableRowElement): void {
  showRowStar(row);
  makeRowChoosable(row);
}

/** Switches a table to its row window; true when it did (the geometry was measured just now). */
function windowed(table: Table): boolean {
  table.view = startWindow(table.element, table.rows, showRow) ?? undefined;
  return table.view !== undefined;
}

function orderSignature(how: ListOrder): string {
  return how.by === 'column' ? `${how.key}:${how.order}` : how.by;
}

/** Row indexes in the order `how` asks for (the list's own: the pre-rendered order), computed once per order. */
function sortedOrder(table: Table, how: ListOrder): number[] {
  const signature = orderSignature(how);
  if (table.sorted.signature !== signature) {
    const order =
      how.by === 'column'
        ? sortPermutation(columnValues(table, how.key), how.order)
        : how.by === 'strength'
          ? strengthPermutation(columnValues(table, 'cScore'))
          : table.rows.map((_, i) => i);
    table.sorted = { signature, order };
  }
  return table.sorted.order;
}

/** Enhances every [data-sortable] table and the [data-table-filters] form of the page. */
export function enhanceTables(): void {
  const tables = [...document.querySelectorAll<HTMLTableElement>('table[data-sortable]')].map(readTable);
  const form = document.querySelector<HTMLFormElement>('form[data-table-filters]');
  let state = readUrlState();
  if (form) fillForm(form, state);
  const hubLink = form?.querySelector<HTMLAnchorElement>('[data-sector-hub]') ?? null;
  // The chosen sector's hub, beside the filter (a sector the list lacks leaves it hidden, as fillForm shows every sector).
  const showHub = () => {
    if (hubLink === null || form === null) return;
    const select = form.elements.namedItem('sector') as HTMLSelectElement | null;
    const sector = select !== null && [...select.options].some((o) => o.value === state.sector) ? state.sector : '';
    hubLink.hidden = sector === '';
    if (sector === '') return;
    hubLink.href = hubAddress('sector', sector);
    hubLink.textContent = sectorHubText(sector);
  };
  showHub();

  const update = (next: TableState) => {
    state = next;
    writeUrlState(state);
    apply(tables, state, form);
    showHub();
  };

  for (const table of tables) {
    for (const [key, header] of table.headers) header.button.addEventListener('click', () => update(nextSort(state, key, header.kind)));
  }
  // "Clear filters" under an empty result: every filter off, the sort kept.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-clear-filters]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      update({ ...state, q: '', direction: '', sector: '', watched: false });
      if (form) fillForm(form, state);
    });
  }
  if (form) {
    // Every change applies at once: the Apply button is for readers without JavaScript.
    form.querySelector<HTMLElement>('[data-apply]')?.setAttribute('hidden', '');
    form.addEventListener('input', () => update(readForm(form, state)));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      update(readForm(form, state));
    });
  }
  // Rows are chosen by click or Enter; a table that will not be windowed makes its rows focusable once the page is idle.
  for (const table of tables) enhanceRowChoice(table.element);
  for (const table of tables) enhanceComparePick(table.element);
  const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
  whenIdle(() => {
    for (const table of tables) if (!table.view && table.rows.length < WINDOW_FROM_ROWS) table.rows.forEach(makeRowChoosable);
  });

  // A watched filter follows the watchlist.
  enhanceStars(() => {
    if (state.watched) apply(tables, state, form);
  });

  // Pro rows (./pro-rows.ts) replaced a table's rows: read them again and show the current view of them.
  document.addEventListener('table-rows-replaced', (event) => {
    const table = tables.find((t) => t.element === event.target);
    if (!table || table.view) return;
    table.rows = [...table.body.rows];
    table.info = [];
    table.values.clear();
    table.shownOrder = 'list';
    table.sorted = { signature: 'list', order: table.rows.map((_, i) => i) };
    table.rows.forEach(makeRowChoosable);
    apply(tables, state, form);
  });

  // The pre-rendered page already shows the default view: only a query from the URL needs work on load.
  // A big table switches to its window once the page is idle (the first sort or filter would do it otherwise).
  if (tableStateToQuery(state) !== '') apply(tables, state, form);
  else if (tables.some((table) => table.rows.length >= WINDOW_FROM_ROWS)) {
    whenIdle(() => {
      if (tables.some((table) => table.rows.length >= WINDOW_FROM_ROWS && !table.view)) apply(tables, state, form);
    });
  }
}
