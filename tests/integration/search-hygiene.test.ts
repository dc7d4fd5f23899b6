/**
 * Search hygiene, on a real build: every built page parses with a real HTML parser and has nothing after
 * </html>; robots.txt names the sitemap; the sitemap lists no noindex page; /archives/1 answers 301 to /archives;
 * and a report is marked as sample data exactly when its latest file is one the sample generator listed.
 */
import { readSitemaps } from '../fixtures/sitemap';
import { jsonLdProblems } from '../fixtures/structured-data';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSource } from '../../src/ingest/report-source';
import { currentNavTab, inSitemap, navEntries, pageAt } from '../../src/lib/domain/site/pages';
import { pageTitle } from '../../src/lib/site-meta';
import { SAMPLE_MANIFEST, SAMPLE_NOTICE, sampleManifest } from '../../src/lib/domain/report/report-source';
import type { ArchivedFile } from '../../src/lib/domain/report/schemas';
import { DemoProvider } from '../../src/server/providers/demo';
import { buildSite, startApi, universeOf, type BuiltSite, type RunningApi } from './api-harness';

let site: BuiltSite;
let api: RunningApi;
let client: string;
let pages: string[];

beforeAll(async () => {
  site = await buildSite();
  client = join(site.distDir, 'client');
  pages = (await readdir(client, { recursive: true })).filter((name) => name.endsWith('.html')).map((name) => join(client, name));
  api = await startApi(site, new DemoProvider({ universe: await universeOf(site) }));
});

afterAll(async () => {
  await api?.close();
  await rm(site.work, { recursive: true, force: true });
});

type Node = { nodeName: string; childNodes?: Node[]; attrs?: { name: string; value: string }[]; sourceCodeLocation?: { endTag?: { endOffset: number } } | null };

function find(node: Node, name: string): Node | undefined {
  if (node.nodeName === name) return node;
  for (const child of node.childNodes ?? []) {
    const found = find(child, name);
    if (found) return found;
  }
  return undefined;
}

function isNoindex(document: Node): boolean {
  const metas: Node[] = [];
  const walk = (node: Node) => {
    if (node.nodeName === 'meta') metas.push(node);
    node.childNodes?.forEach(walk);
  };
  walk(document);
  return metas.some((meta) => meta.attrs?.some((a) => a.name === 'name' && a.value === 'robots') && meta.attrs.some((a) => a.name === 'content' && a.value.includes('noindex')));
}

/** The page's address: /signal/AAPL for signal/AAPL/index.html, / for index.html. */
function addressOf(file: string): string {
  const path = `/${relative(client, file).replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`;
  return path.length > 1 ? path.replace(/\/$/, '') : '/';
}

describe('search hygiene of the built site', () => {
  it('parses every built page with nothing after </html>', async () => {
    expect(pages.length).toBeGreaterThan(10);
    const after: string[] = [];
    for (const file of pages) {
      const html = await readFile(file, 'utf8');
      const document = parse(html, { sourceCodeLocationInfo: true }) as unknown as Node;
      const end = find(document, 'html')?.sourceCodeLocation?.endTag?.endOffset;
      // Astro's redirect page (/archives/1) is a bare document with no </html> at all.
      if (end === undefined) continue;
      if (html.slice(end).trim() !== '') after.push(`${relative(client, file)}: ${html.slice(end, end + 60)}`);
    }
    expect(after).toEqual([]);
  });

  it('has a robots.txt naming the sitemap, and a sitemap without any noindex page', async () => {
    const robots = await readFile(join(client, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Sitemap: http:\/\/localhost:4321\/sitemap-index\.xml$/m);
    const served = await api.get('/robots.txt');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);

    const listed = new Set((await readSitemaps(client)).map((entry) => new URL(entry.loc).pathname));
    expect(listed.has('/signal/AAPL')).toBe(true);
    const noindex: string[] = [];
    for (const file of pages) {
      const document = parse(await readFile(file, 'utf8')) as unknown as Node;
      if (isNoindex(document)) noindex.push(addressOf(file));
    }
    expect(noindex).toEqual(expect.arrayContaining(['/404', '/signal', '/login', '/upload']));
    for (const path of noindex) {
      expect(listed.has(path), `${path} is noindex and in the sitemap`).toBe(false);
      expect(!inSitemap(path) || path === '/archives/1', `${path} is noindex but the page table puts it in the sitemap`).toBe(true);
    }
    for (const path of listed) expect(inSitemap(path), path).toBe(true);
  });

  it('every JSON-LD block of every built page keeps schema.org\'s rules (types, and properties of their types)', async () => {
    const marked = new Set<string>();
    const problems: string[] = [];
    for (const file of pages) {
      const html = await readFile(file, 'utf8');
      for (const [, json] of html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)) {
        marked.add(addressOf(file).replace(/^\/(signal|sector|industry)\/.*/, '/$1/…'));
        for (const problem of jsonLdProblems(JSON.parse(json!))) problems.push(`${addressOf(file)}: ${problem}`);
      }
    }
    // The stock pages, the hubs, the lists and the track record carry markup.
    expect([...marked]).toEqual(expect.arrayContaining(['/signal/…', '/sector/…', '/industry/…', '/all-signals', '/currently-qualified', '/track-record']));
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('writes one sitemap file per family under an index, each address with the report day as lastmod (none for a text page)', async () => {
    const entries = await readSitemaps(client);
    const index = await readFile(join(client, 'sitemap-index.xml'), 'utf8');
    expect([...index.matchAll(/<loc>[^<]*\/(sitemap-[a-z]+-\d+\.xml)<\/loc><lastmod>(\d{4}-\d\d-\d\d)<\/lastmod>/g)].map((m) => m[1])).toEqual(['sitemap-pages-0.xml', 'sitemap-stocks-0.xml', 'sitemap-signals-0.xml']);
    const { reportDate } = JSON.parse(await readFile(join(site.distDir, 'build.json'), 'utf8')) as { reportDate: string };
    const byPath = new Map(entries.map((entry) => [new URL(entry.loc).pathname, entry]));
    // Stock pages in their own family; the lists, the hubs and the archives with the pages.
    expect(byPath.get('/signal/AAPL')).toEqual({ file: 'sitemap-stocks-0.xml', loc: expect.any(String), lastmod: reportDate });
    expect(entries.filter((entry) => entry.file === 'sitemap-stocks-0.xml').every((entry) => new URL(entry.loc).pathname.startsWith('/signal/'))).toBe(true);
    const hubs = pages.map(addressOf).filter((path) => /^\/(sector|industry)\//.test(path));
    expect(hubs.length).toBeGreaterThan(2);
    for (const path of ['/', '/all-signals', '/archives', ...hubs]) expect(byPath.get(path), path).toMatchObject({ file: 'sitemap-pages-0.xml', lastmod: reportDate });
    // A text page has no date from the data.
    expect(byPath.get('/terms')).toMatchObject({ lastmod: null });
    // One entry per address, each at most once.
    expect(byPath.size).toBe(entries.length);
  });

  it('renders the page table\'s navigation on every page: its entries in order, its current one marked, noindex exactly off the sitemap', async () => {
    const links = (html: string, open: RegExp, close: string) => {
      const from = html.search(open);
      const block = html.slice(from, html.indexOf(close, from));
      return [...block.matchAll(/<a href="([^"]+)"([^>]*)>(?:<svg[\s\S]*?<\/svg>)?(?:<span class="sb-label">)?([^<]+)</g)].map((m) => ({ href: m[1]!, label: m[3]!.replace(/&amp;/g, '&'), current: m[2]!.includes('aria-current="page"') }));
    };
    const sidebar = [...navEntries('main'), ...navEntries('more')].map(({ href, label }) => ({ href, label }));
    const info = navEntries('info').map(({ href, label }) => ({ href, label }));
    // The embeddable cards (framed by other sites) and the service worker's offline page have no shell of their own.
    for (const file of pages.filter((f) => !f.endsWith('archives/1/index.html') && !addressOf(f).startsWith('/embed/') && addressOf(f) !== '/offline')) {
      const html = await readFile(file, 'utf8');
      const path = addressOf(file);
      const nav = links(html, /<nav aria-label="Main">/, '</nav>');
      expect(nav.map(({ href, label }) => ({ href, label })), path).toEqual(sidebar);
      expect(nav.filter((link) => link.current).map((link) => link.href), path).toEqual([currentNavTab(path)].filter((tab) => tab !== null && sidebar.some((e) => e.href === tab)));
      expect(links(html, /<ul class="sb-links"/, '</ul>').map(({ href, label }) => ({ href, label })), path).toEqual(info);
      expect(links(html, /<footer class="site-footer">/, '</footer>').map(({ href, label }) => ({ href, label })), path).toEqual(info);
      expect(html.includes('<meta name="robots" content="noindex">'), `${path} noindex`).toBe(!inSitemap(path));
      // A page at its row's own address (not the home page's longer title, nor a ticker's or a later archive page's) has the row's title.
      if (path !== '/' && pageAt(path)?.path === path) expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]?.replace(/&amp;/g, '&'), path).toBe(pageTitle(pageAt(path)!.title));
    }
  });

  it('answers /archives/1 with a 301 to /archives', async () => {
    for (const path of ['/archives/1', '/archives/1/']) {
      const response = await api.get(path);
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe('/archives');
    }
    expect((await api.get('/archives')).status).toBe(200);
  });

  it('carries no island-fault hook in a build without ISLAND_FAULTS: no address can make an island throw', async () => {
    const scripts = (await readdir(join(client, '_astro'))).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(3);
    for (const name of scripts) expect(await readFile(join(client, '_astro', name), 'utf8'), name).not.toContain('island-fault');
  });

  it('shows no sample notice on a build from exports that are not the sample', async () => {
    const build = JSON.parse(await readFile(join(site.distDir, 'build.json'), 'utf8')) as { source: string };
    expect(build.source).toBe('exports');
    expect(await readFile(join(client, 'index.html'), 'utf8')).not.toContain(SAMPLE_NOTICE);
    expect(((await (await api.get('/api/health')).json()) as { source: string }).source).toBe('exports');
  });

  it('marks a report as sample data when the file of its latest date is listed in a sample manifest', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'samples-'));
    try {
      const file = (name: string, sha: string, dates: string[]) => ({ fileName: name, sha256: sha.repeat(64), reportDates: dates }) as ArchivedFile;
      const sample = file('signals-2026-11-20.csv', 'a', ['2026-11-20']);
      const real = file('export.xlsx', 'b', ['2026-11-20']);
      await writeFile(join(folder, SAMPLE_MANIFEST), sampleManifest(new Map([[sample.fileName, sample.sha256]])));
      expect(await reportSource([sample], '2026-11-20', folder)).toBe('sample');
      // A real export for the same date, archived later, wins the date: the report is no longer sample data.
      expect(await reportSource([sample, real], '2026-11-20', folder)).toBe('exports');
      expect(await reportSource([real, sample], '2026-11-20', folder)).toBe('sample');
      // The bundled sample exports are known whatever SIGNALS_SOURCE is.
      const bundled = (await readFile(join(import.meta.dirname, '../../data/sample-exports', SAMPLE_MANIFEST), 'utf8')).split('\n')[0]!.split('  ');
      expect(await reportSource([file(bundled[1]!, bundled[0]!.slice(0, 1), ['2026-08-28'])], '2026-08-28', 'https://exports.example.com/x.csv')).toBe('exports');
      expect(await reportSource([{ ...file(bundled[1]!, 'c', ['2026-08-28']), sha256: bundled[0]! }], '2026-08-28', 'https://exports.example.com/x.csv')).toBe('sample');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('a filtered list address without JavaScript', () => {
  const visibleRows = (html: string) => [...html.matchAll(/<tr data-t="([^"]+)"/g)].map((m) => m[1]);
  const hiddenRows = (html: string) => [...html.matchAll(/<tr hidden data-t="([^"]+)"/g)].map((m) => m[1]);

  it('renders /all-signals?direction=bearish with only the bearish rows shown and the form filled', async () => {
    const response = await api.get('/all-signals?direction=bearish');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    // The report of 2026-11-20: MSFT -90 is the one bearish stock; the other four rows stay in the page, hidden.
    expect(visibleRows(html)).toEqual(['MSFT']);
    expect(hiddenRows(html).sort()).toEqual(['AAPL', 'BRK.B', 'JPM', 'NVDA']);
    expect(html).toContain('<option value="bearish" selected>');
    expect(html).toMatch(/data-count="stocks">Showing 1 of 5 stocks<\/p>/);
    expect(html).toContain('<p class="table-empty" data-no-match hidden>');
  });

  it('fills the search text, combines filters, and shows the no-match line when nothing matches', async () => {
    // The landing page holds the top of the table only: its filter addresses go on to All Signals.
    const landing = await api.get('/?q=nvid', { redirect: 'manual' });
    expect([landing.status, landing.headers.get('location')]).toEqual([302, '/all-signals?q=nvid']);
    const byText = await (await api.get('/all-signals?q=nvid')).text();
    expect(visibleRows(byText)).toEqual(['NVDA']);
    expect(byText).toContain('name="q" value="nvid"');
    const none = await (await api.get('/all-signals/?q=%22%3Cscript%3E&direction=bullish')).text();
    expect(visibleRows(none)).toEqual([]);
    expect(none).toContain('value="&quot;&lt;script&gt;"');
    expect(none).toContain('<p class="table-empty" data-no-match>No stocks match these filters. <a href="?" data-clear-filters>Clear filters</a></p>');
    // No filter in the query: the pre-rendered page as built.
    const plain = await (await api.get('/all-signals?sort=cScore&order=asc')).text();
    expect(hiddenRows(plain)).toEqual([]);
    expect(plain).toMatch(/data-count="stocks">5 stocks<\/p>/);
  });
});
