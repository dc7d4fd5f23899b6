/**
 * The open API's documented routes: spec section 7's public GET routes, the track record, the feeds and the dated
 * files, each with what it answers and how it is served. The OpenAPI document (src/server/openapi.ts) adds each one's
 * zod schemas; the /developers page lists them.
 */

import { KEYED_PREFIXES } from './live-routes';

/** How a route is served: a static file of the daily job, a static feed, or the live server. */
export type Served = 'static' | 'live' | 'feed';

export interface OpenApiRoute {
  /** The OpenAPI path template ({ticker}, {date}, {id}). */
  path: string;
  summary: string;
  served: Served;
}

/** Every documented route, in the order the document and the page list them. */
export const OPEN_API_ROUTES: readonly OpenApiRoute[] = [
  { path: '/api/all-signals', summary: "The latest report's signal records", served: 'static' },
  { path: '/api/stock/{ticker}', summary: "A ticker's full signal record", served: 'static' },
  { path: '/api/ticker-metrics/{ticker}', summary: "A ticker's supporting scores and averages", served: 'static' },
  { path: '/api/c-score-trend/{ticker}', summary: "A ticker's C-Score over the archived reports", served: 'static' },
  { path: '/api/similar-tickers/{ticker}', summary: 'Up to 12 similar tickers (same sub-industry, then sector)', served: 'static' },
  { path: '/api/company-name/{ticker}', summary: "A ticker's company name", served: 'static' },
  { path: '/api/company-names', summary: 'Every ticker of the report with its company name', served: 'static' },
  { path: '/api/company-description/{ticker}', summary: "A company's description and who wrote it", served: 'static' },
  { path: '/api/company-descriptions', summary: 'Every company description of the report', served: 'static' },
  { path: '/api/excel-files', summary: 'The archived export files, newest report first', served: 'static' },
  { path: '/api/csv-files', summary: 'The archived export files (the same list)', served: 'static' },
  { path: '/api/track-record', summary: 'The track record: outcomes by direction, score band and sector; the model portfolio', served: 'static' },
  { path: '/api/track-record/{ticker}', summary: "A ticker's ledger of signals with their outcomes", served: 'static' },
  { path: '/api/reports/index.json', summary: 'Every dated daily file, oldest first', served: 'static' },
  { path: '/api/reports/{date}.json', summary: 'The whole report of one archived date, as compact rows', served: 'static' },
  { path: '/feeds/signals.json', summary: "The day's new, exited and reversed signals (JSON Feed)", served: 'feed' },
  { path: '/feeds/signals.xml', summary: "The day's new, exited and reversed signals (Atom)", served: 'feed' },
  { path: '/feeds/signal/{ticker}.json', summary: "One stock's signal changes (JSON Feed 1.1)", served: 'feed' },
  { path: '/feeds/signal/{ticker}.xml', summary: "One stock's signal changes (Atom)", served: 'feed' },
  { path: '/api/health', summary: 'Build and report dates, readiness, provider status', served: 'live' },
  { path: '/api/auth/user', summary: 'Who is signed in (signed out: isAuthenticated false)', served: 'live' },
  { path: '/api/stock-price/{ticker}', summary: 'A live quote', served: 'live' },
  { path: '/api/earnings-date/{ticker}', summary: 'The next earnings date, when known', served: 'live' },
  { path: '/api/market-sentiment/{ticker}', summary: "The day's direction and trend of the C-Score", served: 'live' },
  { path: '/api/stock-complete-data/{ticker}', summary: 'Record, metrics, company info and similar tickers in one answer', served: 'live' },
  { path: '/api/company-info/{ticker}', summary: 'Company facts', served: 'live' },
  { path: '/api/polygon/company-info/{ticker}', summary: 'Logo address, company name and description', served: 'live' },
  { path: '/api/polygon/ticker-details/{ticker}', summary: "The market-data provider's company details", served: 'live' },
  { path: '/api/polygon/price/{ticker}', summary: "The previous trading day's bar", served: 'live' },
  { path: '/api/polygon/aggs/{ticker}', summary: 'Daily bars of a window of at most a month', served: 'live' },
  { path: '/api/polygon/news/{ticker}', summary: 'Recent news articles', served: 'live' },
  { path: '/api/polygon/logo/{ticker}', summary: "The company's logo image (404 when there is none)", served: 'live' },
  { path: '/api/download-excel/{id}', summary: 'An archived export file as it was received (Pro with PAYWALL=on)', served: 'live' },
  { path: '/api/download-csv/{id}', summary: 'An archived file, or one sheet of it, as CSV (Pro with PAYWALL=on)', served: 'live' },
];

/** Whether a key may call the route on its own allowance (the live-route table's `keyed` rows). */
export function keyedRoute(route: OpenApiRoute): boolean {
  return route.served === 'live' && KEYED_PREFIXES.includes(route.path.split('/')[2]!);
}
