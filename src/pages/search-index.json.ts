import type { APIRoute } from 'astro';
import { siteData } from '../lib/site-data';
import type { SearchEntry } from '../lib/domain/signals/search';
import { isScoreLocked } from '../lib/domain/accounts/entitlements';
import { anonymousViewer, siteSlice } from '../lib/site-access';

/**
 * The ticker search's static index: every ticker of the latest report, its company name and C-Score (null for a
 * top ticker whose score is Pro's with PAYWALL=on, as on its page).
 */
export const GET: APIRoute = () => {
  const [slice, viewer] = [siteSlice(), anonymousViewer()];
  const entries: SearchEntry[] = siteData().history.latest.map((r) => [r.ticker, r.companyName, isScoreLocked(r.ticker, slice, viewer) ? null : r.cScore]);
  return new Response(JSON.stringify(entries), { headers: { 'Content-Type': 'application/json' } });
};
