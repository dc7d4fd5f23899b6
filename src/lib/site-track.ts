/**
 * The track record the static build shows, computed once per build from the site data: the page, the
 * stock pages' cards and the list prices read it here; the static API and the CSV call the same domain function.
 */
import { openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { config } from '../config';
import { siteLockedTickers } from './site-access';
import { siteData } from './site-data';
import { LEDGER_ROWS_FILE, publishedTrack, publishedTrackFromJson, type ListPrice, type PublishedTrack, type TrackReport } from './domain/track-record/track-data';
import type { LedgerRow } from './domain/track-record/track-record';

let cached: PublishedTrack | undefined;

function computed(): PublishedTrack {
  const data = siteData();
  // The daily job computes it from the closes and hands it over; a site data file without it is computed here.
  cached ??= data.trackView ? publishedTrackFromJson(data.trackView) : publishedTrack(data, siteLockedTickers());
  return cached;
}

/** The whole track record as an anonymous visitor may see it. */
export function siteTrackReport(): TrackReport {
  return computed().report;
}

/** How many rows the whole ledger has (the report's ledger may hold the newest rows only). */
export function siteLedgerTotal(): number {
  return siteData().trackView?.ledgerTotal ?? computed().report.ledger.length;
}

let ledgerFile: number | undefined;

/** Every ticker with a ledger row, in the published track record (the permalink pages' tickers). */
export function siteLedgerTickers(): string[] {
  const view = siteData().trackView;
  return view?.ledgerIndex === undefined ? [...computed().byTicker.keys()] : Object.keys(view.ledgerIndex);
}

// The permalink pages of one ticker are rendered one after another: its rows are read once for all of them.
let lastLedger: { ticker: string; rows: LedgerRow[] } | undefined;

/** `siteTickerLedger` of the ticker asked for last, kept: each of a ticker's permalink pages reads the same rows. */
export function siteTickerLedgerKept(ticker: string): LedgerRow[] {
  if (lastLedger?.ticker !== ticker) lastLedger = { ticker, rows: siteTickerLedger(ticker) };
  return lastLedger.rows;
}

/** One ticker's ledger rows, newest first: from the ledger rows file when the daily job cut the ledger in the site data. */
export function siteTickerLedger(ticker: string): LedgerRow[] {
  const view = siteData().trackView;
  if (view?.ledgerIndex === undefined) return computed().byTicker.get(ticker) ?? [];
  const at = view.ledgerIndex[ticker];
  // A ticker without a signal has no rows.
  if (at === undefined) return [];
  ledgerFile ??= openSync(join(dirname(config().siteDataFile), LEDGER_ROWS_FILE), 'r');
  const bytes = Buffer.alloc(at[1]);
  const read = readSync(ledgerFile, bytes, 0, at[1], at[0]);
  if (read !== at[1]) throw new Error(`The ledger rows file ends before ${ticker}'s rows: run "npm run daily -- --force" to write it again.`);
  return JSON.parse(bytes.toString('utf8')) as LedgerRow[];
}

/** The list rows' prices (last close as of the report date, day change), by ticker. */
export function siteListPrices(): Map<string, ListPrice> {
  return computed().prices;
}

let kept: Set<string> | undefined;

/** The permalink pages (`T/date`) the daily job keeps from the published build: this build does not render them. */
export function sitePermalinkKept(): Set<string> {
  kept ??= new Set(siteData().trackView?.permalinkKept ?? []);
  return kept;
}

/** The permalink pages (`T/date`) this build renders, as the daily job listed them; undefined when it did not. */
export function sitePermalinkRendered(): readonly string[] | undefined {
  return siteData().trackView?.permalinkRendered;
}

let images: Set<string> | undefined;

/** The permalink pages (`T/date`) this build renders with the call's own share image. */
export function sitePermalinkImages(): Set<string> {
  images ??= new Set(siteData().trackView?.permalinkImages ?? []);
  return images;
}
