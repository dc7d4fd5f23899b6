/**
 * Sorting, filtering and the URL state of the list tables (DESIGN.md "Lists": sort by any column, filter by text,
 * direction, sector and watched; the state lives in the URL query). Pure: the table script feeds it values read
 * from the pre-rendered rows and moves the rows itself.
 */
import type { SignalDirection } from './signal';

/** Sort order of a column. */
export type SortOrder = 'asc' | 'desc';

/** Everything a shared view of a list carries in its URL query. */
export interface TableState {
  /** Text matched against ticker and company name, case-insensitively. */
  q: string;
  /** Only this direction, or every direction when empty. */
  direction: SignalDirection | '';
  /** Only this sector, or every sector when empty. */
  sector: string;
  /** Only watched tickers. */
  watched: boolean;
  /** Column key to sort by, or empty for the list's own order. */
  sort: string;
  order: SortOrder;
}

/** The state of a list nobody has touched: no filter, the list's own order. */
export const DEFAULT_TABLE_STATE: Readonly<TableState> = Object.freeze({
  q: '',
  direction: '',
  sector: '',
  watched: false,
  sort: '',
  order: 'desc',
});

const DIRECTIONS = new Set(['bullish', 'bearish', 'neutral']);
const SORT_KEY = /^[a-zA-Z0-9]{1,24}$/;

/** Reads the table state from a URL query; unknown or malformed values fall back to the defaults. */
export function parseTableState(search: string | URLSearchParams): TableState {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const direction = params.get('direction') ?? '';
  const sort = params.get('sort') ?? '';
  return {
    q: (params.get('q') ?? '').trim().slice(0, 100),
    direction: DIRECTIONS.has(direction) ? (direction as SignalDirection) : '',
    sector: (params.get('sector') ?? '').slice(0, 100),
    watched: params.get('watched') === '1',
    sort: SORT_KEY.test(sort) ? sort : '',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

/** The URL query of a table state, without the parts that equal the defaults ('' for the default state). */
export function tableStateToQuery(state: TableState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.direction) params.set('direction', state.direction);
  if (state.sector) params.set('sector', state.sector);
  if (state.watched) params.set('watched', '1');
  if (state.sort) {
    params.set('sort', state.sort);
    params.set('order', state.order);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** What a row offers the filters. */
export interface FilterableRow {
  ticker: string;
  company: string;
  direction: SignalDirection;
  sector: string;
}

/** True when a row passes every filter of the state; `watched` holds upper-case tickers. */
export function matchesFilters(row: FilterableRow, state: TableState, watched: ReadonlySet<string>): boolean {
  if (state.direction && row.direction !== state.direction) return false;
  if (state.sector && row.sector !== state.sector) return false;
  if (state.watched && !watched.has(row.ticker)) return false;
  if (state.q) {
    const q = state.q.toLowerCase();
    if (!row.ticker.toLowerCase().includes(q) && !row.company.toLowerCase().includes(q)) return false;
  }
  return true;
}

/** A sortable cell value: a number, or text (missing numbers are NaN and sort last either way). */
export type SortValue = number | string;

/**
 * The order in which to show rows sorted by `values` (one per row): a permutation of row indexes, stable
 * (equal values keep their original order), NaN last in both directions. Numbers compare directly and text by
 * lower-cased code units, so 6,000 rows sort in a few milliseconds.
 */
export function sortPermutation(values: readonly SortValue[], order: SortOrder): number[] {
  const indexes = Array.from(values, (_, i) => i);
  const sign = order === 'asc' ? 1 : -1;
  if (values.every((v) => typeof v === 'number')) {
    const nums = values as readonly number[];
    return indexes.sort((a, b) => {
      const x = nums[a]!;
      const y = nums[b]!;
      const xn = Number.isNaN(x);
      const yn = Number.isNaN(y);
      if (xn || yn) return xn === yn ? a - b : xn ? 1 : -1;
      return (x - y) * sign || a - b;
    });
  }
  // Lower-cased code-unit order: right for tickers, ISO dates and names, and far faster than a collator.
  const texts = values.map((v) => String(v).toLowerCase());
  return indexes.sort((a, b) => {
    const x = texts[a]!;
    const y = texts[b]!;
    return (x < y ? -1 : x > y ? 1 : 0) * sign || a - b;
  });
}

/** How a list orders its rows: the reader's sort, by signal strength, or the list's own order. */
export type ListOrder = { by: 'column'; key: string; order: SortOrder } | { by: 'strength' } | { by: 'list' };

/**
 * The order a list shows: the column the reader chose; else, while a direction filter is on, signal
 * strength (|C-Score| descending, so filtered to Bearish the -98.07 comes before the -65.22); else the list's own.
 * `hasColumn` says whether the table has the chosen column (a shared address may name one it lacks).
 */
export function listOrder(state: TableState, hasColumn: (key: string) => boolean): ListOrder {
  if (state.sort !== '' && hasColumn(state.sort)) return { by: 'column', key: state.sort, order: state.order };
  if (state.direction !== '' && hasColumn('cScore')) return { by: 'strength' };
  return { by: 'list' };
}

/** Row indexes by signal strength: |C-Score| descending, stable, missing scores last. */
export function strengthPermutation(scores: readonly SortValue[]): number[] {
  return sortPermutation(scores.map((s) => (typeof s === 'number' ? Math.abs(s) : Number.NaN)), 'desc');
}

/** Reads a displayed number ('72.34', '+5.0', '3 of 7', '—') as a number, NaN when there is none. */
export function parseSortNumber(text: string): number {
  const match = /-?\d+(?:\.\d+)?/.exec(text.replace(/,/g, ''));
  return match ? Number(match[0]) : Number.NaN;
}

/**
 * The state after a click on a column header: a new column starts in its natural order (numbers descending,
 * text ascending); the same column flips its order.
 */
export function nextSort(state: TableState, key: string, kind: 'num' | 'text'): TableState {
  if (state.sort === key) return { ...state, order: state.order === 'asc' ? 'desc' : 'asc' };
  return { ...state, sort: key, order: kind === 'num' ? 'desc' : 'asc' };
}

/** Tables with at least this many rows show only the rows near the scroll position once the page script runs. */
export const WINDOW_FROM_ROWS = 1000;
/** Rows kept in the page above and below the visible ones, so keyboard focus and quick scrolls find rows there. */
export const WINDOW_OVERSCAN_ROWS = 12;

/** The rows to keep in the page: positions `first` (inclusive) to `last` (exclusive) of the shown order. */
export interface RowWindow {
  first: number;
  last: number;
}

/**
 * Which of `count` equal-height rows a scroll container shows when it is scrolled `offset` px past the first row
 * and is `viewport` px tall, widened by `overscan` rows on each side and clamped to the rows there are. A negative
 * offset is a table that starts below the top of the view: only the part of the view it reaches shows rows.
 */
export function rowWindow(offset: number, viewport: number, rowHeight: number, count: number, overscan = WINDOW_OVERSCAN_ROWS): RowWindow {
  if (count <= 0 || !(rowHeight > 0)) return { first: 0, last: 0 };
  const visible = Math.ceil(Math.max(0, viewport + Math.min(0, offset)) / rowHeight) + 1;
  // Scrolled past the end (the list just got shorter): the last rows.
  const top = Math.min(Math.floor(Math.max(0, offset) / rowHeight), Math.max(0, count - visible));
  const first = Math.min(count, Math.max(0, top - overscan));
  const last = Math.min(count, top + visible + overscan);
  return { first: Math.min(first, last), last };
}

/**
 * Exactly the rows a view shows: of `count` equal-height rows, those that overlap a view `viewport` px tall scrolled
 * `offset` px past the first row (no overscan, no spare row). Scrolled past the end (the list just got shorter), the
 * last rows, as rowWindow gives them.
 */
export function rowsInView(offset: number, viewport: number, rowHeight: number, count: number): RowWindow {
  if (count <= 0 || !(rowHeight > 0)) return { first: 0, last: 0 };
  const first = Math.max(0, Math.floor(offset / rowHeight));
  if (first >= count) return rowWindow(offset, viewport, rowHeight, count, 0);
  return { first, last: Math.min(count, Math.max(first, Math.ceil((offset + viewport) / rowHeight))) };
}

/** What a list's count counts: stocks (a ticker once), or changes (each row: Reversals & Exits, where a stock can exit twice). */
export type CountUnit = 'stocks' | 'changes';

/** The filter bar's count: '25 stocks', or 'Showing 3 of 25 stocks' while a filter hides some (or '41 changes'). */
export function stockCountText(shown: number, total: number, unit: CountUnit = 'stocks'): string {
  const stocks = (n: number) => `${n} ${n === 1 ? unit.slice(0, -1) : unit}`;
  return shown === total ? stocks(total) : `Showing ${shown} of ${stocks(total)}`;
}
