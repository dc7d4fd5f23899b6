/**
 * The page table against the page files and the spec's navigation, and what its readers derive from it: the nav's
 * current entry, the back button, the filterable lists, the sitemap and noindex, the operators' pages; and the
 * live-route table's readers: the dev proxy's pattern, the CDN's forwarded paths and nginx's live location.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILTERABLE_LIST_PATHS } from '../../src/lib/domain/signals/list-filter';
import { backTarget } from '../../src/lib/domain/site/back-section';
import { LIVE_API_PATH_SOURCE, LIVE_PREFIXES, LIVE_ROUTES, PAYWALLED_PREFIXES, SESSION_CHECKED_PREFIXES } from '../../src/lib/domain/site/live-routes';
import { currentNavTab, ENDPOINT_FILES, inSitemap, navEntries, pageAt, PAGES } from '../../src/lib/domain/site/pages';
import { tickerFilePaths } from '../../src/ingest/ticker-files';
import { OPERATOR_PAGES } from '../../src/lib/domain/site/routes';
import { forwardedPaths, nginxServerFile } from '../../src/server/deploy-rules';

const PAGES_DIR = join(import.meta.dirname, '../../src/pages');

/** Every file Astro routes under src/pages (a file or folder whose name starts with `_` is not routed). */
async function routedFiles(): Promise<string[]> {
  const entries = await readdir(PAGES_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(astro|ts|js|md|mdx|html)$/.test(entry.name))
    .map((entry) => relative(PAGES_DIR, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').some((part) => part.startsWith('_')))
    .sort();
}

describe('the page table and the page files', () => {
  it('every page file has a row (or is a listed endpoint) and every row has its file', async () => {
    const files = await routedFiles();
    const listed = new Set([...PAGES.flatMap((page) => (page.file === undefined ? [] : [page.file])), ...ENDPOINT_FILES]);
    expect(files.filter((file) => !listed.has(file)), 'page files with no row in PAGES (src/lib/domain/site/pages.ts): add one').toEqual([]);
    expect([...listed].filter((file) => !files.includes(file)), 'rows whose file is gone').toEqual([]);
    expect(new Set(PAGES.map((page) => page.path)).size, 'one row per address').toBe(PAGES.length);
  });

  it('the one page family without a file is the embeddable card, which the daily job writes beside the badges', () => {
    expect(PAGES.filter((page) => page.file === undefined).map((page) => page.path)).toEqual(['/embed/[ticker]']);
    expect(pageAt(`/${tickerFilePaths('BRK.B').embed.replace(/\/index\.html$/, '')}`)?.path).toBe('/embed/[ticker]');
  });

  it('a row whose address names no parameter is the file of that name', () => {
    for (const page of PAGES.filter((p) => p.file !== undefined && !p.file.includes('['))) {
      const expected = page.path === '/' ? 'index.astro' : /^\/signal$/.test(page.path) ? 'signal/index.astro' : `${page.path.slice(1)}.astro`;
      expect(page.file, page.path).toBe(expected);
    }
  });
});

describe('the navigation is the page table\'s', () => {
  it('the sidebar lists the spec\'s sections in order (MORE also holds every other page: Track Record, AI Analysis, AI Chat, Signals DAO), the footer its three links', () => {
    expect(navEntries('main')).toEqual([
      { href: '/', label: 'All Signals', icon: 'all' },
      { href: '/recently-qualified', label: 'Recently Qualified', icon: 'recent' },
      { href: '/currently-qualified', label: 'Currently Qualified', icon: 'current' },
      { href: '/reversals-exits', label: 'Reversals & Exits', icon: 'reversals' },
      { href: '/screener', label: 'Screener', icon: 'screener' },
    ]);
    expect(navEntries('more').map((entry) => [entry.label, entry.href])).toEqual([
      ['Heatmap', '/heatmap'],
      ['Track Record', '/track-record'],
      ['AI Analysis', '/ai-analysis'],
      ['AI Chat', '/ai-chat'],
      ['Archives', '/archives'],
      ['Learn', '/learn'],
      ['Signals DAO', '/signals-dao'],
    ]);
    expect(navEntries('info').map((entry) => [entry.label, entry.href])).toEqual([
      ['Changelog', '/changelog'],
      ['Terms', '/terms'],
      ['Privacy', '/privacy'],
    ]);
  });

  it('the current sidebar entry: its own page, All Signals on /all-signals, Heatmap on /explore, Archives on every archive page', () => {
    expect(currentNavTab('/')).toBe('/');
    expect(currentNavTab('/all-signals')).toBe('/');
    expect(currentNavTab('/explore')).toBe('/heatmap');
    expect(currentNavTab('/archives')).toBe('/archives');
    expect(currentNavTab('/archives/3')).toBe('/archives');
    expect(currentNavTab('/learn/')).toBe('/learn');
    for (const path of ['/signal/AAPL', '/signal', '/login', '/404', '/terms', '/ai-analysis', '/signals-dao']) expect(currentNavTab(path), path).toBe(['/terms', '/ai-analysis', '/signals-dao'].includes(path) ? path : null);
  });

  it('every page a visitor may open is in the navigation (all but the stock pages, their embeddable cards and the hubs, the not-found screens, the account and operators\' pages)', () => {
    const reached = new Set(['main', 'more', 'info'].flatMap((section) => navEntries(section as 'main').map((entry) => entry.href)));
    const unlisted = PAGES.filter((page) => !page.nav && !page.navTab && !reached.has(page.path)).map((page) => page.path);
    expect(unlisted.sort()).toEqual(['/403', '/404', '/account', '/admin', '/compare', '/embed/[ticker]', '/industry/[slug]', '/login', '/sector/[slug]', '/signal', '/signal/[ticker]', '/upload']);
  });

  it('every nav entry leads to a page of the table', () => {
    for (const section of ['main', 'more', 'info'] as const) for (const entry of navEntries(section)) expect(pageAt(entry.href)?.nav?.section, entry.href).toBe(section);
  });
});

describe('the back button, the list filters and the operators\' pages read the page table', () => {
  it('a row with `back` is named by the back button; a page without is the Dashboard', () => {
    const backs = PAGES.filter((page) => page.back).map((page) => [page.path, page.title]);
    expect(backs).toEqual([
      ['/currently-qualified', 'Currently Qualified'],
      ['/recently-qualified', 'Recently Qualified'],
      ['/reversals-exits', 'Reversals & Exits'],
      ['/screener', 'Screener'],
      ['/heatmap', 'Heatmap'],
      ['/explore', 'Explore'],
    ]);
    for (const [path, back] of backs) expect(backTarget(`${path}?direction=bearish`), path).toEqual({ label: `Back to ${back}`, href: `${path}?direction=bearish` });
    expect(backTarget('/track-record').label).toBe('Back to Dashboard');
    expect(backTarget('/all-signals').label).toBe('Back to Dashboard');
  });

  it('the filterable lists and the operators\' pages are the rows that say so', () => {
    expect([...FILTERABLE_LIST_PATHS]).toEqual(['/all-signals', '/currently-qualified', '/recently-qualified', '/reversals-exits']);
    expect([...OPERATOR_PAGES]).toEqual(['/upload', '/admin']);
  });
});

describe('the sitemap and noindex read the page table', () => {
  it('the not-found screens, the account and operators\' pages, the AI chat, the placeholders and the embeddable cards are out; the rest is in', () => {
    const out = ['/403', '/404', '/signal', '/login', '/account', '/upload', '/admin', '/ai-chat', '/signals-dao', '/embed/AAPL'];
    for (const path of out) {
      expect(inSitemap(path), path).toBe(false);
      expect(inSitemap(`${path}/`), `${path}/`).toBe(false);
    }
    expect(PAGES.filter((page) => !inSitemap(page.path)).map((page) => page.path).sort()).toEqual([...out.map((path) => path.replace('/embed/AAPL', '/embed/[ticker]'))].sort());
    for (const path of ['/', '/all-signals', '/signal/AAPL', '/signal/BRK.B/', '/archives', '/archives/2', '/ai-analysis', '/terms']) expect(inSitemap(path), path).toBe(true);
  });
});

describe('the dev proxy, the CDN worker and nginx read the live-route table', () => {
  const live = LIVE_ROUTES.filter((route) => !route.static);

  it('the dev proxy forwards every live prefix and no static JSON route', () => {
    const proxied = new RegExp(LIVE_API_PATH_SOURCE);
    for (const route of live) {
      expect(proxied.test(`/api/${route.prefix}`), route.prefix).toBe(true);
      expect(proxied.test(`/api/${route.prefix}/x?y=1`), route.prefix).toBe(true);
    }
    for (const route of LIVE_ROUTES.filter((r) => r.static)) expect(proxied.test(`/api/${route.prefix}/AAPL.json`), route.prefix).toBe(false);
  });

  it('the CDN forwards each live prefix and each operator page; nginx sends the same prefixes upstream', () => {
    expect(LIVE_PREFIXES).toEqual(live.map((route) => route.prefix));
    const forwarded = forwardedPaths();
    for (const route of live) expect(forwarded).toEqual(expect.arrayContaining([`/api/${route.prefix}`, `/api/${route.prefix}/*`]));
    for (const page of OPERATOR_PAGES) expect(forwarded).toEqual(expect.arrayContaining([page, `${page}/*`]));
    for (const route of LIVE_ROUTES.filter((r) => r.static)) expect(forwarded, route.prefix).not.toContain(`/api/${route.prefix}/*`);
    const nginx = nginxServerFile({ scriptHashes: [], apiOrigin: null });
    const location = /location ~ \^\/api\/\(([^)]+)\)\(\/\|\$\) \{/.exec(nginx)?.[1];
    expect(location?.split('|').map((prefix) => prefix.replace(/\\/g, ''))).toEqual(live.map((route) => route.prefix));
  });

  it('a row says its budget and its session: the quote spends market data and reads no session, the AI spends tokens', () => {
    const row = (prefix: string) => LIVE_ROUTES.find((route) => route.prefix === prefix)!;
    expect(row('stock-price')).toMatchObject({ budget: 'market-data', session: 'none' });
    expect(row('polygon')).toMatchObject({ budget: 'market-data' });
    expect(row('ai')).toMatchObject({ budget: 'ai-tokens', session: 'requires' });
    expect(row('pro')).toMatchObject({ budget: null, session: 'requires' });
  });

  it('a row says its shared cache: only the quote skips the session net among forwarded routes, and a public row reads no session', () => {
    expect(live.filter((route) => route.sharedCache === 'public').map((route) => route.prefix)).toEqual(['stock-price']);
    expect(SESSION_CHECKED_PREFIXES).toEqual(LIVE_PREFIXES.filter((prefix) => prefix !== 'stock-price'));
    for (const route of LIVE_ROUTES.filter((r) => r.sharedCache === 'public')) expect(route.session, route.prefix).toBe('none');
    for (const route of LIVE_ROUTES.filter((r) => r.static)) expect(route.sharedCache, route.prefix).toBe('public');
  });

  it('a row says whether PAYWALL=on makes it Pro only: the two downloads (DESIGN.md: Archives and downloads are Pro), which read the session', () => {
    expect(PAYWALLED_PREFIXES).toEqual(['download-csv', 'download-excel']);
    for (const prefix of PAYWALLED_PREFIXES) expect(LIVE_ROUTES.find((route) => route.prefix === prefix), prefix).toMatchObject({ session: 'reads', sharedCache: 'checked' });
  });
});
