/**
 * The screener's page script: every change of the form runs the screen (lib/domain/signals/screener.ts runScreen) on
 * the rows' data (SCREEN_ROWS_PATH, loaded after the first paint) and shows the result in the lists' table, in place;
 * the address follows the screen. From the Node server the page came with the result's rows only: the static page's
 * rows are loaded with the data.
 */
import { parseScreen, runScreen, screenCountText, missingText, screenToQuery, SCREEN_CSV_HEADER, screenCsvRow, type ParsedScreen, type ScreenRow } from '../../lib/domain/signals/screener';
import { PRO_ROWS_MARK, SCREEN_ROWS_PATH, SCREEN_TOTAL_MARK, unpackScreenRows } from '../../lib/domain/signals/screener-page';
import { fetchStaticText } from '../../lib/client/static-files';
import { WINDOW_FROM_ROWS } from '../../lib/domain/signals/table';
import { $user } from '../../stores/user';
import { $watchedSet } from '../../stores/watchlist';
import { showOrder, startWindow, type RowView } from '../list/row-window';
import { enhanceStars, showRowStar } from '../list/stars';
import { enhanceRowChoice, makeRowChoosable } from '../list/row-choose';

/** Rows kept in the page above and below the visible ones: enough for the keyboard's next row and a short scroll. */
const OVERSCAN_ROWS = 4;

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
  /** The status lines, found once; `shownErrors` is the error list as last shown. */
  status: { count: HTMLElement | null; missingLine: HTMLElement | null; errors: HTMLElement | null; watched: HTMLElement | null; shownErrors: string };
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
  // Only what differs is written: the page usually comes filled already, and each write re-renders its control.
  for (const element of form.elements) {
    if (element instanceof HTMLInputElement) {
      const name = element.name;
      if (element.type === 'checkbox') {
        const on = screen.flags[name as keyof typeof screen.flags] === true;
        if (element.checked !== on) element.checked = on;
        continue;
      }
      const range = screen.ranges[name as keyof typeof screen.ranges];
      const value = name === 'since' ? (screen.since === null ? '' : String(screen.since)) : range ? `${range.min ?? ''}..${range.max ?? ''}` : '';
      if (element.value !== value) element.value = value;
    } else if (element instanceof HTMLSelectElement) {
      const chosen = element.name === 'sector' ? screen.sectors : element.name === 'industry' ? screen.industries : element.name === 'signal' ? screen.signals.slice(0, 1) : [];
      const sort = screen.sort ? `${screen.sort.order === 'desc' ? '-' : ''}${screen.sort.key}` : '';
      for (const opt of element.options) {
        const selected = element.name === 'sort' ? opt.value === sort : chosen.includes(opt.value);
        if (opt.selected !== selected) opt.selected = selected;
      }
    }
  }
}

/** Table rows from their HTML, in order. */
function rowsFromHtml(html: string): HTMLTableRowElement[] {
  const template = document.createElement('template');
  template.innerHTML = `<table><tbody>${html}</tbody></table>`;
  return [...template.content.querySelector('tbody')!.rows];
}

/**
 * A Pro account's rows with PAYWALL=on (every stock; the static page holds the free slice): false when the route
 * refuses (signed out meanwhile, or not Pro). The row window, if any, shows them from the next render.
 */
async function loadProRows(state: State): Promise<boolean> {
  // Loaded only for a Pro account: nobody else pays for the Pro client's code.
  const { proScreener } = await import('../../lib/client/pro');
  const body = await proScreener();
  if (body === null) return false;
  const rows = unpackScreenRows(body.rows);
  const trs = rowsFromHtml(body.html);
  if (trs.length !== rows.length) throw new Error('The Pro rows and their data differ; reload the page.');
  state.rows = rows;
  state.trs = trs;
  if (state.view) state.view.rows = trs;
  state.full = true;
  setText(document.querySelector<HTMLElement>(`[${SCREEN_TOTAL_MARK}]`), String(rows.length));
  return true;
}

/** Loads the rows' data; a page from the server (the result's rows only) also loads the static page's every row. */
async function loadRows(state: State, partial: boolean): Promise<void> {
  // The server rendered a Pro session's screen: its rows come from the Pro route, the free ones only if it refuses.
  if (state.table.closest(`[${PRO_ROWS_MARK}]`) && (await loadProRows(state))) return;
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

/** Sets a text only when it changes: an unchanged live region is neither re-laid out nor read again. */
function setText(element: HTMLElement | null, text: string): void {
  if (!element || element.textContent === text) return;
  // A lone text node takes the new text in place: replacing it would take its box out of the layout and make another.
  const only = element.firstChild;
  if (only instanceof Text && only.nextSibling === null && text !== '') only.data = text;
  else element.textContent = text;
}

/** Hides or shows an element only when that changes: writing the same `hidden` again still restyles it. */
function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/** The count, the stocks a missing figure left out, the parts of the query not used, and the sorted column. */
function showStatus(state: State, missing: ReturnType<typeof runScreen>['missing']): void {
  const { count, missingLine, errors } = state.status;
  setText(count, screenCountText(state.order.length, state.rows.length));
  if (missingLine) {
    setText(missingLine, missingText(missing));
    setHidden(missingLine, missingLine.textContent === '');
  }
  const list = errors?.querySelector('ul');
  const messages = state.parsed.errors.map((e) => e.message);
  if (errors && list && messages.join('\n') !== state.status.shownErrors) {
    state.status.shownErrors = messages.join('\n');
    list.replaceChildren(...messages.map((message) => Object.assign(document.createElement('li'), { textContent: message })));
    errors.hidden = messages.length === 0;
  }
  showWatchedNote(state);
  const sort = state.parsed.screen.sort;
  for (const th of state.table.tHead?.rows[0]?.cells ?? []) {
    const key = SORTABLE[th.dataset.key ?? ''];
    const wanted = key && sort?.key === key ? (sort.order === 'asc' ? 'ascending' : 'descending') : null;
    if (th.getAttribute('aria-sort') === wanted) continue;
    if (wanted === null) th.removeAttribute('aria-sort');
    else th.setAttribute('aria-sort', wanted);
  }
}

/** Says why "Watched only" shows nothing when nobody is signed in and this browser watches no stock. */
function showWatchedNote(state: State): void {
  const note = state.status.watched;
  if (note) setHidden(note, !(state.parsed.screen.flags.watched && $user.get().status === 'signed-out' && $watchedSet.get().size === 0));
}

function showRow(row: HTMLTableRowElement): void {
  showRowStar(row);
  makeRowChoosable(row);
}

/**
 * Runs the screen and shows its rows through the row window (only the rows in view and a few around them are in the
 * page, whatever the result's size; aria-rowcount and aria-rowindex say where they are). A table that is not
 * displayed (no row height to measure) takes the whole result.
 */
function apply(state: State): void {
  const result = runScreen(state.rows, state.parsed.screen, $watchedSet.get());
  state.order = result.order;
  // The status lines first: the window then measures the table where they leave it.
  showStatus(state, result.missing);
  if (!state.view && state.trs.length > 0) {
    // The window measures the first row: rows loaded from the static page are not in this page yet.
    if (!state.trs[0]!.isConnected) state.body.prepend(state.trs[0]!);
    state.view = startWindow(state.table, state.trs, showRow, OVERSCAN_ROWS, true) ?? undefined;
  }
  if (state.view) showOrder(state.view, result.order);
  else {
    const { body } = state;
    const parent = body.parentNode!;
    const next = body.nextSibling;
    body.remove();
    body.replaceChildren(...result.order.map((i) => state.trs[i]!));
    for (const i of result.order) showRow(state.trs[i]!);
    parent.insertBefore(body, next);
  }
}

/** How long the address waits for typing to pause. */
const ADDRESS_PAUSE_MS = 250;
let addressTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The address follows the screen once typing pauses: history.replaceState costs the main thread several milliseconds
 * on a slow phone, which nobody waits for (the table and the count update at once), and a burst of keys writes it once.
 */
function writeAddress(parsed: ParsedScreen): void {
  const query = screenToQuery(parsed.screen);
  clearTimeout(addressTimer);
  addressTimer = setTimeout(() => history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`), ADDRESS_PAUSE_MS);
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
  const status = {
    count: document.querySelector<HTMLElement>('[data-screen-count]'),
    missingLine: document.querySelector<HTMLElement>('[data-screen-missing]'),
    errors: document.querySelector<HTMLElement>('[data-screen-errors]'),
    watched: document.querySelector<HTMLElement>('[data-screen-watched]'),
    shownErrors: '',
  };
  const state: State = { table, body: table.tBodies[0], form, rows: [], trs: [...table.tBodies[0].rows], full: false, parsed: parseScreen(location.search), order: [], status };
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
  // With the paywall a Pro account screens every stock: its rows replace the free slice once the shell knows the plan.
  const gate = document.querySelector<HTMLElement>('[data-pro-gate]');
  let proAsked = false;
  $user.subscribe((user) => {
    showWatchedNote(state);
    if (!gate || proAsked || user.status !== 'signed-in' || !user.isPremium || state.table.closest(`[${PRO_ROWS_MARK}]`)) return;
    proAsked = true;
    void loading
      .then(() => loadProRows(state))
      .then((loaded) => {
        if (!loaded) return;
        gate.hidden = true;
        apply(state);
      })
      .catch(() => undefined);
  });
  const csv = document.querySelector<HTMLButtonElement>('[data-screen-csv]');
  csv?.addEventListener('click', () => void downloadCsv(state));
  enhanceRowChoice(table);
  enhanceStars(() => {
    if (state.parsed.screen.flags.watched) update(state.parsed, false);
  });
  // The page shows its screen already (the static page the empty one, the server's the address's), except a query on a
  // CDN and the watched flag: those are screened once the data is there. A big table switches to its row window then
  // too; a smaller one on its first screen, which keeps the work of loading short. The CSV button says the data is there.
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
