/**
 * The sitemaps: an index naming one file per family (lists and hubs, stock pages, signal permalinks), each at most
 * SITEMAP_FILE_LIMIT addresses, every address its page's canonical one, `lastmod` the date of the report that shaped
 * the page (never the build's time). Pages out of the sitemap (noindex) are never listed. Written by the build from
 * the pages it wrote, so no route is listed twice or forgotten.
 */
import { canonicalUrl } from './canonical';
import { pageAt, type SitemapFamily } from './pages';
import { escapeHtml } from '../text/text';

/** The most addresses one sitemap file holds (the protocol allows 50,000; a margin for growth between builds). */
export const SITEMAP_FILE_LIMIT = 45_000;

/** The index file, named by robots.txt. */
export const SITEMAP_INDEX = 'sitemap-index.xml';

/** Which file family a page family's addresses go to; null: never listed. */
const FAMILY_FILES: Record<SitemapFamily, string | null> = {
  one: 'pages',
  paged: 'pages',
  'per-hub': 'pages',
  'per-ticker': 'stocks',
  'per-signal': 'signals',
  none: null,
};

/** The families, in the order the index names them. */
export const SITEMAP_FAMILIES = ['pages', 'stocks', 'signals'] as const;

/** One written file: its name under the site's root and its XML. */
export interface SitemapFile {
  name: string;
  xml: string;
}

/**
 * The sitemap files for the built pages (`paths` as the build names them, with or without slashes): the family
 * files, then the index. `reportDate` is every data page's lastmod; a text page (`text` in the page table) has none.
 */
export function sitemapFiles(paths: readonly string[], siteUrl: string, reportDate: string | null): SitemapFile[] {
  const families = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const built of paths) {
    const path = `/${built.replace(/^\/+/, '')}`;
    const page = pageAt(path);
    const family = page === undefined ? null : FAMILY_FILES[page.sitemap];
    if (family === null) continue;
    const loc = canonicalUrl(path, siteUrl);
    if (seen.has(loc)) continue;
    seen.add(loc);
    const lastmod = page!.text || reportDate === null ? '' : `<lastmod>${reportDate}</lastmod>`;
    const list = families.get(family) ?? families.set(family, []).get(family)!;
    list.push(`<url><loc>${escapeHtml(loc)}</loc>${lastmod}</url>`);
  }
  const files: SitemapFile[] = [];
  for (const family of SITEMAP_FAMILIES) {
    const urls = (families.get(family) ?? []).sort();
    for (let i = 0; i * SITEMAP_FILE_LIMIT < urls.length; i++) {
      const chunk = urls.slice(i * SITEMAP_FILE_LIMIT, (i + 1) * SITEMAP_FILE_LIMIT);
      files.push({
        name: `sitemap-${family}-${i}.xml`,
        xml: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${chunk.join('\n')}\n</urlset>\n`,
      });
    }
  }
  const lastmod = reportDate === null ? '' : `<lastmod>${reportDate}</lastmod>`;
  const entries = files.map((file) => `<sitemap><loc>${escapeHtml(canonicalUrl(`/${file.name}`, siteUrl))}</loc>${lastmod}</sitemap>`);
  files.push({
    name: SITEMAP_INDEX,
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`,
  });
  return files;
}
