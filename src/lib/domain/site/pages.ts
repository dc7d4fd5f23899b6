/**
 * The page table: every page the build publishes, one row each, with what the shell, the back button, the list
 * filters, the sitemap and the server know about it. To add a page, add its file under src/pages and a row here;
 * tests/unit/site-tables.test.ts fails when one is missing.
 */

/** The sidebar's sections: the first, MORE, and the information links (sidebar foot and page footer). */
export type NavSection = 'main' | 'more' | 'info';

/** The shell's line icons (components/Icon.astro) a navigation entry may show. */
export type NavIcon = 'all' | 'recent' | 'current' | 'reversals' | 'heatmap' | 'track' | 'archives' | 'learn' | 'ai' | 'chat' | 'dao' | 'screener';

/**
 * How a page appears in the sitemap: `one` address, one `per-ticker` (/signal/{TICKER}), one `per-hub` (a sector's or
 * sub-industry's, /sector/{slug}), one `per-signal` (each ledger entry's /signal/{TICKER}/{DATE}), `paged` (/archives,
 * /archives/2 ...), or `none` (a noindex page: the not-found screens, the account and operators' pages, the AI chat,
 * the placeholders).
 */
export type SitemapFamily = 'one' | 'per-ticker' | 'per-hub' | 'per-signal' | 'paged' | 'none';

export interface Page {
  /** The address, as Astro routes it (`[param]` stands for a segment); a paged page's further pages are below it. */
  path: string;
  /** The page's file under src/pages; none for the pages the daily job writes itself, as it writes the badges (src/ingest/ticker-files.ts). */
  file?: string;
  /** The page's name: its head title's first part (Base's default) and its navigation label. */
  title: string;
  /** Its entry in the sidebar, by section and order within it (spec "Shell and navigation"). */
  nav?: { section: NavSection; order: number; icon?: NavIcon };
  /** The sidebar entry shown as current on this page when the page has none of its own. */
  navTab?: string;
  /** The detail page's back button names this page ('Back to {title}') when the visitor came from it; else the Dashboard. */
  back?: true;
  sitemap: SitemapFamily;
  /** A list page whose filter form a query fills: the server renders `?q=`, `?direction=`, `?sector=` without JavaScript. */
  filterable?: boolean;
  /** Answered by the server only to an operator (a signed-in non-operator gets the 403 page). */
  operator?: boolean;
  /** A text the report does not shape (terms, learn): its sitemap entry has no lastmod. */
  text?: true;
}

/** Every page (the sidebar orders its entries by `nav.order`, not by row). */
export const PAGES: readonly Page[] = [
  { path: '/', file: 'index.astro', title: 'All Signals', nav: { section: 'main', order: 1, icon: 'all' }, sitemap: 'one' },
  { path: '/all-signals', file: 'all-signals.astro', title: 'All Signals', navTab: '/', sitemap: 'one', filterable: true },
  { path: '/currently-qualified', file: 'currently-qualified.astro', title: 'Currently Qualified', nav: { section: 'main', order: 3, icon: 'current' }, back: true, sitemap: 'one', filterable: true },
  { path: '/recently-qualified', file: 'recently-qualified.astro', title: 'Recently Qualified', nav: { section: 'main', order: 2, icon: 'recent' }, back: true, sitemap: 'one', filterable: true },
  { path: '/reversals-exits', file: 'reversals-exits.astro', title: 'Reversals & Exits', nav: { section: 'main', order: 4, icon: 'reversals' }, back: true, sitemap: 'one', filterable: true },
  { path: '/screener', file: 'screener.astro', title: 'Screener', nav: { section: 'main', order: 5, icon: 'screener' }, back: true, sitemap: 'one' },
  { path: '/heatmap', file: 'heatmap.astro', title: 'Heatmap', nav: { section: 'more', order: 1, icon: 'heatmap' }, back: true, sitemap: 'one' },
  { path: '/explore', file: 'explore.astro', title: 'Explore', navTab: '/heatmap', back: true, sitemap: 'one' },
  { path: '/track-record', file: 'track-record.astro', title: 'Track Record', nav: { section: 'more', order: 2, icon: 'track' }, sitemap: 'one' },
  { path: '/archives', file: 'archives/[...page].astro', title: 'Archives', nav: { section: 'more', order: 5, icon: 'archives' }, sitemap: 'paged' },
  { path: '/learn', file: 'learn.astro', title: 'Learn', nav: { section: 'more', order: 6, icon: 'learn' }, sitemap: 'one', text: true },
  { path: '/changelog', file: 'changelog.astro', title: 'Changelog', nav: { section: 'info', order: 1 }, sitemap: 'one', text: true },
  { path: '/terms', file: 'terms.astro', title: 'Terms', nav: { section: 'info', order: 2 }, sitemap: 'one', text: true },
  { path: '/privacy', file: 'privacy.astro', title: 'Privacy', nav: { section: 'info', order: 3 }, sitemap: 'one', text: true },
  { path: '/signal/[ticker]', file: 'signal/[ticker].astro', title: 'Stock', sitemap: 'per-ticker' },
  { path: '/signal/[ticker]/[date]', file: 'signal/[ticker]/[date].astro', title: 'Signal', navTab: '/track-record', sitemap: 'per-signal' },
  { path: '/developers', file: 'developers.astro', title: 'Developers', navTab: '/learn', sitemap: 'one', text: true },
  { path: '/methodology', file: 'methodology.astro', title: 'Methodology', navTab: '/track-record', sitemap: 'one', text: true },
  { path: '/signal', file: 'signal/index.astro', title: 'Stock Not Found', sitemap: 'none' },
  { path: '/sector/[slug]', file: 'sector/[slug].astro', title: 'Sector', sitemap: 'per-hub' },
  { path: '/industry/[slug]', file: 'industry/[slug].astro', title: 'Sub-industry', sitemap: 'per-hub' },
  // The card other sites frame: the stock page is its canonical, so it stays out of the sitemap.
  { path: '/embed/[ticker]', title: 'Embedded card', sitemap: 'none' },
  // Indexed once: every /compare?t=... has the canonical /compare (Base's canonical is the path alone), so no query is a page of its own.
  { path: '/compare', file: 'compare.astro', title: 'Compare', sitemap: 'one' },
  // /ai-analysis, with its pre-rendered facts, is indexed; the AI chat, an app rather than a text, is not.
  { path: '/ai-analysis', file: 'ai-analysis.astro', title: 'AI Analysis', nav: { section: 'more', order: 3, icon: 'ai' }, sitemap: 'one' },
  { path: '/ai-chat', file: 'ai-chat.astro', title: 'AI Chat', nav: { section: 'more', order: 4, icon: 'chat' }, sitemap: 'none' },
  // The spec names Signals DAO among the navigation's entries without a section: the last of MORE.
  { path: '/signals-dao', file: 'signals-dao.astro', title: 'Signals DAO', nav: { section: 'more', order: 7, icon: 'dao' }, sitemap: 'none' },
  { path: '/login', file: 'login.astro', title: 'Sign in', sitemap: 'none' },
  { path: '/account', file: 'account.astro', title: 'Account', sitemap: 'none' },
  { path: '/upload', file: 'upload.astro', title: 'Upload', sitemap: 'none', operator: true },
  { path: '/admin', file: 'admin.astro', title: 'Admin', sitemap: 'none', operator: true },
  { path: '/403', file: '403.astro', title: 'Operators only', sitemap: 'none' },
  { path: '/404', file: '404.astro', title: 'Page not found', sitemap: 'none' },
];

/** The files under src/pages that are endpoints writing a non-page file (no navigation, no sitemap entry), by file. */
export const ENDPOINT_FILES: readonly string[] = [
  'robots.txt.ts',
  'search-index.json.ts',
  'screener-rows.json.ts',
  'feeds/signals.json.ts',
  'feeds/signals.xml.ts',
  'manifest.webmanifest.ts',
];

/** A page's address pattern as a regular expression: `[param]` is one segment. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (/^\[[^\]]+\]$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The page that answers an address (a path without query, trailing slash or not), exact rows first; undefined when none does. */
export function pageAt(address: string): Page | undefined {
  const path = address.replace(/(.)\/+$/, '$1');
  return (
    PAGES.find((page) => page.path === path) ??
    PAGES.find((page) => (page.path.includes('[') && pathPattern(page.path).test(path)) || (page.sitemap === 'paged' && path.startsWith(`${page.path}/`)))
  );
}

/** A navigation entry: where it links, what it says, its icon. */
export interface NavEntry {
  href: string;
  label: string;
  icon?: NavIcon;
}

/** The entries of one sidebar section, in order. */
export function navEntries(section: NavSection): NavEntry[] {
  return PAGES.filter((page) => page.nav?.section === section)
    .sort((a, b) => a.nav!.order - b.nav!.order)
    .map((page) => ({ href: page.path, label: page.title, ...(page.nav!.icon ? { icon: page.nav!.icon } : {}) }));
}

/** The sidebar entry (its href) shown as current at an address (with or without trailing slash); null when none is. */
export function currentNavTab(path: string): string | null {
  const page = pageAt(path);
  if (!page) return null;
  return page.nav ? page.path : (page.navTab ?? null);
}

/** Whether a page may be indexed: it is in the sitemap. */
function indexable(page: Page): boolean {
  return page.sitemap !== 'none';
}

/** Whether an address belongs in the sitemap (and may be indexed): any address but a noindex page's. Base marks the rest noindex. */
export function inSitemap(path: string): boolean {
  const page = pageAt(path);
  return page === undefined || indexable(page);
}

/** The addresses of the list pages whose filter form a query fills (their built HTML holds every row the page lists). */
export const FILTERABLE_PATHS: readonly string[] = PAGES.filter((page) => page.filterable).map((page) => page.path);

/** The operators' pages: the server answers them only to an operator. */
export const OPERATOR_PATHS: readonly string[] = PAGES.filter((page) => page.operator).map((page) => page.path);

/** The sections the detail page's back button may name, by the address the visitor came from. */
export const BACK_SECTIONS: readonly (readonly [path: string, label: string])[] = PAGES.flatMap((page) => (page.back ? [[page.path, page.title] as const] : []));
