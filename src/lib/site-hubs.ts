/** The hubs of the published report, computed once per build, with the build's locked tickers (site-access.ts). */
import { buildHubs, type Hub } from './domain/signals/hubs';
import { siteLockedTickers } from './site-access';
import { siteData } from './site-data';

let cached: Hub[] | undefined;

export function siteHubs(): Hub[] {
  cached ??= buildHubs(siteData().history.latest, siteLockedTickers());
  return cached;
}
