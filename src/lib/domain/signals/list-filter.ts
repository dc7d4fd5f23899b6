/**
 * A filtered list address without JavaScript: the Node server answers `/all-signals?direction=bearish`
 * with the pre-rendered page whose rows the filters exclude carry `hidden`, the filter form showing the query, and the
 * count of the stocks shown; the same `matchesFilters` the table script runs decides. The script, when it runs,
 * reads the same URL state and agrees. On a CDN without our server the script alone does this.
 */
import { FILTERABLE_PATHS } from '../site/pages';
import { escapeHtml } from '../text/text';
import { listOrder, matchesFilters, parseSortNumber, stockCountText, strengthPermutation, type FilterableRow, type TableState } from './table';
import { hubAddress, sectorHubText } from './hubs';

/** The filter bar's link to a chosen sector's hub (the page script makes the same one). */
export function sectorHubLink(sector: string): string {
  return `<a class="filter-hub link text-sm" data-sector-hub href="${escapeHtml(hubAddress('sector', sector))}">${escapeHtml(sectorHubText(sector))}</a>`;
}

/** The list pages whose filter form a query fills (the page table's `filterable` rows): their HTML holds every row. */
export const FILTERABLE_LIST_PATHS: ReadonlySet<string> = new Set(FILTERABLE_PATHS);

/** True when a query asks for a filter the server can apply (text, direction or sector). */
export function hasServerFilter(state: TableState): boolean {
  return state.q !== '' || state.direction !== '' || state.sector !== '';
}


const ROW = /<tr\b[\s\S]*?<\/tr>/g;
const SCORE_CELL = /<td class="c-cScore">([^<]*)/;

/**
 * A table's HTML with its body rows by signal strength when `state` asks for that order (a direction, no sort). A
 * named sort keeps the page's order: sorting by a column is the script's.
 */
function byStrength(table: string, state: TableState): string {
  if (listOrder(state, (key) => key === 'cScore' || key === state.sort).by !== 'strength') return table;
  return table.replace(/(<tbody>)([\s\S]*?)(<\/tbody>)/, (_, open: string, body: string, close: string) => {
    const rows = body.match(ROW) ?? [];
    const order = strengthPermutation(rows.map((row) => parseSortNumber(SCORE_CELL.exec(row)?.[1] ?? '')));
    return `${open}${order.map((i) => rows[i]).join('')}${close}`;
  });
}

/**
 * The page's HTML with the filters of `state` applied (a direction with no sort also orders the rows by signal
 * strength, as the table script does): rows that do not match get `hidden` (kept, so the script can
 * show them again when a filter is cleared), a table left empty shows its "No stocks match" line, the form's fields
 * hold the query and the count says how many stocks are shown. `rowOf` gives what the filters read about a ticker.
 * The watched filter needs the browser's watchlist and is left to the script.
 */
export function filterListHtml(html: string, state: TableState, rowOf: (ticker: string) => FilterableRow | undefined): string {
  const filters = { ...state, watched: false };
  const shown = new Set<string>();
  const total = new Set<string>();
  let shownRows = 0;
  let totalRows = 0;
  let out = html.replace(/(<table\b[\s\S]*?<\/table>)((?:<p class="table-empty">[^<]*<\/p>)?)<p class="table-empty" data-no-match hidden>/g, (_, table: string, empty: string) => {
    let visible = 0;
    const rows = table.replace(/<tr data-t="([^"]+)"/g, (tag: string, ticker: string) => {
      total.add(ticker);
      totalRows += 1;
      const row = rowOf(ticker);
      if (row !== undefined && matchesFilters(row, filters, new Set())) {
        visible += 1;
        shownRows += 1;
        shown.add(ticker);
        return tag;
      }
      return `<tr hidden data-t="${ticker}"`;
    });
    const noMatch = '<p class="table-empty" data-no-match';
    return `${byStrength(rows, state)}${empty}${visible === 0 && empty === '' ? `${noMatch}>` : `${noMatch} hidden>`}`;
  });
  out = out.replace(/(<form method="get" class="filters" data-table-filters[\s\S]*?<\/form>)/, (form: string) =>
    form
      .replace('<input type="search" name="q"', `<input type="search" name="q" value="${escapeHtml(state.q)}"`)
      .replace(/(<select name="direction">[\s\S]*?<\/select>)/, (select: string) => select.replace(`<option value="${state.direction}">`, `<option value="${state.direction}" selected>`))
      .replace(/(<select name="sector">[\s\S]*?<\/select>)/, (select: string) => select.replace(`<option value="${escapeHtml(state.sector)}">`, `<option value="${escapeHtml(state.sector)}" selected>`))
      .replace(/<a class="filter-hub[^"]*"[^>]*data-sector-hub[^>]*>[^<]*<\/a>/, (link: string) => (form.includes(`<option value="${escapeHtml(state.sector)}">`) && state.sector !== '' ? sectorHubLink(state.sector) : link))
      .replace(/(<p class="filter-count" aria-live="polite" data-count="(stocks|changes)">)[^<]*(<\/p>)/, (_, open: string, unit: string, close: string) =>
        `${open}${unit === 'changes' ? stockCountText(shownRows, totalRows, 'changes') : stockCountText(shown.size, total.size)}${close}`),
  );
  return out;
}
