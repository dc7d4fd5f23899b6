/** The sitemap files: families, the 45,000 cut, lastmod from the report (none for a text page), noindex never listed. */
import { describe, expect, it } from 'vitest';
import { SITEMAP_FILE_LIMIT, sitemapFiles } from '../../src/lib/domain/site/sitemap';
import { childText, childrenNamed, parseXml } from '../fixtures/xml';

const SITE = 'https://signals.example/';
const locs = (xml: string) => childrenNamed(parseXml(xml), 'url').map((url) => [childText(url, 'loc'), childText(url, 'lastmod')]);

describe('sitemapFiles', () => {
  const files = sitemapFiles(['', 'all-signals/', 'signal/AAPL/', 'signal/BRK.B/', 'signal/AAPL/2026-11-11/', 'sector/energy/', 'terms/', 'login/', 'signal/', '404.html', 'archives/2/', 'embed/AAPL/'], SITE, '2026-11-20');
  const byName = Object.fromEntries(files.map((f) => [f.name, f.xml]));

  it('puts the stock pages and the signal permalinks in their own families, the lists, hubs and archives in the pages family', () => {
    expect(files.map((f) => f.name)).toEqual(['sitemap-pages-0.xml', 'sitemap-stocks-0.xml', 'sitemap-signals-0.xml', 'sitemap-index.xml']);
    expect(locs(byName['sitemap-signals-0.xml']!)).toEqual([['https://signals.example/signal/AAPL/2026-11-11', '2026-11-20']]);
    expect(locs(byName['sitemap-stocks-0.xml']!)).toEqual([
      ['https://signals.example/signal/AAPL', '2026-11-20'],
      ['https://signals.example/signal/BRK.B', '2026-11-20'],
    ]);
    expect(locs(byName['sitemap-pages-0.xml']!)).toEqual([
      ['https://signals.example/', '2026-11-20'],
      ['https://signals.example/all-signals', '2026-11-20'],
      ['https://signals.example/archives/2', '2026-11-20'],
      ['https://signals.example/sector/energy', '2026-11-20'],
      // A text page: no date from the data.
      ['https://signals.example/terms', ''],
    ]);
  });

  it('names every file in the index, dated by the report', () => {
    const index = parseXml(byName['sitemap-index.xml']!);
    expect(childrenNamed(index, 'sitemap').map((s) => [childText(s, 'loc'), childText(s, 'lastmod')])).toEqual([
      ['https://signals.example/sitemap-pages-0.xml', '2026-11-20'],
      ['https://signals.example/sitemap-stocks-0.xml', '2026-11-20'],
      ['https://signals.example/sitemap-signals-0.xml', '2026-11-20'],
    ]);
  });

  it(`cuts a family at ${SITEMAP_FILE_LIMIT} addresses a file`, () => {
    const paths = Array.from({ length: 2 * SITEMAP_FILE_LIMIT + 1 }, (_, i) => `signal/T${i}/`);
    const stocks = sitemapFiles(paths, SITE, '2026-11-20').filter((f) => f.name.startsWith('sitemap-stocks-'));
    expect(stocks.map((f) => [f.name, locs(f.xml).length])).toEqual([
      ['sitemap-stocks-0.xml', SITEMAP_FILE_LIMIT],
      ['sitemap-stocks-1.xml', SITEMAP_FILE_LIMIT],
      ['sitemap-stocks-2.xml', 1],
    ]);
  });
});
