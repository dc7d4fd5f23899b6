/**
 * What the static build may show (DESIGN.md "Accounts and entitlements"): the build writes only what anonymous
 * visitors may see, so it asks the entitlement rules as an anonymous viewer, with PAYWALL from the config.
 */
import { config } from '../config';
import { freeSlice, lockedTickersFor, type FreeSlice, type Viewer } from './domain/accounts/entitlements';
import { siteData } from './site-data';

let cached: FreeSlice | undefined;

/** The anonymous visitor the static pages are written for. */
export function anonymousViewer(): Viewer {
  return { paywall: config().paywall, isPro: false };
}

/** The day's free slice, computed once per build. */
export function siteSlice(): FreeSlice {
  cached ??= freeSlice(siteData().history.latest);
  return cached;
}

/** The tickers the static build shows as locked ("Top signal", no score, no direction): none without the paywall. */
export function siteLockedTickers(): ReadonlySet<string> {
  return lockedTickersFor(siteSlice(), anonymousViewer());
}
