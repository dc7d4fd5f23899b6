/**
 * Enhances the list tables of a page in place (no re-render from a JSON copy): header buttons sort by any column,
 * the filter form filters by text, direction, sector and watched, the state lives in the URL query, and the star
 * toggles the watchlist. A chosen top ticker passes the paywall rule before the link may navigate.
 *
 * A table of WINDOW_FROM_ROWS rows or more then keeps only the rows near its scroll position in the page (spacer rows
 * stand for the others, aria-rowcount and aria-rowindex tell assistive technology where a row is). Moving thousands
 * of rows costs the browser a new layout box per row and makes every later frame slower; a window of a few dozen
 * rows re-sorts and scrolls in a frame or two. The pre-rendered table stays whole for readers without JavaScript.
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
  type RowWindow,
  rowWindow,
  WINDOW_FROM_ROWS,
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
  /** The row order of the last sort asked for, kept while only the filters change. */
  sorted: { signature: string; order: number[] };
  /** Set once the table shows only the rows near its scroll position. */
  view?: RowView;
}

/** A windowed table: the shown rows in order, and which of them are in the page. */
interface RowView {
  scroller: HTMLElement;
  rowHeight: number;
  /** Where the first row starts below the top of the scroller's content, under the sticky header. */
  bodyTop: number;
  /** The scroller's scroll position and the height it shows rows in, as last measured. */
  scrollTop: number;
  viewport: number;
  before: HTMLTableRowElement;
  after: HTMLTableRowElement;
  /** Row indexes of the rows that pass the filters, in the shown order. */
  order: number[];
  range: RowWindow;
  frame: number;
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
  return { element, body, rows, info: [], headers, values: new Map(), shownOrder: '', sorted: { signature: '', order: rows.map((_, i) => i) } };
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
    // A table just switched to its window was measured there: measuring again now would lay out every row.
    const measured = !table.view && table.rows.length >= WINDOW_FROM_ROWS && startWindow(table);
    const info = filterInfo(table);
    const sortable = state.sort !== '' && table.headers.has(state.sort);
    const order = sortedOrder(table, sortable ? state : null);
    let visible = 0;
    if (table.view) {
      table.view.order = order.filter((i) => matchesFilters(info[i]!, state, watched));
      visible = table.view.order.length;
      renderWindow(table, true, !measured);
    } else {
      table.rows.forEach((row, i) => {
        const match = matchesFilters(info[i]!, state, watched);
        row.hidden = !match;
        if (match) visible += 1;
      });
      showOrder(table, order, sortable ? `${state.sort}:${state.order}` : '');
    }
    shown += visible;
    total += table.rows.length;
    const noMatch = table.element.parentElement?.querySelector<HTMLElement>('[data-no-match]');
    if (noMatch) noMatch.hidden = visible > 0 || table.rows.length === 0;
    for (const [key, header] of table.headers) {
      if (sortable && key === state.sort) header.th.setAttribute('aria-sort', state.order === 'asc' ? 'ascending' : 'descending');
      else header.th.removeAttribute('aria-sort');
    }
  }
  const count = form?.querySelector('[data-count]');
  if (count) count.textContent = shown === total ? `${total} rows` : `Showing ${shown} of ${total} rows`;
}

/** Row indexes in the order of `state`'s sort (null: the pre-rendered order), computed once per sort. */
function sortedOrder(table: Table, state: TableState | null): number[] {
  const signature = state ? `${state.sort}:${state.order}` : '';
  if (table.sorted.signature !== signature) {
    table.sorted = { signature, order: state ? sortPermutation(columnValues(table, state.sort), state.order) : table.rows.map((_, i) => i) };
  }
  return table.sorted.order;
}

/** A spacer row standing for rows outside the window. */
function spacerRow(): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.className = 'gap';
  row.setAttribute('aria-hidden', 'true');
  return row;
}

/**
 * Switches a table in a scroll container to showing only the rows near the scroll position; true when it did.
 * Every measurement comes first: once anything changes, the next read would lay out thousands of rows again.
 */
function startWindow(table: Table): boolean {
  const scroller = table.element.closest<HTMLElement>('.table-scroll');
  const sample = table.rows[0];
  if (!scroller || !sample) return false;
  const head = table.element.tHead?.getBoundingClientRect().height ?? 0;
  const scrollTop = scroller.scrollTop;
  const viewport = scroller.clientHeight - head;
  const bodyTop = table.body.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scrollTop - head;
  // The first row laid out in full (it may be outside the viewport, where content-visibility skips its content).
  sample.style.contentVisibility = 'visible';
  const rowHeight = sample.getBoundingClientRect().height;
  sample.style.contentVisibility = '';
  if (!(rowHeight > 0)) return false; // not displayed (a hidden panel): stay a plain table
  table.element.tHead?.rows[0]?.setAttribute('aria-rowindex', '1');
  for (const row of table.rows) row.hidden = false;
  const view: RowView = {
    scroller,
    rowHeight,
    bodyTop,
    scrollTop,
    viewport,
    before: spacerRow(),
    after: spacerRow(),
    order: table.rows.map((_, i) => i),
    range: { first: 0, last: 0 },
    frame: 0,
  };
  table.view = view;
  const schedule = () => {
    if (view.frame === 0) {
      view.frame = requestAnimationFrame(() => {
        view.frame = 0;
        renderWindow(table, false);
      });
    }
  };
  scroller.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  return true;
}

/**
 * Puts the window's rows (and the spacers for the rest) in the body: `force` after the shown order changed,
 * `measure` unless the scroller's geometry was just measured.
 */
function renderWindow(table: Table, force: boolean, measure = true): void {
  const view = table.view!;
  if (measure) {
    view.scrollTop = view.scroller.scrollTop;
    view.viewport = view.scroller.clientHeight - (table.element.tHead?.offsetHeight ?? 0);
  }
  const range = rowWindow(view.scrollTop - view.bodyTop, view.viewport, view.rowHeight, view.order.length);
  if (!force && range.first === view.range.first && range.last === view.range.last) return;
  view.range = range;
  table.element.setAttribute('aria-rowcount', String(view.order.length + 1));
  view.before.style.height = `${range.first * view.rowHeight}px`;
  view.after.style.height = `${(view.order.length - range.last) * view.rowHeight}px`;
  const wanted: HTMLTableRowElement[] = [view.before];
  const watched = $watchedSet.get();
  for (let position = range.first; position < range.last; position++) {
    const row = table.rows[view.order[position]!]!;
    row.setAttribute('aria-rowindex', String(position + 2));
    const star = row.querySelector<HTMLButtonElement>('button.star');
    if (star) showStar(star, watched);
    wanted.push(row);
  }
  wanted.push(view.after);
  const { body } = table;
  if (body.rows.length > 4 * wanted.length) {
    // Most rows leave (the first window of a whole table): one bulk replace, far cheaper than a removal per row.
    const focused = document.activeElement;
    body.replaceChildren(...wanted);
    if (focused instanceof HTMLElement && focused !== document.activeElement && body.contains(focused)) focused.focus({ preventScroll: true });
    // Only now, with a few dozen rows left, do the rows take their fixed height and full rendering.
    if (!table.element.hasAttribute('data-windowed')) {
      table.element.style.setProperty('--row-h', `${view.rowHeight}px`);
      table.element.dataset.windowed = '';
    }
    return;
  }
  // Rows that stay keep their place (and keyboard focus); only the rows that leave or arrive move.
  const keep = new Set(wanted);
  for (const row of [...body.rows]) if (!keep.has(row)) row.remove();
  let next: Element | null = body.firstElementChild;
  for (const row of wanted) {
    if (row === next) next = next.nextElementSibling;
    else body.insertBefore(row, next);
  }
}

/** Shows whether the star's ticker is on the watchlist. */
function showStar(star: HTMLButtonElement, watched: ReadonlySet<string>): void {
  const on = watched.has(star.closest<HTMLElement>('[data-t]')?.dataset.t ?? '');
  if ((star.getAttribute('aria-pressed') === 'true') === on) return;
  star.setAttribute('aria-pressed', String(on));
  star.textContent = on ? '★' : '☆';
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
    // A windowed table's rows outside the page catch up when they come into its window.
    if (watched.size > 0 || document.querySelector('button.star[aria-pressed="true"]')) {
      document.querySelectorAll<HTMLButtonElement>('button.star').forEach((star) => showStar(star, watched));
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
  // A big table switches to its window once the page is idle (the first sort or filter would do it otherwise).
  if (tableStateToQuery(state) !== '') apply(tables, state, form);
  else if (tables.some((table) => table.rows.length >= WINDOW_FROM_ROWS)) {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
    idle(() => {
      if (tables.some((table) => table.rows.length >= WINDOW_FROM_ROWS && !table.view)) apply(tables, state, form);
    });
  }
}
