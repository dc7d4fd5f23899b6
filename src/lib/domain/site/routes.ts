/**
 * The static API's routes (spec section 7, DESIGN.md "API routes") and the server's page rules derived from the page
 * table (pages.ts); the live routes are live-routes.ts's table.
 */
import { OPERATOR_PATHS } from './pages';

/** The per-ticker daily-data routes, written as static JSON `api/<route>/<TICKER>.json`, in the order they are written. */
export const PER_TICKER_ROUTES = ['stock', 'ticker-metrics', 'c-score-trend', 'similar-tickers', 'company-name', 'company-description', 'track-record'] as const;

/** The whole-report daily-data routes, written as static JSON `api/<route>.json`. */
export const REPORT_ROUTES = ['all-signals', 'company-names', 'company-descriptions', 'excel-files', 'csv-files', 'track-record'] as const;

/** The ledger of the track record as CSV, at the root of the build. */
export const LEDGER_CSV_PATH = 'track-record.csv';

/** The pre-rendered Stock Not Found screen (the detail route with no or an unknown ticker, spec section 2). */
export const STOCK_NOT_FOUND_PAGE = 'signal/index.html';

/** The generic not-found page. */
export const NOT_FOUND_PAGE = '404.html';

/** The page that answers a path with no file, with status 404: the Stock Not Found screen under /signal, else 404.html. */
export function notFoundPageFor(path: string): string {
  return path === '/signal' || path.startsWith('/signal/') ? STOCK_NOT_FOUND_PAGE : NOT_FOUND_PAGE;
}

/** robots.txt: pages may be crawled, the live API may not, and the sitemap is named at SITE_URL. */
export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${new URL('/sitemap-index.xml', siteUrl).href}\n`;
}

/** The operators' pages (the page table's operator rows): the server answers them only to an operator. */
export const OPERATOR_PAGES: readonly string[] = OPERATOR_PATHS;

/** The page the server answers a signed-in non-operator with, status 403. */
export const OPERATORS_ONLY_PAGE = '403/index.html';

/**
 * The rule files a CDN reads from the build and never serves (Cloudflare Pages, Netlify: docs/deploy.md), and the
 * Stock Not Found screen's copy under the name a CDN looks for (the closest `404.html`): the Node server and nginx
 * answer each of them with the not-found page and status 404, as the CDN does.
 */
export const DEPLOY_RULE_FILES = ['_headers', '_redirects', '_routes.json', '_worker.js'] as const;

/** The Stock Not Found screen again as `signal/404.html`, which a CDN answers for a missing `/signal/*` address. */
export const STOCK_NOT_FOUND_CDN_PAGE = 'signal/404.html';

/** Whether the path names a deploy rule file or the CDN's copy of a not-found screen (answered 404 everywhere). */
export function hiddenFromVisitors(path: string): boolean {
  return path === `/${STOCK_NOT_FOUND_CDN_PAGE}` || (DEPLOY_RULE_FILES as readonly string[]).some((file) => path === `/${file}`);
}
