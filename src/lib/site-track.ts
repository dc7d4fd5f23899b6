/**
 * The track record the static build shows (issue 17), computed once per build from the site data: the page, the
 * stock pages' cards and the list prices read it here; the static API and the CSV call the same domain function.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { config } from '../config';
import { anonymousViewer, siteSlice } from './site-access';
import { siteData } from './site-data';
import { publishedTrack, publishedTrackFromJson, tickerLedgerFile, type ListPrice, type PublishedTrack, type TrackReport } from './domain/track-data';
import type { LedgerRow } from './domain/track-record';

let cached: PublishedTrack | undefined;

function computed(): PublishedTrack {
  const data = siteData();
  // The daily job computes it from the closes and hands it over; a site data file without it is computed here.
  cached ??= data.trackView ? publishedTrackFromJson(data.trackView) : publishedTrack(data, anonymousViewer().paywall ? siteSlice().lockedTopTickers : new Set());
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

/** One ticker's ledger rows, newest first: from its own file when the daily job cut the ledger in the site data. */
export function siteTickerLedger(ticker: string): LedgerRow[] {
  if (siteData().trackView?.ledgerTotal === undefined) return computed().byTicker.get(ticker) ?? [];
  try {
    return JSON.parse(readFileSync(tickerLedgerFile(dirname(config().siteDataFile), ticker), 'utf8')) as LedgerRow[];
  } catch (error) {
    // A ticker without a signal has no file; any other failure stops the build rather than show an empty record.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The list rows' prices (last close as of the report date, day change), by ticker. */
export function siteListPrices(): Map<string, ListPrice> {
  return computed().prices;
}
