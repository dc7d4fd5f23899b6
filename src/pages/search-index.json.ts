import type { APIRoute } from 'astro';
import { siteData } from '../lib/site-data';
import type { SearchEntry } from '../lib/domain/search';

/** The ticker search's static index: every ticker of the latest report and its company name. */
export const GET: APIRoute = () => {
  const entries: SearchEntry[] = siteData().history.latest.map((r) => [r.ticker, r.companyName]);
  return new Response(JSON.stringify(entries), { headers: { 'Content-Type': 'application/json' } });
};
