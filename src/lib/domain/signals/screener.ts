/**
 * The screener: a URL query that is the screen (`cscore=65..&signal=bullish&sector=Energy&sort=-change`), the rows it
 * reads (one per stock of the latest report, with its fundamentals and history facts), and the one function that
 * filters and orders them. The server's render of /screener and the page script both call `runScreen`, so a URL gives
 * the same rows in the same order everywhere.
 */
import type { SignalHistory, SignalRecord } from '../report/schemas';
import type { StoredFundamentals } from '../market-data/fundamentals';
import { isQualified, scoreChange, signalDirection, type SignalDirection } from './signal';
import { allSignals, recentlyQualified, reversalsAndExits } from './lists';
import { visibleRows, type FreeSlice, type Viewer, type VisibleList } from '../accounts/entitlements';

/** The numbers a screen bounds, by their query key, with the label the page shows. */
export const RANGE_KEYS = [
  { key: 'cscore', label: 'C-Score' },
  { key: 'change', label: 'Change vs yesterday' },
  { key: 'delta', label: 'Delta' },
  { key: 'market', label: 'Market' },
  { key: 'accuracy', label: 'Accuracy' },
  { key: 'relevance', label: 'Relevance' },
  { key: 'avg7', label: '7D Avg' },
  { key: 'avg14', label: '14D Avg' },
  { key: 'days7', label: 'Signal days 7D' },
  { key: 'days14', label: 'Signal days 14D' },
  { key: 'mcap', label: 'Market cap ($bn)' },
  { key: 'pe', label: 'P/E' },
] as const;

export type RangeKey = (typeof RANGE_KEYS)[number]['key'];

/** The keys bounded by a figure of the fundamentals store, which some stocks lack. */
export const FUNDAMENTAL_KEYS: readonly RangeKey[] = ['mcap', 'pe'];

/** The flags: `1` turns one on. `reversed` is a reversal on one of the last 5 reports (the Reversed this week preset). */
export const FLAG_KEYS = ['top', 'new', 'watched', 'reversed'] as const;
export type FlagKey = (typeof FLAG_KEYS)[number];
/** Each flag's name on the page (its box) and in the CSV (its column): the page screens one report, which may be an old one. */
export const FLAG_LABELS: Readonly<Record<FlagKey, string>> = { top: 'Top', new: 'New in this report', reversed: 'Reversed this week', watched: 'Watched only' };

/** What a sort may name besides the ranges. */
export const SORT_KEYS: readonly string[] = ['ticker', ...RANGE_KEYS.map((r) => r.key)];

const SIGNALS: readonly SignalDirection[] = ['bullish', 'bearish', 'neutral'];
const RANGE_KEY_SET: ReadonlySet<string> = new Set(RANGE_KEYS.map((r) => r.key));
const KNOWN_KEYS: ReadonlySet<string> = new Set([...RANGE_KEY_SET, ...FLAG_KEYS, 'signal', 'sector', 'industry', 'since', 'sort']);
/** Keys that take one value; sector, industry and signal may repeat (any of them). */
const SINGLE_KEYS: ReadonlySet<string> = new Set([...RANGE_KEY_SET, ...FLAG_KEYS, 'since', 'sort']);

/** One stock as the screener reads it; a figure the fundamentals store lacks is null. */
export interface ScreenRow {
  ticker: string;
  company: string;
  sector: string;
  industry: string;
  cscore: number;
  change: number;
  delta: number;
  market: number;
  accuracy: number;
  relevance: number;
  avg7: number;
  avg14: number;
  days7: number;
  days14: number;
  /** Market cap in billions of dollars. */
  mcap: number | null;
  pe: number | null;
  top: boolean;
  new: boolean;
  reversed: boolean;
  /** Reports in a row, ending with the latest, on which the stock was qualified (0 when it is not). */
  since: number;
}

/** A bound on a number: either side may be open (null). */
export interface Range {
  min: number | null;
  max: number | null;
}

/** A parsed screen. */
export interface Screen {
  ranges: Partial<Record<RangeKey, Range>>;
  signals: SignalDirection[];
  sectors: string[];
  industries: string[];
  flags: Partial<Record<FlagKey, true>>;
  /** Qualified on at least this many reports in a row, up to the latest. */
  since: number | null;
  sort: { key: string; order: 'asc' | 'desc' } | null;
}

/** A part of the query that was not used, and why, in words the page shows. */
export interface ScreenError {
  key: string;
  message: string;
}

export interface ParsedScreen {
  screen: Screen;
  errors: ScreenError[];
}

export const EMPTY_SCREEN: Readonly<Screen> = Object.freeze({ ranges: {}, signals: [], sectors: [], industries: [], flags: {}, since: null, sort: null });

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function parseBound(text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  return NUMBER.test(t) ? Number(t) : undefined;
}

/** Reads `min..max`, either side empty; a problem is a message naming what to write instead. */
export function parseRange(key: string, value: string): Range | ScreenError | null {
  const text = value.trim();
  if (text === '' || text === '..') return null;
  const dots = text.indexOf('..');
  if (dots === -1) return { key, message: `${key}: "${value}" is not a range; write min..max, either side may be empty (${key}=10.. or ${key}=..-10)` };
  const min = parseBound(text.slice(0, dots));
  const max = parseBound(text.slice(dots + 2));
  if (min === undefined || max === undefined) {
    const bad = min === undefined ? text.slice(0, dots) : text.slice(dots + 2);
    return { key, message: `${key}: "${bad.trim()}" is not a number` };
  }
  if (min !== null && max !== null && min > max) return { key, message: `${key}: the minimum ${min} is above the maximum ${max}` };
  return { min, max };
}

/** The screen a URL query asks for, and every part of it that was not used (the rest still runs). */
export function parseScreen(search: string | URLSearchParams): ParsedScreen {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const screen: Screen = { ranges: {}, signals: [], sectors: [], industries: [], flags: {}, since: null, sort: null };
  const errors: ScreenError[] = [];
  const seen = new Map<string, number>();
  const unknown = new Set<string>();
  for (const [rawKey, value] of params) {
    const key = rawKey.slice(0, 40);
    if (!KNOWN_KEYS.has(key)) {
      if (!unknown.has(key)) errors.push({ key, message: `${key}: not a screener key` });
      unknown.add(key);
      continue;
    }
    // An empty field is a form's unset control, not a value.
    if (value.trim() === '') continue;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (SINGLE_KEYS.has(key) && count > 1) {
      if (count === 2) errors.push({ key, message: `${key}: given more than once; the first value counts` });
      continue;
    }
    if (RANGE_KEY_SET.has(key)) {
      const range = parseRange(key, value);
      if (range === null) continue;
      if ('message' in range) errors.push(range);
      else screen.ranges[key as RangeKey] = range;
    } else if (key === 'signal') {
      const signal = value.trim().toLowerCase() as SignalDirection;
      if (!SIGNALS.includes(signal)) errors.push({ key, message: `signal: "${value}" is not bullish, bearish or neutral` });
      else if (!screen.signals.includes(signal)) screen.signals.push(signal);
    } else if (key === 'sector' || key === 'industry') {
      const list = key === 'sector' ? screen.sectors : screen.industries;
      const name = value.trim().slice(0, 100);
      if (!list.includes(name)) list.push(name);
    } else if (key === 'since') {
      const n = Number(value.trim());
      if (!/^\d+$/.test(value.trim()) || n < 1) errors.push({ key, message: `since: "${value}" is not a whole number of reports (1 or more)` });
      else screen.since = n;
    } else if (key === 'sort') {
      const text = value.trim();
      const desc = text.startsWith('-');
      const name = desc ? text.slice(1) : text;
      if (!SORT_KEYS.includes(name)) errors.push({ key, message: `sort: "${value}" is not a column; use one of ${SORT_KEYS.join(', ')}, with - for descending` });
      else screen.sort = { key: name, order: desc ? 'desc' : 'asc' };
    } else {
      const flag = value.trim();
      if (flag === '1') screen.flags[key as FlagKey] = true;
      else if (flag !== '0') errors.push({ key, message: `${key}: "${value}" is not 1 (on) or 0 (off)` });
    }
  }
  return { screen, errors };
}

function rangeText(range: Range): string {
  return `${range.min ?? ''}..${range.max ?? ''}`;
}

/** The URL query of a screen, keys in a fixed order ('' for the empty screen): the canonical form a screen is saved and shared in. */
export function screenToQuery(screen: Screen): string {
  const params = new URLSearchParams();
  for (const { key } of RANGE_KEYS) {
    const range = screen.ranges[key];
    if (range && (range.min !== null || range.max !== null)) params.append(key, rangeText(range));
  }
  for (const signal of screen.signals) params.append('signal', signal);
  for (const sector of screen.sectors) params.append('sector', sector);
  for (const industry of screen.industries) params.append('industry', industry);
  for (const flag of FLAG_KEYS) if (screen.flags[flag]) params.append(flag, '1');
  if (screen.since !== null) params.append('since', String(screen.since));
  if (screen.sort) params.append('sort', `${screen.sort.order === 'desc' ? '-' : ''}${screen.sort.key}`);
  return params.toString();
}

/** True when the screen filters nothing and keeps the default order. */
export function isEmptyScreen(screen: Screen): boolean {
  return screenToQuery(screen) === '';
}

/** What a screen needs the browser for: the watchlist lives there (the server's answer is the same for everyone). */
export function needsWatchlist(screen: Screen): boolean {
  return screen.flags.watched === true;
}

/** The result of a screen: row indexes in the order shown, and how many a bound on a missing figure left out. */
export interface ScreenResult {
  order: number[];
  /** Per fundamentals key with a bound: stocks excluded only because the store lacks the figure. */
  missing: Partial<Record<RangeKey, number>>;
}

/**
 * The rows of a report as columns, built once per rows array and read by every screen of it: a value per range key
 * (NaN for a missing figure), codes for signal, sector and sub-industry, the flags, and the row orders a screen can
 * ask for (each sorted once, when first asked). A screen then walks one order and tests plain numbers: no sort and no
 * row objects per query.
 */
interface ScreenIndex {
  count: number;
  tickers: readonly string[];
  values: Record<RangeKey, Float64Array>;
  signal: Uint8Array;
  sector: Int32Array;
  sectorCodes: Map<string, number>;
  industry: Int32Array;
  industryCodes: Map<string, number>;
  top: Uint8Array;
  isNew: Uint8Array;
  reversed: Uint8Array;
  since: Float64Array;
  /** Row indexes in an order, by sort (`''` the default, `-key` descending); filled as screens ask. */
  orders: Map<string, Int32Array>;
}

const SIGNAL_CODE: Record<SignalDirection, number> = { bullish: 0, bearish: 1, neutral: 2 };
const indexes = new WeakMap<readonly ScreenRow[], ScreenIndex>();

function codes(values: readonly string[]): { column: Int32Array; codes: Map<string, number> } {
  const map = new Map<string, number>();
  const column = new Int32Array(values.length);
  values.forEach((v, i) => {
    let code = map.get(v);
    if (code === undefined) map.set(v, (code = map.size));
    column[i] = code;
  });
  return { column, codes: map };
}

/** The columns of `rows`; the rows of a report are not changed once made, so they are built once. */
function screenIndex(rows: readonly ScreenRow[]): ScreenIndex {
  let index = indexes.get(rows);
  if (index) return index;
  const n = rows.length;
  const values = {} as Record<RangeKey, Float64Array>;
  for (const { key } of RANGE_KEYS) values[key] = new Float64Array(n);
  const signal = new Uint8Array(n);
  const top = new Uint8Array(n);
  const isNew = new Uint8Array(n);
  const reversed = new Uint8Array(n);
  const since = new Float64Array(n);
  const tickers: string[] = new Array<string>(n);
  for (let i = 0; i < n; i += 1) {
    const row = rows[i]!;
    tickers[i] = row.ticker;
    for (const { key } of RANGE_KEYS) {
      const v = row[key];
      values[key][i] = v === null ? Number.NaN : v;
    }
    signal[i] = SIGNAL_CODE[signalDirection(row.cscore)];
    top[i] = row.top ? 1 : 0;
    isNew[i] = row.new ? 1 : 0;
    reversed[i] = row.reversed ? 1 : 0;
    since[i] = row.since;
  }
  const sector = codes(rows.map((r) => r.sector));
  const industry = codes(rows.map((r) => r.industry));
  index = {
    count: n, tickers, values, signal, top, isNew, reversed, since,
    sector: sector.column, sectorCodes: sector.codes, industry: industry.column, industryCodes: industry.codes,
    orders: new Map(),
  };
  indexes.set(rows, index);
  return index;
}

function byTickerText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The rows in a sort's order: the default is C-Score descending then ticker; a key sorts by its value (ties in the
 * default order), a missing figure last either way; the ticker A to Z or Z to A.
 */
function sortedOrder(index: ScreenIndex, sort: Screen['sort']): Int32Array {
  const name = sort === null ? '' : `${sort.order === 'desc' ? '-' : ''}${sort.key}`;
  let order = index.orders.get(name);
  if (order) return order;
  const { tickers, values } = index;
  const cscore = values.cscore;
  const byDefault = (a: number, b: number) => cscore[b]! - cscore[a]! || byTickerText(tickers[a]!, tickers[b]!);
  order = new Int32Array(index.count);
  for (let i = 0; i < index.count; i += 1) order[i] = i;
  if (sort === null) order.sort(byDefault);
  else if (sort.key === 'ticker') {
    const sign = sort.order === 'asc' ? 1 : -1;
    order.sort((a, b) => byTickerText(tickers[a]!, tickers[b]!) * sign);
  } else {
    const column = values[sort.key as RangeKey];
    const sign = sort.order === 'asc' ? 1 : -1;
    order.sort((a, b) => {
      const x = column[a]!;
      const y = column[b]!;
      const xMissing = Number.isNaN(x);
      const yMissing = Number.isNaN(y);
      if (xMissing || yMissing) return xMissing === yMissing ? byDefault(a, b) : xMissing ? 1 : -1;
      return (x - y) * sign || byDefault(a, b);
    });
  }
  index.orders.set(name, order);
  return order;
}

/** A set of names as a test on codes (null: no test); a name the report lacks matches no row. */
function codeTest(names: readonly string[], codeOf: Map<string, number>): Uint8Array | null {
  if (names.length === 0) return null;
  const wanted = new Uint8Array(codeOf.size);
  for (const name of names) {
    const code = codeOf.get(name);
    if (code !== undefined) wanted[code] = 1;
  }
  return wanted;
}

/** The result of a screen: row indexes in the order shown, and how many a bound on a missing figure left out. */
export interface ScreenResult {
  order: number[];
  /** Per fundamentals key with a bound: stocks excluded only because the store lacks the figure. */
  missing: Partial<Record<RangeKey, number>>;
}

/**
 * The rows a screen keeps, in its order: the sort key (ties in the default order), else the default order,
 * C-Score descending then ticker. `watched` holds upper-case tickers; without it (null) the watched flag is not
 * applied (a render that does not know the viewer's watchlist).
 */
export function runScreen(rows: readonly ScreenRow[], screen: Screen, watched: ReadonlySet<string> | null = null): ScreenResult {
  const index = screenIndex(rows);
  const bounds = (Object.entries(screen.ranges) as [RangeKey, Range][]).map(([key, range]) => ({
    key,
    column: index.values[key],
    min: range.min ?? Number.NEGATIVE_INFINITY,
    max: range.max ?? Number.POSITIVE_INFINITY,
  }));
  let signals: Uint8Array | null = null;
  if (screen.signals.length) {
    signals = new Uint8Array(3);
    for (const s of screen.signals) signals[SIGNAL_CODE[s]] = 1;
  }
  const sectors = codeTest(screen.sectors, index.sectorCodes);
  const industries = codeTest(screen.industries, index.industryCodes);
  const { top, new: isNew, reversed } = screen.flags;
  const since = screen.since;
  const useWatched = screen.flags.watched === true && watched !== null;
  const missing: Partial<Record<RangeKey, number>> = {};
  const kept: number[] = [];
  const order = sortedOrder(index, screen.sort);
  for (let p = 0; p < order.length; p += 1) {
    const i = order[p]!;
    if (signals && signals[index.signal[i]!] === 0) continue;
    if (sectors && sectors[index.sector[i]!] === 0) continue;
    if (industries && industries[index.industry[i]!] === 0) continue;
    if (top && index.top[i] === 0) continue;
    if (isNew && index.isNew[i] === 0) continue;
    if (reversed && index.reversed[i] === 0) continue;
    if (since !== null && index.since[i]! < since) continue;
    if (useWatched && !watched!.has(index.tickers[i]!)) continue;
    let fails = false;
    let lacking = false;
    for (let b = 0; b < bounds.length; b += 1) {
      const v = bounds[b]!.column[i]!;
      if (Number.isNaN(v)) lacking = true;
      else if (v < bounds[b]!.min || v > bounds[b]!.max) {
        fails = true;
        break;
      }
    }
    if (fails) continue;
    // Counted only when a missing figure alone kept the stock out.
    if (lacking) {
      for (const bound of bounds) if (Number.isNaN(bound.column[i]!)) missing[bound.key] = (missing[bound.key] ?? 0) + 1;
      continue;
    }
    kept.push(i);
  }
  return { order: kept, missing };
}

/** The page's line on stocks a missing figure kept out ('' when none was). */
export function missingText(missing: ScreenResult['missing']): string {
  const parts = FUNDAMENTAL_KEYS.flatMap((key) => {
    const n = missing[key];
    if (!n) return [];
    const label = key === 'mcap' ? 'a market cap' : 'a P/E';
    return [`${n} ${n === 1 ? 'stock' : 'stocks'} without ${label}`];
  });
  return parts.length ? `Excluded for lack of the figure: ${parts.join('; ')}.` : '';
}

/** The result count line: '12 of 503 stocks'. */
export function screenCountText(shown: number, total: number): string {
  return `${shown} of ${total} ${total === 1 ? 'stock' : 'stocks'}`;
}

/** Reports in a row, up to the latest, on which a ticker was qualified. */
function qualifiedStreak(history: SignalHistory, record: SignalRecord): number {
  const scores = history.scores[record.ticker] ?? [];
  const last = history.dates.length - 1;
  let n = 0;
  for (let i = last; i >= 0; i -= 1) {
    const score = i === last ? record.cScore : scores[i];
    if (!isQualified(score)) break;
    n += 1;
  }
  return n;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The screener's rows of a report: one per stock of the latest report, in the report's order, with market cap
 * (billions) and trailing P/E from the fundamentals store where it has them.
 */
export function screenRows(history: SignalHistory, fundamentals: Readonly<Record<string, StoredFundamentals | undefined>>): ScreenRow[] {
  const isNew = new Set(recentlyQualified(history).newToday.map((r) => r.ticker));
  const reversed = new Set(reversalsAndExits(history).reversals.map((r) => r.ticker));
  return history.latest.map((r) => {
    const f = fundamentals[r.ticker];
    return {
      ticker: r.ticker,
      company: r.companyName,
      sector: r.sector ?? '',
      industry: r.subIndustry ?? '',
      cscore: r.cScore,
      change: round2(scoreChange(r.cScore, r.yesterdayCScore) ?? 0),
      delta: r.deltaScore,
      market: r.marketScore,
      accuracy: r.accuracyScore,
      relevance: r.relevanceScore,
      avg7: r.avgCScoreL7D,
      avg14: r.avgCScoreL14D,
      days7: r.countL7DWithSignal,
      days14: r.countL14DWithSignal,
      mcap: f?.marketCap !== undefined ? round2(f.marketCap / 1e9) : null,
      pe: f?.trailingPE !== undefined ? round2(f.trailingPE) : null,
      top: r.isTopTicker,
      new: isNew.has(r.ticker),
      reversed: reversed.has(r.ticker),
      since: qualifiedStreak(history, r),
    };
  });
}

/**
 * The records a viewer screens, in the table's order (All Signals'): every stock, or with PAYWALL=on and no Pro the
 * free slice, by the lists' entitlement rule. The build (as an anonymous viewer) and the server (per session) ask it.
 */
export function screenerRecords(history: SignalHistory, slice: FreeSlice, viewer: Viewer): VisibleList<SignalRecord> {
  return visibleRows(allSignals(history), slice, viewer, (r) => r.ticker);
}

/** The screen rows of `records`, in their order, from the rows of the whole report. */
export function screenRowsOf(records: readonly SignalRecord[], all: readonly ScreenRow[]): ScreenRow[] {
  const byTicker = new Map(all.map((r) => [r.ticker, r]));
  return records.map((r) => byTicker.get(r.ticker)!);
}

/** A preset: a name and the query it stands for. */
export interface ScreenPreset {
  name: string;
  query: string;
}

/** Presets that show what the data can do. */
export const SCREEN_PRESETS: readonly ScreenPreset[] = [
  { name: 'New bullish this report', query: 'signal=bullish&new=1' },
  { name: 'Strongest bearish', query: 'signal=bearish&sort=cscore' },
  { name: 'Rising fast (+15 or more in a day)', query: 'change=15..&sort=-change' },
  { name: 'Steady (7 of 7 days)', query: 'days7=7..' },
  { name: 'Reversed this week', query: 'reversed=1' },
];

/** The CSV columns of a result, in order. */
export const SCREEN_CSV_HEADER = ['Ticker', 'Company', 'Sector', 'Sub-industry', 'Signal', ...RANGE_KEYS.map((r) => r.label), FLAG_LABELS.top, FLAG_LABELS.new, 'Qualified reports in a row'] as const;

/** One CSV row of a result (text cells go through the formula guard of text/csv.ts). */
export function screenCsvRow(row: ScreenRow): (string | number)[] {
  return [
    row.ticker,
    row.company,
    row.sector,
    row.industry,
    signalDirection(row.cscore),
    ...RANGE_KEYS.map((r) => row[r.key] ?? ''),
    row.top ? 'yes' : 'no',
    row.new ? 'yes' : 'no',
    row.since,
  ];
}
