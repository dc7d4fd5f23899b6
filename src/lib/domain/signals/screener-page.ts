/**
 * The /screener page's parts that the build, the server and the page script share: the screen's form as HTML (the
 * build renders it empty, the server filled for the URL's query), the status lines, the rows' data the page carries,
 * and the server's render of the pre-rendered page for a query (the result's rows only, in order).
 */
import { escapeHtml } from '../text/text';
import { BULLISH_THRESHOLD } from './signal';
import { FLAG_LABELS, missingText, parseScreen, RANGE_KEYS, runScreen, screenCountText, SORT_KEYS, type ParsedScreen, type Screen, type ScreenError, type ScreenResult, type ScreenRow } from './screener';

/** The screener's address: the Node server renders it for a query (nginx sends such requests to it). */
export const SCREENER_PATH = '/screener';
/** Where the build writes the screener's rows as data (the page loads it after its first paint). */
export const SCREEN_ROWS_PATH = '/screener-rows.json';
/** The table's wrapper names the data; the server's answer marks it partial (the result's rows only). */
const ROWS_MARK = `<div data-screen-rows="${SCREEN_ROWS_PATH}"`;

const NUMBER_FIELDS = ['cscore', 'change', 'delta', 'market', 'accuracy', 'relevance', 'avg7', 'avg14', 'days7', 'days14', 'mcap', 'pe', 'since'] as const;
const STRING_FIELDS = ['ticker', 'company', 'sector', 'industry'] as const;

/** The rows as the page carries them: one array per row (no repeated key names), flags as 0/1. */
export function packScreenRows(rows: readonly ScreenRow[]): string {
  const packed = rows.map((r) => [...STRING_FIELDS.map((k) => r[k]), ...NUMBER_FIELDS.map((k) => r[k]), r.top ? 1 : 0, r.new ? 1 : 0, r.reversed ? 1 : 0]);
  // `<` escaped: the JSON sits in a script element.
  return JSON.stringify(packed).replace(/</g, '\\u003c');
}

/** The rows back from the page's JSON. */
export function unpackScreenRows(json: string): ScreenRow[] {
  const packed = JSON.parse(json) as (string | number | null)[][];
  const s = STRING_FIELDS.length;
  const n = NUMBER_FIELDS.length;
  return packed.map((p) => {
    const row = {} as Record<string, unknown>;
    STRING_FIELDS.forEach((k, i) => (row[k] = p[i]));
    NUMBER_FIELDS.forEach((k, i) => (row[k] = p[s + i]));
    row.top = p[s + n] === 1;
    row.new = p[s + n + 1] === 1;
    row.reversed = p[s + n + 2] === 1;
    return row as unknown as ScreenRow;
  });
}

/** The choices the form offers: every sector and sub-industry of the rows, sorted. */
export interface ScreenOptions {
  sectors: string[];
  industries: string[];
}

export function screenOptions(rows: readonly ScreenRow[]): ScreenOptions {
  const sorted = (values: string[]) => [...new Set(values.filter(Boolean))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { sectors: sorted(rows.map((r) => r.sector)), industries: sorted(rows.map((r) => r.industry)) };
}

const SORT_LABEL: Record<string, string> = { ticker: 'Ticker', ...Object.fromEntries(RANGE_KEYS.map((r) => [r.key, r.label])) };

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}

function rangeValue(screen: Screen, key: string): string {
  const range = screen.ranges[key as keyof Screen['ranges']];
  return range ? `${range.min ?? ''}..${range.max ?? ''}` : '';
}

/**
 * The screen's form: a GET form whose fields are the query's keys, so without JavaScript Apply asks the server for
 * the screen; with it, every change applies at once.
 */
export function screenFormHtml(screen: Screen, options: ScreenOptions): string {
  const ranges = RANGE_KEYS.map(
    ({ key, label }) =>
      `<label class="scr-field"><span>${escapeHtml(label)}</span><input type="text" name="${key}" value="${escapeHtml(rangeValue(screen, key))}" placeholder="min..max" inputmode="decimal" autocomplete="off" spellcheck="false" /></label>`,
  ).join('');
  const signal = `<label class="scr-field"><span>Signal</span><select name="signal">${option('', 'Any signal', screen.signals.length === 0)}${(['bullish', 'bearish', 'neutral'] as const)
    .map((s) => option(s, s[0]!.toUpperCase() + s.slice(1), screen.signals[0] === s))
    .join('')}</select></label>`;
  const multi = (name: string, label: string, values: string[], chosen: string[]) =>
    `<label class="scr-field scr-multi"><span>${label}</span><select name="${name}" multiple size="4">${values.map((v) => option(v, v, chosen.includes(v))).join('')}</select></label>`;
  const check = (name: string, label: string, on: boolean | undefined) =>
    `<label class="scr-check"><input type="checkbox" name="${name}" value="1"${on ? ' checked' : ''} /><span>${label}</span></label>`;
  const sorts = [option('', 'C-Score, high to low', screen.sort === null)];
  for (const key of SORT_KEYS) {
    for (const order of key === 'ticker' ? (['asc', 'desc'] as const) : (['desc', 'asc'] as const)) {
      const label = `${SORT_LABEL[key]}, ${key === 'ticker' ? (order === 'asc' ? 'A to Z' : 'Z to A') : order === 'desc' ? 'high to low' : 'low to high'}`;
      sorts.push(option(`${order === 'desc' ? '-' : ''}${key}`, label, screen.sort?.key === key && screen.sort.order === order));
    }
  }
  return (
    `<form method="get" action="/screener" class="scr-form" data-screener-form aria-label="Screen">` +
    `<fieldset class="scr-ranges"><legend>Ranges <span class="muted">(min..max; either side may be empty: ${BULLISH_THRESHOLD}.. or ..-10)</span></legend>${ranges}</fieldset>` +
    `<fieldset class="scr-choices"><legend>Choices</legend>${signal}${multi('sector', 'Sector', options.sectors, screen.sectors)}${multi('industry', 'Sub-industry', options.industries, screen.industries)}` +
    `<label class="scr-field"><span>Qualified for N+ reports</span><input type="number" name="since" min="1" step="1" value="${screen.since ?? ''}" /></label>` +
    `<div class="scr-checks">${(['top', 'new', 'reversed', 'watched'] as const).map((flag) => check(flag, FLAG_LABELS[flag], screen.flags[flag])).join('')}</div>` +
    `<label class="scr-field scr-sort"><span>Sort</span><select name="sort">${sorts.join('')}</select></label></fieldset>` +
    `<div class="scr-actions"><button type="submit" class="btn" data-apply>Apply</button><a class="btn" href="/screener" data-screen-clear>Clear</a></div>` +
    `</form>`
  );
}

/** Why "Watched only" shows nothing when nobody is signed in (on a CDN the browser's own watchlist is all there is). */
export const WATCHED_SIGNED_OUT = "Watched only: nobody is signed in and this browser's watchlist is empty. Star stocks, or sign in to screen your account's watchlist.";

/** The status lines: the count, the stocks a missing figure left out, and every part of the query not used. */
export function screenStatusHtml(shown: number, total: number, missing: ScreenResult['missing'], errors: readonly ScreenError[]): string {
  const missingLine = missingText(missing);
  return (
    `<p class="scr-count" data-screen-count aria-live="polite">${escapeHtml(screenCountText(shown, total))}</p>` +
    `<p class="scr-missing muted" data-screen-missing${missingLine ? '' : ' hidden'}>${escapeHtml(missingLine)}</p>` +
    `<p class="scr-missing muted" data-screen-watched hidden>${escapeHtml(WATCHED_SIGNED_OUT)}</p>` +
    `<div class="scr-errors" data-screen-errors role="alert"${errors.length ? '' : ' hidden'}><p>Not used from this address:</p><ul>${errors.map((e) => `<li>${escapeHtml(e.message)}</li>`).join('')}</ul></div>`
  );
}

/** The pre-rendered page cut at its parts, to render a query without parsing HTML per request. */
export interface ScreenerPage {
  rows: ScreenRow[];
  options: ScreenOptions;
  /** Row HTML by ticker. */
  rowHtml: Map<string, string>;
  /** The page before the form, between form and status, between status and the table body, after the body. */
  parts: [string, string, string, string];
}

const FORM = /<form method="get" action="\/screener" class="scr-form" data-screener-form[\s\S]*?<\/form>/;
const STATUS = /<p class="scr-count" data-screen-count[\s\S]*?<\/ul><\/div>/;
const BODY = /(<table id="screener"[\s\S]*?<tbody>)([\s\S]*?)(<\/tbody>)/;
/** Cuts the pre-rendered page (`rowsJson` is its SCREEN_ROWS_PATH); null when it is not the page this module renders. */
export function splitScreenerPage(html: string, rowsJson: string): ScreenerPage | null {
  if (!html.includes(ROWS_MARK)) return null;
  // The answer's page says its rows are partial: the script loads the whole page's rows when the screen changes.
  const page = html.replace(ROWS_MARK, `${ROWS_MARK} data-partial`);
  const form = FORM.exec(page);
  const status = STATUS.exec(page);
  const body = BODY.exec(page);
  if (!form || !status || !body || form.index > status.index || status.index > body.index) return null;
  const rows = unpackScreenRows(rowsJson);
  const rowHtml = new Map<string, string>();
  for (const match of body[2]!.matchAll(/<tr data-t="([^"]+)"[\s\S]*?<\/tr>/g)) rowHtml.set(match[1]!, match[0]);
  // A page and a data file of different builds: no render rather than a wrong one.
  if (rows.some((r) => !rowHtml.has(r.ticker))) return null;
  const bodyStart = body.index + body[1]!.length;
  return {
    rows,
    options: screenOptions(rows),
    rowHtml,
    parts: [
      page.slice(0, form.index),
      page.slice(form.index + form[0].length, status.index),
      page.slice(status.index + status[0].length, bodyStart),
      page.slice(bodyStart + body[2]!.length),
    ],
  };
}

/** The attribute that tells the page script its rows are a Pro account's (all of them), loaded from the Pro route. */
export const PRO_ROWS_MARK = 'data-pro-rows';

/** The lead sentence's count of the stocks the page screens (the free slice, or every stock for Pro). */
export const SCREEN_TOTAL_MARK = 'data-screen-total';
const TOTAL = new RegExp(`(<span ${SCREEN_TOTAL_MARK}[^>]*>)[^<]*</span>`);

/**
 * The page of a Pro account with PAYWALL=on: every row (`rows` in the table's order, `rowHtml` by ticker) in place of
 * the free slice, the lead counting them, the locked-rows notice hidden, and the rows' wrapper marked so the page
 * script loads the Pro rows.
 */
export function proScreenerPage(page: ScreenerPage, rows: ScreenRow[], rowHtml: Map<string, string>): ScreenerPage {
  const [head, between, beforeBody, tail] = page.parts;
  return {
    rows,
    options: screenOptions(rows),
    rowHtml,
    parts: [head.replace(TOTAL, `$1${rows.length}</span>`), between, beforeBody.replace(`${ROWS_MARK} data-partial`, `${ROWS_MARK} data-partial ${PRO_ROWS_MARK}`), tail.replace('<section class="card pro-gate" data-pro-gate', '<section hidden class="card pro-gate" data-pro-gate')],
  };
}

/**
 * The page for a query: the form filled, the status for the result, the result's rows in order. `watched` is the
 * signed-in viewer's watchlist (upper-case tickers); without it the watched flag is left to the page script.
 */
export function renderScreenerPage(page: ScreenerPage, query: string | URLSearchParams, watched: ReadonlySet<string> | null = null): string {
  const parsed: ParsedScreen = parseScreen(query);
  const result = runScreen(page.rows, parsed.screen, watched);
  const body = result.order.map((i) => page.rowHtml.get(page.rows[i]!.ticker) ?? '').join('');
  const [head, between, beforeBody, tail] = page.parts;
  return `${head}${screenFormHtml(parsed.screen, page.options)}${between}${screenStatusHtml(result.order.length, page.rows.length, result.missing, parsed.errors)}${beforeBody}${body}${tail}`;
}
