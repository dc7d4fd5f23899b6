/**
 * Enhances the list tables of a page in place (no re-render from a JSON copy): header buttons sort by any column,
 * the filter form filters by text, direction, sector and watched, the state lives in the URL query, and the star
 * toggles the watchlist. A chosen top ticker passes the paywall rule before the link may navigate.
 */
import {
  matchesFilters,
  nextSort,
  parseSortNumber,
  parseTableState,
  sortPermutation,
  tableStateToQuery,
  type FilterableRow,
  type SortValue,
  type TableState,
} from '../lib/domain/table';
import { signalDirection } from '../lib/domain/signal';
import { $watchedSet, toggleWatch } from '../stores/watchlist';
import { mayOpenStock } from '../stores/paywall';

interface Table {
  element: HTMLTableElement;
  body: HTMLTableSectionElement;
  rows: HTMLTableRowElement[];
  info: FilterableRow[];
  headers: Map<string, { th: HTMLTableCellElement; index: number; kind: 'num' | 'text'; button: HTMLButtonElement }>;
  values: Map<string, SortValue[]>;
  shownOrder: string;
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
  return { element, body, rows, info: [], headers, values: new Map(), shownOrder: '' };
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
  let shown = 0;
  let total = 0;
  for (const table of tables) {
    let visible = 0;
    const info = filterInfo(table);
    table.rows.forEach((row, i) => {
      const match = matchesFilters(info[i]!, state, watched);
      row.hidden = !match;
      if (match) visible += 1;
    });
    shown += visible;
    total += table.rows.length;
    const noMatch = table.element.parentElement?.querySelector<HTMLElement>('[data-no-match]');
    if (noMatch) noMatch.hidden = visible > 0 || table.rows.length === 0;
    const sortable = state.sort !== '' && table.headers.has(state.sort);
    if (sortable) showOrder(table, sortPermutation(columnValues(table, state.sort), state.order), `${state.sort}:${state.order}`);
    else showOrder(table, table.rows.map((_, i) => i), '');
    for (const [key, header] of table.headers) {
      if (sortable && key === state.sort) header.th.setAttribute('aria-sort', state.order === 'asc' ? 'ascending' : 'descending');
      else header.th.removeAttribute('aria-sort');
    }
  }
  const count = form?.querySelector('[data-count]');
  if (count) count.textContent = shown === total ? `${total} rows` : `Showing ${shown} of ${total} rows`;
}

function readForm(form: HTMLFormElement | null, state: TableState): TableState {
  if (!form) return state;
  const data = new FormData(form);
  const params = new URLSearchParams();
  for (const name of ['q', 'direction', 'sector']) params.set(name, String(data.get(name) ?? ''));
  if (data.get('watched')) params.set('watched', '1');
  const filters = parseTableState(params);
  return { ...state, q: filters.q, direction: filters.direction, sector: filters.sector, watched: filters.watched };
}

function fillForm(form: HTMLFormElement | null, state: TableState): void {
  if (!form) return;
  const field = <T extends HTMLInputElement | HTMLSelectElement>(name: string) => form.elements.namedItem(name) as T | null;
  const q = field<HTMLInputElement>('q');
  if (q) q.value = state.q;
  const direction = field<HTMLSelectElement>('direction');
  if (direction) direction.value = state.direction;
  const sector = field<HTMLSelectElement>('sector');
  if (sector) sector.value = [...sector.options].some((o) => o.value === state.sector) ? state.sector : '';
  const watched = field<HTMLInputElement>('watched');
  if (watched) watched.checked = state.watched;
}

/** Enhances every [data-sortable] table and the [data-table-filters] form of the page. */
export function enhanceTables(): void {
  const tables = [...document.querySelectorAll<HTMLTableElement>('table[data-sortable]')].map(readTable);
  const form = document.querySelector<HTMLFormElement>('form[data-table-filters]');
  let state = parseTableState(location.search);
  fillForm(form, state);

  const update = (next: TableState) => {
    state = next;
    history.replaceState(history.state, '', `${location.pathname}${tableStateToQuery(state)}${location.hash}`);
    apply(tables, state, form);
  };

  for (const table of tables) {
    for (const [key, header] of table.headers) header.button.addEventListener('click', () => update(nextSort(state, key, header.kind)));
  }
  if (form) {
    form.addEventListener('input', () => update(readForm(form, state)));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      update(readForm(form, state));
    });
  }

  // The star: watch or unwatch; every star of the ticker on the page follows the watchlist.
  document.addEventListener('click', (event) => {
    const star = (event.target as Element).closest<HTMLButtonElement>('button.star');
    const ticker = star?.closest<HTMLElement>('[data-t]')?.dataset.t;
    if (ticker) toggleWatch(ticker);
  });
  $watchedSet.subscribe((watched) => {
    // The page is rendered with every star off: with an empty watchlist and no star on there is nothing to change,
    // and otherwise only the stars that change are touched.
    if (watched.size > 0 || document.querySelector('button.star[aria-pressed="true"]')) {
      document.querySelectorAll<HTMLButtonElement>('button.star').forEach((star) => {
        const on = watched.has(star.closest<HTMLElement>('[data-t]')?.dataset.t ?? '');
        if ((star.getAttribute('aria-pressed') === 'true') === on) return;
        star.setAttribute('aria-pressed', String(on));
        star.textContent = on ? '★' : '☆';
      });
    }
    if (state.watched) apply(tables, state, form);
  });

  // Spec section 4: with the Top Signals paywall flag on, a top ticker opens the paywall instead of its detail.
  // The detail modal applies the same rule when it handles the click first (it then prevents the navigation).
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-detail-link]');
    if (link && !mayOpenStock(link.dataset.top === 'true')) event.preventDefault();
  });

  // The pre-rendered page already shows the default view: only a query from the URL needs work on load.
  if (tableStateToQuery(state) !== '') apply(tables, state, form);
}
