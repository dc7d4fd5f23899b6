/**
 * The screener's page script: every change of the form runs the screen (lib/domain/signals/screener.ts runScreen) on
 * the rows' data (SCREEN_ROWS_PATH, loaded after the first paint) and shows the result in the lists' table, in place;
 * the address follows the screen. From the Node server the page came with the result's rows only: the static page's
 * rows are loaded with the data.
 */
import { parseScreen, runScreen, screenCountText, missingText, screenToQuery, SCREEN_CSV_HEADER, screenCsvRow, type ParsedScreen, type ScreenRow } from '../../lib/domain/signals/screener';
import { SCREEN_ROWS_PATH, unpackScreenRows } from '../../lib/domain/signals/screener-page';
import { fetchStaticText } from '../../lib/client/static-files';
import { WINDOW_FROM_ROWS } from '../../lib/domain/signals/table';
import { $watchedSet } from '../../stores/watchlist';
import { renderWindow, startWindow, type RowView } from '../list/row-window';
import { enhanceStars, showRowStar } from '../list/stars';
import { enhanceRowChoice, makeRowChoosable } from '../list/row-choose';

/** The table's column keys that a screen can sort by, as screen keys. */
const SORTABLE: Record<string, string> = {
  ticker: 'ticker', cScore: 'cscore', delta: 'delta', market: 'market', accuracy: 'accuracy', relevance: 'relevance',
  avg7: 'avg7', avg14: 'avg14', days7: 'days7', days14: 'days14',
};

interface State {
  table: HTMLTableElement;
  body: HTMLTableSectionElement;
  form: HTMLFormElement;
  rows: ScreenRow[];
  trs: HTMLTableRowElement[];
  /** True once the rows' data is loaded and `trs` holds every row (row i of the data is `trs[i]`). */
  full: boolean;
  view?: RowView;
  parsed: ParsedScreen;
  order: number[];
}

/** The query the form holds (empty fields left out). */
export function formQuery(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') params.append(key, value.trim());
  return params.toString();
}

/** Shows a screen in the form. */
function fillForm(form: HTMLFormElement, parsed: ParsedScreen): void {
  const { screen } = parsed;
  for (const element of form.elements) {
    if (element instanceof HTMLInputElement) {
      const name = element.name;
      if (element.type === 'checkbox') element.checked = screen.flags[name as keyof typeof screen.flags] === true;
      else if (name === 'since') element.value = screen.since === null ? '' : String(screen.since);
      else {
        const range = screen.ranges[name as keyof typeof screen.ranges];
        element.value = range ? `${range.min ?? ''}..${range.max ?? ''}` : '';
      }
    } else if (element instanceof HTMLSelectElement) {
      const chosen = element.name === 'sector' ? screen.sectors : element.name === 'industry' ? screen.industries : element.name === 'signal' ? screen.signals.slice(0, 1) : [];
      const sort = screen.sort ? `${screen.sort.order === 'desc' ? '-' : ''}${screen.sort.key}` : '';
      for (const opt of element.options) opt.selected = element.name === 'sort' ? opt.value === sort : chosen.includes(opt.value);
    }
  }
}

/** Loads the rows' data; a page from the server (the result's rows only) also loads the static page's every row. */
async function loadRows(state: State, partial: boolean): Promise<void> {
  const [json, page] = await Promise.all([fetchStaticText(SCREEN_ROWS_PATH), partial ? fetchStaticText('/screener') : Promise.resolve(null)]);
  state.rows = unpackScreenRows(json);
  if (page !== null) {
    const body = new DOMParser().parseFromString(page, 'text/html').querySelector<HTMLTableSectionElement>('table#screener tbody');
    if (!body) throw new Error('The screener page has no rows.');
    state.trs = [...body.rows].map((row) => document.importNode(row, true));
  }
  if (state.trs.length !== state.rows.length) throw new Error('The screener data and page are of different builds; reload the page.');
  state.full = true;
}

function showStatus(state: State, missing: ReturnType<typeof runScreen>['missing']): void {
  const count = document.querySelector<HTMLElement>('[data-screen-count]');
  if (count) count.textContent = screenCountText(state.order.length, state.rows.length);
  const missingLine = document.querySelector<HTMLElement>('[data-screen-missing]');
  if (missingLine) {
    missingLine.textContent = missingText(missing);
    missingLine.hidden = missingLine.textContent === '';
  }
  const errors = document.querySelector<HTMLElement>('[data-screen-errors]');
  const list = errors?.querySelector('ul');
  if (errors && list) {
    list.replaceChildren(...state.parsed.errors.map((e) => Object.assign(document.createElement('li'), { textContent: e.message })));
    errors.hidden = state.parsed.errors.length === 0;
  }
  const sort = state.parsed.screen.sort;
  for (const th of state.table.tHead?.rows[0]?.cells ?? []) {
    const key = SORTABLE[th.dataset.key ?? ''];
    if (key && sort?.key === key) th.setAttribute('aria-sort', sort.order === 'asc' ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
  }
}

function showRow(row: HTMLTableRowElement): void {
  showRowStar(row);
  makeRowChoosable(row);
}

/** Runs the screen and shows its rows. */
function apply(state: State): void {
  const result = runScreen(state.rows, state.parsed.screen, $watchedSet.get());
  state.order = result.order;
  if (state.trs.length >= WINDOW_FROM_ROWS && !state.view) {
    // The window measures the first row: rows loaded from the static page are not in this page yet.
    if (!state.trs[0]!.isConnected) state.body.prepend(state.trs[0]!);
    state.view = startWindow(state.table, state.trs, showRow) ?? undefined;
  }
  if (state.view) {
    state.view.order = result.order;
    renderWindow(state.view, true);
  } else {
    const { body } = state;
    const parent = body.parentNode!;
    const next = body.nextSibling;
    body.remove();
    body.replaceChildren(...result.order.map((i) => state.trs[i]!));
    for (const i of result.order) showRow(state.trs[i]!);
    parent.insertBefore(body, next);
  }
  showStatus(state, result.missing);
}

function writeAddress(parsed: ParsedScreen): void {
  const query = screenToQuery(parsed.screen);
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}

/** The result as a CSV file download (the CSV writer loads on the first download). */
async function downloadCsv(state: State): Promise<void> {
  const { toBrowserCsv } = await import('./csv');
  const csv = toBrowserCsv([[...SCREEN_CSV_HEADER], ...state.order.map((i) => screenCsvRow(state.rows[i]!))]);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  link.download = 'screener.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Wires the screener page. */
export function enhanceScreener(): void {
  const table = document.querySelector<HTMLTableElement>('table#screener');
  const form = document.querySelector<HTMLFormElement>('form[data-screener-form]');
  if (!table || !form || !table.tBodies[0]) return;
  const partial = table.closest('[data-screen-rows]')?.hasAttribute('data-partial') ?? false;
  const state: State = { table, body: table.tBodies[0], form, rows: [], trs: [...table.tBodies[0].rows], full: false, parsed: parseScreen(location.search), order: [] };
  const loading = loadRows(state, partial);
  const update = (parsed: ParsedScreen, address = true) => {
    state.parsed = parsed;
    if (address) writeAddress(parsed);
    if (state.full) return apply(state);
    void loading.then(() => apply(state)).catch(() => undefined);
  };

  if (partial) for (const row of state.trs) showRow(row);
  fillForm(form, state.parsed);
  form.addEventListener('input', () => update(parseScreen(formQuery(form))));
  let failed = false;
  form.addEventListener('submit', (event) => {
    // Without the data the form goes to the server, as without JavaScript.
    if (failed) return;
    event.preventDefault();
    update(parseScreen(formQuery(form)));
  });
  form.querySelector('[data-screen-clear]')?.addEventListener('click', (event) => {
    event.preventDefault();
    const parsed = parseScreen('');
    fillForm(form, parsed);
    update(parsed);
  });
  // A preset is a screen: applied in place, its query in the address.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-preset]')) {
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      const parsed = parseScreen(link.dataset.preset ?? '');
      fillForm(form, parsed);
      update(parsed);
    });
  }
  // Header buttons sort the screen: a new column starts high to low (the ticker A to Z), the same column flips.
  for (const th of table.tHead?.rows[0]?.cells ?? []) {
    const key = SORTABLE[th.dataset.key ?? ''];
    if (!key) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort-btn';
    button.append(...th.childNodes);
    th.append(button);
    button.addEventListener('click', () => {
      const current = state.parsed.screen.sort;
      const order = current?.key === key ? (current.order === 'asc' ? 'desc' : 'asc') : key === 'ticker' ? 'asc' : 'desc';
      const parsed = parseScreen(formQuery(form));
      parsed.screen.sort = { key, order };
      fillForm(form, parsed);
      update(parsed);
    });
  }
  const csv = document.querySelector<HTMLButtonElement>('[data-screen-csv]');
  csv?.addEventListener('click', () => void downloadCsv(state));
  enhanceRowChoice(table);
  enhanceStars(() => {
    if (state.parsed.screen.flags.watched) update(state.parsed, false);
  });
  // The page shows its screen already (the static page the empty one, the server's the address's), except a query on a
  // CDN and the watched flag; a big table also switches to its row window. The CSV button says the data is there.
  void loading.then(
    () => {
      if ((!partial && location.search !== '') || state.parsed.screen.flags.watched || state.trs.length >= WINDOW_FROM_ROWS) apply(state);
      if (csv) csv.hidden = false;
    },
    (error: unknown) => {
      failed = true;
      const errors = document.querySelector<HTMLElement>('[data-screen-errors]');
      const list = errors?.querySelector('ul');
      if (errors && list) {
        list.replaceChildren(Object.assign(document.createElement('li'), { textContent: `The screener's data could not be loaded (${(error as Error).message}); the Apply button still works.` }));
        errors.hidden = false;
      }
      form.querySelector<HTMLElement>('[data-apply]')?.style.setProperty('display', 'inline-flex');
    },
  );
}
