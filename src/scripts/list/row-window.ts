/**
 * Row windowing of a big list table (the rule is lib/domain/signals/table.ts's rowWindow): the table keeps only the rows near
 * the window's scroll position in the page (the page is the only scroll), spacer rows stand for the others, and aria-rowcount and aria-rowindex tell
 * assistive technology where a row is. Moving thousands of rows costs the browser a new layout box per row and makes
 * every later frame slower; a window of a few dozen rows re-sorts and scrolls in a frame or two. The pre-rendered
 * table stays whole for readers without JavaScript.
 */
import { rowsInView, rowWindow, WINDOW_OVERSCAN_ROWS, type RowWindow } from '../../lib/domain/signals/table';

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
  /**
   * With a pool, the body holds copies of the rows, each showing the row it was last filled from: a new result
   * rewrites their texts and attributes in place. Without one, the rows themselves come and go.
   */
  pool?: RowPool;
  /** True while the rows in the body do not show `order` yet (a new order that had no row on screen). */
  stale?: boolean;
  /** True while the rest of a new order's window waits for the frame that draws its rows on screen. */
  settling?: boolean;
}

/** The window's own rows: which row each one shows, and the ones out of the page for later. */
interface RowPool {
  shows: WeakMap<HTMLTableRowElement, HTMLTableRowElement>;
  spare: HTMLTableRowElement[];
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
export function startWindow(table: HTMLTableElement, rows: HTMLTableRowElement[], onRowShown: RowView['onRowShown'], overscan = WINDOW_OVERSCAN_ROWS, pooled = false): RowView | null {
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
    ...(pooled ? { pool: { shows: new WeakMap(), spare: [] } } : {}),
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
 * `measure` unless the geometry was just measured; `overscan` rows above and below the ones in view.
 */
export function renderWindow(view: RowView, force: boolean, measure = true, overscan = view.overscan): void {
  const { table } = view;
  // Measured each time: what is above the table (a filter bar that wraps, a landing page's cards) may have moved it.
  if (measure) measureWindow(view);
  const offset = view.scrollTop - view.bodyTop;
  const range = overscan === 0 ? rowsInView(offset, view.viewport, view.rowHeight, view.order.length) : rowWindow(offset, view.viewport, view.rowHeight, view.order.length, overscan);
  if (view.stale) force = true;
  if (!force && range.first === view.range.first && range.last === view.range.last) return;
  view.stale = false;
  view.range = range;
  table.setAttribute('aria-rowcount', String(view.order.length + 1));
  view.before.style.height = `${range.first * view.rowHeight}px`;
  view.after.style.height = `${(view.order.length - range.last) * view.rowHeight}px`;
  // Rows on screen only, with more of the order below them: the page's other rows are below the view, left for the
  // rest of the window to refill (taking them out of the page would cost the frame more than they do).
  if (view.pool) renderPooled(view, view.pool, force, overscan === 0 && range.last < view.order.length);
  else renderRows(view, force);
  // Only now, with a few dozen rows left, do the rows take their fixed height and full rendering.
  if (!table.hasAttribute('data-windowed')) {
    table.style.setProperty('--row-h', `${view.rowHeight}px`);
    table.dataset.windowed = '';
  }
}

/** Runs `work` in a task once the next frame is drawn (a message posted as the frame starts runs after its rendering). */
function afterNextFrame(work: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => work();
    channel.port2.postMessage(null);
  });
}

/**
 * Shows a new order (a new screen) through the window. Only the rows on screen are written in the caller's task, with
 * the geometry as last measured, so the next frame styles, lays out and paints no more than them; the rest of the
 * window (its overscan rows, or every row while the table is out of view) follows once that frame is drawn, measured
 * afresh then, when the layout is clean (the status lines above the table may have moved it).
 */
export function showOrder(view: RowView, order: number[]): void {
  const shown = Math.max(view.order.length, order.length) * view.rowHeight;
  view.order = order;
  const offset = view.scrollTop - view.bodyTop;
  if (offset < shown && offset + view.viewport > 0) renderWindow(view, true, false, 0);
  else view.stale = true;
  if (view.settling) return;
  view.settling = true;
  afterNextFrame(() => {
    view.settling = false;
    renderWindow(view, false);
  });
}

/** Puts the window's rows themselves in the body. */
function renderRows(view: RowView, force: boolean): void {
  const { table, range } = view;
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
  } else placeRows(body, wanted);
}

/** Puts `wanted` in the body in order: rows that stay keep their place (and keyboard focus); only the others move. */
function placeRows(body: HTMLTableSectionElement, wanted: HTMLTableRowElement[]): void {
  const keep = new Set(wanted);
  for (const row of [...body.rows]) if (!keep.has(row)) row.remove();
  let next: Element | null = body.firstElementChild;
  for (const row of wanted) {
    if (row === next) next = next.nextElementSibling;
    else body.insertBefore(row, next);
  }
}

const NONE: ReadonlySet<string> = new Set();

/** True when both are elements of one kind: the same tag and classes (a marker, the company line, a badge). */
function sameKind(a: Node | null, b: Node | null): boolean {
  return a instanceof Element && b instanceof Element && a.localName === b.localName && a.getAttribute('class') === b.getAttribute('class');
}

/**
 * Makes `target` show what `source` shows, changing only what differs: attributes, texts, and the children of an
 * element whose children differ in kind. A row changed in place keeps its boxes and styles, where a row put in the
 * page is styled and laid out afresh and the one it replaces torn down. `keep`: the target's own attributes.
 */
function copyInPlace(target: Element, source: Element, keep: ReadonlySet<string> = NONE): void {
  // Names and values as strings: reading `attributes` makes an Attr node per attribute, which costs more than the copy.
  const names = source.getAttributeNames();
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    const value = source.getAttribute(name)!;
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
  // The target now has every attribute of the source: any more are its own, to remove unless kept.
  const own = target.getAttributeNames();
  if (own.length > names.length) {
    for (const name of own) if (!keep.has(name) && !source.hasAttribute(name)) target.removeAttribute(name);
  }
  let to = target.firstChild;
  let child = source.firstChild;
  while (to !== null && child !== null) {
    const type = to.nodeType;
    if (type !== child.nodeType) break;
    if (type === Node.ELEMENT_NODE) {
      if ((to as Element).localName !== (child as Element).localName) break;
      // One part more or less (a row with a marker more, say): only that part comes or goes, so the parts after it keep
      // their boxes; turning one part into the next (a marker into the company line) would change its display and
      // build its box again, and take out the last one.
      if (!sameKind(to, child)) {
        if (sameKind(to.nextSibling, child)) {
          const extra: ChildNode = to;
          to = to.nextSibling!;
          extra.remove();
          continue;
        }
        if (sameKind(to, child.nextSibling)) {
          target.insertBefore(child.cloneNode(true), to);
          child = child.nextSibling!;
          continue;
        }
      }
      copyInPlace(to as Element, child as Element);
    } else if ((to as CharacterData).data !== (child as CharacterData).data) (to as CharacterData).data = (child as CharacterData).data;
    to = to.nextSibling;
    child = child.nextSibling;
  }
  // The rest differs in kind (a row with one marker more, say): its copies.
  while (to) {
    const next: ChildNode | null = to.nextSibling;
    to.remove();
    to = next;
  }
  for (; child; child = child.nextSibling) target.append(child.cloneNode(true));
}

/** The row's attributes the window sets itself. */
const WINDOW_ATTRIBUTES: ReadonlySet<string> = new Set(['aria-rowindex']);

/**
 * Fills the pool's rows with the window's rows. A new order (a new screen) with no focus in the body refills the rows
 * in the page in their places; otherwise (a scroll, or a new order while a row has focus) a row that stays in the
 * window keeps its element, so focus stays on it, and only the rows that leave are refilled and moved.
 */
function renderPooled(view: RowView, pool: RowPool, force: boolean, keepBelow: boolean): void {
  const { range } = view;
  const body = view.table.tBodies[0]!;
  const sources: HTMLTableRowElement[] = [];
  for (let position = range.first; position < range.last; position++) sources.push(view.rows[view.order[position]!]!);
  const inPage = [...body.rows].filter((row) => pool.shows.has(row));
  const focused = document.activeElement;
  const focusedRow = focused instanceof Node && body.contains(focused) ? inPage.find((row) => row.contains(focused)) : undefined;
  let slots: HTMLTableRowElement[];
  const positional = force && focusedRow === undefined;
  if (positional) {
    slots = sources.map((_, k) => inPage[k] ?? pool.spare.pop() ?? document.createElement('tr'));
  } else {
    const bySource = new Map(inPage.map((row) => [pool.shows.get(row)!, row]));
    const wanted = new Set(sources);
    const free = inPage.filter((row) => !wanted.has(pool.shows.get(row)!) && row !== focusedRow);
    slots = sources.map((source) => bySource.get(source) ?? free.pop() ?? pool.spare.pop() ?? document.createElement('tr'));
    // A refilled row changes place: out of the page first, so the rows that stay are not moved around it (a moved row loses focus).
    sources.forEach((source, k) => {
      if (pool.shows.get(slots[k]!) !== source) slots[k]!.remove();
    });
  }
  sources.forEach((source, k) => {
    const slot = slots[k]!;
    if (pool.shows.get(slot) !== source) {
      // The source is brought up to date first (its star, its name for the keyboard): the copy then carries them, and
      // the row in the page is not rewritten twice (an attribute removed by the copy and set again restyles the row).
      view.onRowShown(source);
      copyInPlace(slot, source, WINDOW_ATTRIBUTES);
      pool.shows.set(slot, source);
    } else view.onRowShown(slot);
    const index = String(range.first + k + 2);
    if (slot.getAttribute('aria-rowindex') !== index) slot.setAttribute('aria-rowindex', index);
  });
  const below = positional && keepBelow ? inPage.slice(slots.length) : [];
  const wanted = [view.before, ...slots, ...below, view.after];
  // The rows the page came with (every row) go at once; rows of the pool that leave are kept for later.
  if (body.rows.length > 4 * wanted.length) body.replaceChildren(...wanted);
  else {
    const keep = new Set(wanted);
    for (const row of inPage) if (!keep.has(row)) pool.spare.push(row);
    placeRows(body, wanted);
  }
}
