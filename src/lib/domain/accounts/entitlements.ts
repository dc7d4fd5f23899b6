/**
 * What each plan sees when PAYWALL=on (DESIGN.md "Accounts and entitlements", the table of what anonymous/Free and
 * Pro see). With PAYWALL off everyone sees everything. Anonymous visitors and Free accounts see:
 * - All Signals and Currently Qualified: the 45 rows of largest |C-Score| with the day's 5 free top tickers among
 *   them, and a count of the locked rows;
 * - stock pages: public, except the scores of the top tickers beyond the 5 free ones (a locked card instead);
 * - Recently Qualified, Reversals & Exits and the Heatmap: a short preview and the paywall;
 * - Archives and downloads: the premium gate.
 * The free 5 are the "Top Ticker?" rows of largest |C-Score|. Pure: the build and the live routes share these rules.
 */
import type { SignalRecord } from '../report/record';
import type { LockedTicker } from './locked-ticker';

/** Spec: the Free plan has 45 daily signals... */
export const FREE_SIGNALS = 45;
/** ...and 5 daily top signals. */
export const FREE_TOP_SIGNALS = 5;
/** How many rows the short preview of a Pro list shows. */
export const PREVIEW_ROWS = 5;

/** The paywall's feature names (spec: a premium action opens the paywall with the feature name). */
export const PRO_FEATURES = {
  topStockDetails: 'Top Stock Details',
  allSignals: 'All Signals',
  recentlyQualified: 'Recently Flashed Signals',
  reversals: 'Recent Reversals',
  heatmap: 'Signals Heatmap',
  archives: 'All raw CSV data',
} as const;
export type ProFeature = (typeof PRO_FEATURES)[keyof typeof PRO_FEATURES];

/** Who is asking: PAYWALL on or off, and whether the visitor is a signed-in Pro user. */
export interface Viewer {
  paywall: boolean;
  isPro: boolean;
}

/** True when the viewer sees everything: PAYWALL off, or a Pro user. */
export function seesEverything(viewer: Viewer): boolean {
  return !viewer.paywall || viewer.isPro;
}

function byTicker(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Strongest conviction first: |C| descending, then bullish before bearish, then ticker (as the lists order). */
function byConviction(a: SignalRecord, b: SignalRecord): number {
  return Math.abs(b.cScore) - Math.abs(a.cScore) || b.cScore - a.cScore || byTicker(a.ticker, b.ticker);
}

/** The free slice of one report, computed once and asked many times. */
export interface FreeSlice {
  /** The day's free top tickers: the 5 "Top Ticker?" rows of largest |C-Score|. */
  freeTopTickers: ReadonlySet<string>;
  /** The 45 free rows: the free top tickers and the other rows of largest |C-Score|, never a locked top ticker. */
  freeTickers: ReadonlySet<string>;
  /** Top tickers beyond the free 5: their scores are Pro only, on their stock pages too. */
  lockedTopTickers: ReadonlySet<string>;
}

/**
 * The free slice of the latest report. The 45 rows are the free top tickers plus the rows of largest |C-Score| that
 * are not top tickers, so no locked top ticker's score reaches a free list. Fewer rows than 45: all of them are free
 * but the locked top tickers.
 */
export function freeSlice(latest: readonly SignalRecord[]): FreeSlice {
  const sorted = [...latest].sort(byConviction);
  const tops = sorted.filter((r) => r.isTopTicker);
  const freeTopTickers = new Set(tops.slice(0, FREE_TOP_SIGNALS).map((r) => r.ticker));
  const lockedTopTickers = new Set(tops.slice(FREE_TOP_SIGNALS).map((r) => r.ticker));
  const freeTickers = new Set(freeTopTickers);
  for (const r of sorted) {
    if (freeTickers.size >= FREE_SIGNALS) break;
    if (!r.isTopTicker) freeTickers.add(r.ticker);
  }
  return { freeTopTickers, freeTickers, lockedTopTickers };
}

/**
 * The tickers of the latest report whose scores an anonymous visitor may not see: the locked top tickers with
 * PAYWALL=on, none without. What the daily job leaves out of everything it publishes (share images, track record).
 */
export function anonymousLockedTickers(latest: readonly SignalRecord[], paywall: boolean): ReadonlySet<string> {
  return lockedTickersFor(freeSlice(latest), { paywall, isPro: false });
}

/** A list as a viewer sees it: the rows they may see (in the list's order) and how many are locked. */
export interface VisibleList<T> {
  rows: T[];
  locked: number;
}

/** The rows of a list the viewer may see; `tickerOf` reads a row's ticker. */
export function visibleRows<T>(rows: readonly T[], slice: FreeSlice, viewer: Viewer, tickerOf: (row: T) => string): VisibleList<T> {
  if (seesEverything(viewer)) return { rows: [...rows], locked: 0 };
  const visible = rows.filter((row) => slice.freeTickers.has(tickerOf(row)));
  return { rows: visible, locked: rows.length - visible.length };
}

/**
 * The short preview of a Pro list (Recently Qualified, Reversals & Exits, Heatmap): its first 5 rows among the free
 * slice, so a locked top ticker's score never shows; `locked` counts the rest.
 */
export function previewRows<T>(rows: readonly T[], slice: FreeSlice, viewer: Viewer, tickerOf: (row: T) => string): VisibleList<T> {
  if (seesEverything(viewer)) return { rows: [...rows], locked: 0 };
  const visible = rows.filter((row) => slice.freeTickers.has(tickerOf(row))).slice(0, PREVIEW_ROWS);
  return { rows: visible, locked: rows.length - visible.length };
}

/** True when the viewer may not see this ticker's scores on its stock page. */
export function isScoreLocked(ticker: string, slice: FreeSlice, viewer: Viewer): boolean {
  return !seesEverything(viewer) && slice.lockedTopTickers.has(ticker);
}

/**
 * The tickers whose scores and direction the viewer may not see: the locked top tickers for anonymous and Free with
 * PAYWALL=on, none for Pro or without the paywall. The set form of isScoreLocked, for code that filters many rows.
 */
export function lockedTickersFor(slice: FreeSlice, viewer: Viewer): ReadonlySet<string> {
  return seesEverything(viewer) ? new Set() : slice.lockedTopTickers;
}

/** What a locked ticker shows in place of its signal (no score, no direction), on every page, file and answer. */
export const LOCKED_SIGNAL_LABEL = 'Top signal';

/** True when the archive and its downloads are gated for the viewer. */
export function isArchiveLocked(viewer: Viewer): boolean {
  return !seesEverything(viewer);
}

/** The text of a locked-rows notice: "40 more signals with Pro", singular for one. */
export function lockedRowsText(locked: number): string {
  return `${locked} more ${locked === 1 ? 'signal' : 'signals'} with Pro`;
}

/** The public form of a locked top ticker's record: no score of any kind. */
export function lockedTicker(record: Pick<SignalRecord, 'ticker' | 'companyName' | 'reportDate'>): LockedTicker {
  return { ticker: record.ticker, companyName: record.companyName, reportDate: record.reportDate, isTopTicker: true, locked: true };
}

/** A stock page's title headline when its scores are Pro only: company and ticker, no score, no direction. */
export function lockedStockHeadline(ticker: string, companyName: string, reportDate: string): string {
  return `${companyName ? `${companyName} (${ticker})` : ticker}: a top signal on ${reportDate}`;
}

/** A stock page's meta description when its scores are Pro only: no score, no direction. */
export function lockedStockDescription(ticker: string, companyName: string, reportDate: string): string {
  const name = companyName ? ` (${companyName})` : '';
  return `${ticker}${name} is a top signal on the report of ${reportDate}. Its C-Score and history are part of Pro.`;
}

/** Alert rules one account may keep: 50 without the paywall; with PAYWALL=on 5 on Free and 200 on Pro. */
export const ALERT_RULE_LIMITS = { open: 50, free: 5, pro: 200 } as const;

/** How many alert rules the viewer may keep (the server enforces it). */
export function alertRuleLimit(viewer: Viewer): number {
  if (!viewer.paywall) return ALERT_RULE_LIMITS.open;
  return viewer.isPro ? ALERT_RULE_LIMITS.pro : ALERT_RULE_LIMITS.free;
}
