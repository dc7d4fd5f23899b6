/**
 * Row windowing of a big list table (the rule is lib/domain/signals/table.ts's rowWindow): the table keeps only the rows near
 * the window's scroll position in the page (the page is the only scroll), spacer rows stand for the others, and aria-rowcount and aria-rowindex tell
 * assistive technology where a row is. Moving thousands of rows costs the browser a new layout box per row and makes
 * every later frame slower; a window of a few dozen rows re-sorts and scrolls in a frame or two. The pre-rendered
 * table stays whole for readers without JavaScript.
 */
import { rowWindow, WINDOW_OVERSCAN_ROWS, type RowWindow } from '../../lib/domain/signals/table';

/** A windowed table: its rows, the shown rows in order, and which of them are in the page. */
export interface RowView {
  table: HTMLTableElement;
  rows: HTMLTableRowElement[];
  rowHeight: number;
  /** Where the first row starts in the page, less the height the stuck header row covers at the top of the window. */
  bodyTop: number;
  /** The window's scroll position and the height it shows rows in below the stuck header, as last measured. */
  scrollTop: number;
  viewport: number;
  before: HTMLTableRowElement;
  after: HTMLTableRowElement;
  /** Row indexes of the rows that pass the filters, in the shown order. */
  order: number[];
  range: RowWindow;
  /** Rows kept in the page above and below the visible ones. */
  overscan: number;
  frame: number;
  /** Brings a row up to date as it comes into the window (its star, say). */
  onRowShown: (row: HTMLTableRowElement) => void;
}

/** A spacer row standing for rows outside the window. */
function spacerRow(): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.className = 'gap';
  row.setAttribute('aria-hidden', 'true');
  return row;
}

/** How far down the window the stuck header row reaches (its sticky top plus its height; 0 when it does not stick). */
function stuckBottom(table: HTMLTableElement): number {
  const head = table.tHead;
  if (!head) return 0;
  const top = parseFloat(getComputedStyle(head).top);
  return Number.isNaN(top) ? 0 : top + head.offsetHeight;
}

/** Measures where the table's rows are against the window's scroll position. */
function measureWindow(view: Pick<RowView, 'table' | 'scrollTop' | 'viewport' | 'bodyTop'>): void {
  const stuck = stuckBottom(view.table);
  view.scrollTop = window.scrollY;
  view.viewport = window.innerHeight - stuck;
  view.bodyTop = view.table.tBodies[0]!.getBoundingClientRect().top + view.scrollTop - stuck;
}

/**
 * Switches a table to showing only the rows near the window's scroll position; null when it cannot (not displayed).
 * Every measurement comes first: once anything changes, the next read would lay out thousands of rows again. The rows
 * are put in the page by the first `renderWindow`.
 */
export function startWindow(table: HTMLTableElement, rows: HTMLTableRowElement[], onRowShown: RowView['onRowShown'], overscan = WINDOW_OVERSCAN_ROWS): RowView | null {
  const sample = rows[0];
  const body = table.tBodies[0];
  if (!sample || !body) return null;
  const geometry = { table, scrollTop: 0, viewport: 0, bodyTop: 0 };
  measureWindow(geometry);
  // The first row laid out in full (it may be outside the viewport, where content-visibility skips its content).
  sample.style.contentVisibility = 'visible';
  const rowHeight = sample.getBoundingClientRect().height;
  sample.style.contentVisibility = '';
  if (!(rowHeight > 0)) return null; // not displayed (a hidden panel): stay a plain table
  table.tHead?.rows[0]?.setAttribute('aria-rowindex', '1');
  for (const row of rows) row.hidden = false;
  const view: RowView = {
    ...geometry,
    rows,
    rowHeight,
    before: spacerRow(),
    after: spacerRow(),
    order: rows.map((_, i) => i),
    range: { first: 0, last: 0 },
    overscan,
    frame: 0,
    onRowShown,
  };
  const schedule = () => {
    if (view.frame === 0) {
      view.frame = requestAnimationFrame(() => {
        view.frame = 0;
        renderWindow(view, false);
      });
    }
  };
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  // Focus scrolls its row into view at once, but the scroll event waits for the next frame: a keyboard user who
  // tabs faster than frames come (a busy phone) would reach the window's last row and leave the table. The window
  // follows the focus before the next key instead.
  table.tBodies[0]!.addEventListener('focusin', () => renderWindow(view, false));
  return view;
}

/**
 * Puts the window's rows (and the spacers for the rest) in the body: `force` after the shown order changed,
 * `measure` unless the geometry was just measured.
 */
export function renderWindow(view: RowView, force: boolean, measure = true): void {
  const { table } = view;
  // Measured each time: what is above the table (a filter bar that wraps, a landing page's cards) may have moved it.
  if (measure) measureWindow(view);
  const range = rowWindow(view.scrollTop - view.bodyTop, view.viewport, view.rowHeight, view.order.length, view.overscan);
  if (!force && range.first === view.range.first && range.last === view.range.last) return;
  view.range = range;
  table.setAttribute('aria-rowcount', String(view.order.length + 1));
  view.before.style.height = `${range.first * view.rowHeight}px`;
  view.after.style.height = `${(view.order.length - range.last) * view.rowHeight}px`;
  const wanted: HTMLTableRowElement[] = [view.before];
  for (let position = range.first; position < range.last; position++) {
    const row = view.rows[view.order[position]!]!;
    row.setAttribute('aria-rowindex', String(position + 2));
    view.onRowShown(row);
    wanted.push(row);
  }
  wanted.push(view.after);
  const body = table.tBodies[0]!;
  const focused = document.activeElement;
  // A new order (a re-sort, a new filter) with no focus in the body: one bulk replace, far cheaper than a removal per row.
  const bulk = body.rows.length > 4 * wanted.length || (force && !(focused instanceof Node && body.contains(focused)));
  if (bulk) {
    body.replaceChildren(...wanted);
    if (focused instanceof HTMLElement && focused !== document.activeElement && body.contains(focused)) focused.focus({ preventScroll: true });
  } else {
    // Rows that stay keep their place (and keyboard focus); only the rows that leave or arrive move.
    const keep = new Set(wanted);
    for (const row of [...body.rows]) if (!keep.has(row)) row.remove();
    let next: Element | null = body.firstElementChild;
    for (const row of wanted) {
      if (row === next) next = next.nextElementSibling;
      else body.insertBefore(row, next);
    }
  }
  // Only now, with a few dozen rows left, do the rows take their fixed height and full rendering.
  if (!table.hasAttribute('data-windowed')) {
    table.style.setProperty('--row-h', `${view.rowHeight}px`);
    table.dataset.windowed = '';
  }
}
