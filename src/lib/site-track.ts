/**
 * The track record the static build shows (issue 17), computed once per build from the site data: the page, the
 * stock pages' cards and the list prices read it here; the static API and the CSV call the same domain function.
 */
import { anonymousViewer, siteSlice } from './site-access';
import { siteData } from './site-data';
import { publishedTrack, publishedTrackFromJson, type ListPrice, type PublishedTrack, type TrackReport } from './domain/track-data';
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

/** One ticker's ledger rows, newest first. */
export function siteTickerLedger(ticker: string): LedgerRow[] {
  return computed().byTicker.get(ticker) ?? [];
}

/** The list rows' prices (last close as of the report date, day change), by ticker. */
export function siteListPrices(): Map<string, ListPrice> {
  return computed().prices;
}
