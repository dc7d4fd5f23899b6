/** Section 5, client work: re-sorting and filtering the big list table in Chromium. */
import type { Browser, Page } from '@playwright/test';
import { settleNetwork } from './browser';
import { type BenchContext, type Figure, type FigureInput, figure, median, round } from './figures';

const RUNS = 5;
const FILTER_TEXT = 'ap';
const SETTLE_TIMEOUT_MS = 10_000;

/** In the page: the search input nearest the table (a site-wide search box in the header may come first). */
function tableSearchInput(table: HTMLTableElement): HTMLInputElement | null {
  let best: HTMLInputElement | null = null;
  let bestDepth = -1;
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="search"], input[name="q"]')) {
    // The deeper the closest ancestor shared with the table, the nearer the input is to it.
    let shared: HTMLElement | null = input;
    while (shared && !shared.contains(table)) shared = shared.parentElement;
    let depth = 0;
    for (let node = shared; node; node = node.parentElement) depth += 1;
    if (depth > bestDepth) {
      best = input;
      bestDepth = depth;
    }
  }
  return best;
}

/** In the page: clicks or types, then waits for the table's DOM to change and a frame to pass with no change. */
function settleAfter(action: 'sort' | 'filter', text: string, timeoutMs: number): Promise<number | null> {
  const table = document.querySelector('table');
  const root = table?.parentElement;
  if (!table || !root) return Promise.resolve(null);
  let mutations = 0;
  const observer = new MutationObserver(() => {
    mutations += 1;
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
  const started = performance.now();
  if (action === 'sort') {
    const buttons = [...table.querySelectorAll<HTMLButtonElement>('th button')];
    (buttons.find((b) => /c-score/i.test(b.textContent ?? '')) ?? buttons[0])?.click();
  } else {
    const input = tableSearchInput(table);
    if (!input) return Promise.resolve(null);
    // React tracks the value through the prototype's setter; setting it there makes the input event count.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return new Promise((resolve) => {
    // The user sees the new order when the first frame after the last mutation has been laid out and painted: a
    // task queued from that frame's animation-frame callback runs after its style, layout and paint. One quiet
    // frame confirms there was no later mutation.
    let counted = 0;
    let shownAt = -1;
    const frame = () => {
      // performance.now(), not the frame's timestamp: that one may predate the click.
      const now = performance.now();
      if (mutations > counted) {
        counted = mutations;
        shownAt = now;
        setTimeout(() => {
          if (counted === mutations) shownAt = performance.now();
        }, 0);
      } else if (shownAt >= 0) {
        observer.disconnect();
        resolve(shownAt - started);
        return;
      }
      if (now - started > timeoutMs) {
        observer.disconnect();
        resolve(null);
        return;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** In the page, with no sort control: re-sorts the rows by C-Score (alternating direction) or hides non-matching rows, then waits a frame. */
function baselineDomWork(action: 'sort' | 'filter', text: string, run: number): Promise<number> {
  const table = document.querySelector('table')!;
  const body = table.tBodies[0]!;
  const headers = [...table.querySelectorAll('thead th')];
  const column = Math.max(0, headers.findIndex((th) => /c-score/i.test(th.textContent ?? '')));
  const started = performance.now();
  if (action === 'sort') {
    const direction = run % 2 === 0 ? 1 : -1;
    const score = (row: HTMLTableRowElement) => Number.parseFloat((row.cells[column]?.textContent ?? '').replace(/\u2212/g, '-').replace(/[^\d.+-]/g, '')) || 0;
    const rows = [...body.rows].map((row) => ({ row, key: score(row) }));
    rows.sort((a, b) => direction * (a.key - b.key));
    const fragment = document.createDocumentFragment();
    for (const { row } of rows) fragment.append(row);
    body.append(fragment);
  } else {
    const needle = text.toLowerCase();
    for (const row of body.rows) row.hidden = !(row.textContent ?? '').toLowerCase().includes(needle);
  }
  void document.body.offsetHeight;
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0)));
}

function clearBaselineFilter(): void {
  for (const row of document.querySelector('table')!.tBodies[0]!.rows) row.hidden = false;
}

async function measure(page: Page, hasControl: { sort: boolean; filter: boolean }, action: 'sort' | 'filter'): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let ms: number | null;
    if (hasControl[action]) {
      ms = await page.evaluate(([a, t, timeout]) => settleAfter(a, t, timeout), [action, FILTER_TEXT, SETTLE_TIMEOUT_MS] as const);
      // Put the filter back (not timed) so every run filters the full table.
      if (action === 'filter') await page.evaluate(([a, t, timeout]) => settleAfter(a, t, timeout), ['filter', '', SETTLE_TIMEOUT_MS] as const);
    } else {
      ms = await page.evaluate(([a, t, r]) => baselineDomWork(a, t, r), [action, FILTER_TEXT, run] as const);
      if (action === 'filter') await page.evaluate(() => clearBaselineFilter());
    }
    if (ms !== null) times.push(ms);
  }
  return times;
}

/** How the section measures, once for the table's header. */
export const CLIENT_NOTE =
  'Playwright drives the system Chromium (no CPU throttling) on /all-signals of the 6,000-ticker build served by `npm start` ' +
  '(/ when /all-signals is not there; the 503-ticker build with --quick), after load + network idle (at most 10 s). ' +
  'When the table has a sort button in a header cell (`th button`, the C-Score one first), it is clicked in the page and the time runs ' +
  "from the click until the first frame after the table's last DOM mutation has been rendered (a MutationObserver on the table's parent; " +
  "the end is a task queued from that frame's animation-frame callback, which runs after the frame's style, layout and paint; one quiet " +
  `frame confirms no later mutation). The search input nearest the table (\`input[type=search]\` or \`name=q\`) is set to "${FILTER_TEXT}" the same way and cleared between runs. ` +
  'Without such controls the figure is a baseline DOM re-sort: in page.evaluate the rows are sorted by their C-Score cell (direction ' +
  `alternating) and re-appended, or the rows not containing "${FILTER_TEXT}" are hidden, then a forced layout and the next frame rendered. ` +
  `Median of ${RUNS} runs; the method column lists every run.`;

/** Opens the biggest list page of the build and times re-sorting and filtering its rows, median of 5. */
export async function clientSection(ctx: BenchContext, origin: string, tickers: number, browser: Browser): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('client', input));
  // The measuring helpers go in as an inline script, which the pages' CSP (no 'unsafe-inline') would block.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  try {
    let path = '/all-signals';
    let response = await page.goto(origin + path, { waitUntil: 'load' });
    if (response?.status() !== 200) {
      path = '/';
      response = await page.goto(origin + path, { waitUntil: 'load' });
    }
    await settleNetwork(page);
    // The page's own functions must exist in the page, where evaluate runs them.
    // tsx keeps function names with an __name helper that the page lacks.
    await page.addScriptTag({ content: `var __name = (f) => f;\n${tableSearchInput.toString()}\n${settleAfter.toString()}\n${baselineDomWork.toString()}\n${clearBaselineFilter.toString()}` });
    // A windowed table keeps only the rows near its scroll position in the page; aria-rowcount counts them all.
    const rows = await page.evaluate(() => {
      const table = document.querySelector('table');
      const declared = Number(table?.getAttribute('aria-rowcount'));
      return declared > 1 ? declared - 1 : (table?.tBodies[0]?.rows.length ?? 0);
    });
    if (rows === 0) throw new Error(`${path} has no table rows to sort (status ${response?.status()}).`);
    const hasControl = {
      sort: (await page.locator('table th button').count()) > 0,
      filter: await page.evaluate(() => tableSearchInput(document.querySelector('table')!) !== null),
    };
    ctx.log(`  ${path}: ${rows} rows, sort control: ${hasControl.sort}, filter control: ${hasControl.filter}`);
    add({
      name: 'rows in the table',
      value: rows,
      unit: 'rows',
      method: `the table's aria-rowcount minus its header row (or its \`tbody tr\` count when it declares none) on ${path} of the ${tickers}-ticker build`,
    });
    for (const action of ['sort', 'filter'] as const) {
      const times = await measure(page, hasControl, action);
      const what = action === 'sort' ? 're-sort' : `filter by "${FILTER_TEXT}"`;
      const how = hasControl[action]
        ? action === 'sort'
          ? "the page's sort button clicked"
          : "the page's search input"
        : `baseline DOM ${action === 'sort' ? 're-sort' : 'filter'} (no ${action} control on the page)`;
      add({
        name: `${what} ${rows} rows`,
        value: times.length === RUNS ? round(median(times), 1) : null,
        unit: 'ms',
        budget: { op: '<', limit: 100 },
        method: `${how}; runs: ${times.map((t) => round(t, 1)).join(', ')}`,
        ...(times.length === RUNS ? {} : { missing: `not available (the table did not change within ${SETTLE_TIMEOUT_MS / 1000} s)` }),
      });
    }
  } finally {
    await context.close();
  }
  return figures;
}
