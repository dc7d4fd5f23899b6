/** Section 2, page weight: HTML, CSS and JavaScript before any interaction, from the built files and from Chromium. */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';
import { NETWORK_IDLE_TIMEOUT_MS, settleNetwork } from './browser';
import { chartFigures } from './chart';
import { type BenchContext, type Budget, type Figure, type FigureInput, figure, round } from './figures';
import { type BenchPage, builtHtmlFile } from './pages';

const KB = 1024;
const TICKER_HTML: Budget = { op: '<=', limit: 14 };
const TICKER_JS: Budget = { op: '<=', limit: 130 };
const LIST_HTML: Budget = { op: '<=', limit: 60 };
/** A sector or sub-industry hub: every stock of the sector linked, still a small page. */
const HUB_HTML: Budget = { op: '<=', limit: 40 };
// Islands with these directives load without any interaction (client:visible and afterpaint with a rootMargin when
// on screen at load; the project's client:afterpaint once the first frame is on screen).
const EAGER_ISLANDS = new Set(['load', 'idle', 'visible', 'media', 'afterpaint']);

type Kind = 'html' | 'css' | 'js';

/** Raw and gzip byte counts of one kind of resource. */
interface Bytes {
  raw: number;
  gzip: number;
  files: number;
}

function gzipBytes(data: Uint8Array): number {
  return gzipSync(data, { level: 9 }).byteLength;
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) found.set(match[1]!.toLowerCase(), match[2] ?? match[3] ?? '');
  return found;
}

/** Site paths of the stylesheets and scripts an HTML page loads before any interaction. */
function referencedAssets(html: string): { css: string[]; js: string[] } {
  const css = new Set<string>();
  const js = new Set<string>();
  for (const match of html.matchAll(/<(link|script|astro-island)\b[^>]*>/gi)) {
    const tag = match[1]!.toLowerCase();
    const attrs = attributes(match[0]);
    if (tag === 'link') {
      const rel = attrs.get('rel') ?? '';
      const href = attrs.get('href');
      if (href === undefined) continue;
      if (/\bstylesheet\b/i.test(rel)) css.add(href);
      if (/\bmodulepreload\b/i.test(rel)) js.add(href);
    } else if (tag === 'script') {
      const src = attrs.get('src');
      if (src !== undefined) js.add(src);
    } else if (EAGER_ISLANDS.has(attrs.get('client') ?? '')) {
      for (const name of ['component-url', 'renderer-url', 'before-hydration-url']) {
        const url = attrs.get(name);
        if (url) js.add(url);
      }
    }
  }
  return { css: [...css].filter(isLocal), js: [...js].filter(isLocal) };
}

function isLocal(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** Every module a script statically imports, transitively (dynamic `import()` is left out: it waits for use). */
function staticImportClosure(clientDir: string, entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.map((url) => url.split(/[?#]/)[0]!);
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const file = join(clientDir, url);
    if (!existsSync(file)) continue;
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.m?js)["']/g)) {
      const target = match[1]!;
      if (target.startsWith('.')) queue.push(posix.join(posix.dirname(url), target));
      else if (isLocal(target)) queue.push(target);
    }
  }
  return [...seen];
}

function sumFiles(clientDir: string, urls: string[]): Bytes {
  const total: Bytes = { raw: 0, gzip: 0, files: 0 };
  for (const url of urls) {
    const file = join(clientDir, url);
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    total.raw += bytes.byteLength;
    total.gzip += gzipBytes(bytes);
    total.files += 1;
  }
  return total;
}

/** What the built files of one page weigh. */
function builtWeight(clientDir: string, page: BenchPage): Record<Kind, Bytes> | null {
  const htmlFile = builtHtmlFile(clientDir, page.path);
  if (htmlFile === null) return null;
  const bytes = readFileSync(htmlFile);
  const { css, js } = referencedAssets(bytes.toString('utf8'));
  return {
    html: { raw: bytes.byteLength, gzip: gzipBytes(bytes), files: 1 },
    css: sumFiles(clientDir, css),
    js: sumFiles(clientDir, staticImportClosure(clientDir, js)),
  };
}

/** What Chromium fetched for one page: status of the document, bytes per kind, and whether the network went idle. */
interface Fetched {
  status: number;
  kinds: Record<Kind, Bytes>;
  idle: boolean;
}

/** Loads a page in a fresh context (empty cache) and sums what it fetched until load and network idle. */
async function chromiumWeight(browser: Browser, origin: string, page: BenchPage): Promise<Fetched> {
  // Ask for gzip only, so the transfer sizes are the gzip the budgets are written in (the server prefers br otherwise).
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });
  const tab = await context.newPage();
  const kinds: Record<Kind, Bytes> = { html: empty(), css: empty(), js: empty() };
  const pending: Promise<void>[] = [];
  tab.on('requestfinished', (request) => {
    const kind = ({ document: 'html', stylesheet: 'css', script: 'js' } as const)[request.resourceType() as 'document' | 'stylesheet' | 'script'];
    if (kind === undefined) return;
    pending.push(
      (async () => {
        const response = await request.response();
        if (response === null) return;
        const [sizes, body] = await Promise.all([request.sizes(), response.body().catch(() => Buffer.alloc(0))]);
        const encoding = (await response.headerValue('content-encoding')) ?? 'identity';
        kinds[kind].raw += body.byteLength;
        // The body size on the wire; when the server sent it uncompressed, gzip it here so kinds stay comparable.
        kinds[kind].gzip += encoding === 'gzip' ? sizes.responseBodySize : gzipBytes(body);
        kinds[kind].files += 1;
      })(),
    );
  });
  try {
    const response = await tab.goto(origin + page.path, { waitUntil: 'load' });
    const idle = await settleNetwork(tab);
    await Promise.all(pending);
    return { status: response?.status() ?? 0, kinds, idle };
  } finally {
    await context.close();
  }
}

function empty(): Bytes {
  return { raw: 0, gzip: 0, files: 0 };
}

function kb(bytes: number): number {
  return round(bytes / KB, 1);
}

/** The budget of one kind on one page, gzip. */
function budgetFor(page: BenchPage, kind: Kind): Budget | null {
  if (page.kind === 'ticker') return kind === 'html' ? TICKER_HTML : kind === 'js' ? TICKER_JS : null;
  if (page.kind === 'list' && kind === 'html') return LIST_HTML;
  // A signal's permalink is held to the stock page's HTML budget.
  if (page.kind === 'permalink' && kind === 'html') return TICKER_HTML;
  if (page.kind === 'hub' && kind === 'html') return HUB_HTML;
  return null;
}

/** How the section measures, once for the table's header. */
export const WEIGHT_NOTE =
  'Built files: the page\'s HTML file, the stylesheets it links, and the scripts it loads (script src, modulepreload, the component and renderer of every client:load/idle/visible/media/afterpaint island) with their static imports (not their dynamic imports: the Chromium figure has those); gzip = zlib level 9 per file. ' +
  'Chromium: Playwright on the system Chromium, fresh context (empty cache), `Accept-Encoding: gzip` so the transfer is the gzip the budgets speak of, no interaction; every document, stylesheet and script response until load + network idle (500 ms without requests; at most 10 s after load); gzip = encoded body bytes as served (raw = decoded bytes).';

/** Measures every page from the built files and in Chromium against the running server. */
export async function weightSection(ctx: BenchContext, clientDir: string, origin: string, pages: BenchPage[], browser: Browser): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('weight', input));
  const label = { html: 'HTML', css: 'CSS', js: 'JS' } as const;
  for (const page of pages) {
    ctx.log(`  ${page.label}`);
    const built = builtWeight(clientDir, page);
    let fetched: Fetched;
    try {
      fetched = await chromiumWeight(browser, origin, page);
    } catch (error) {
      fetched = { status: 0, kinds: { html: empty(), css: empty(), js: empty() }, idle: false };
      ctx.log(`    Chromium could not load ${page.path}: ${(error as Error).message.split('\n')[0]}`);
    }
    if (built === null || fetched.status !== 200) {
      // A page that is not there yet (or did not load): one row saying so, plus its budgeted figures as misses.
      const missing = `not available (${fetched.status === 0 ? 'did not load' : fetched.status}${built === null ? ', not in the build' : ''})`;
      add({ name: `${page.label}: page`, value: null, unit: '', method: `GET ${page.path} and the build folder`, missing });
      for (const kind of ['html', 'css', 'js'] as const) {
        const budget = budgetFor(page, kind);
        if (budget !== null) add({ name: `${page.label}: ${label[kind]} gzip`, value: null, unit: 'KB', budget, method: 'built files and Chromium', missing });
      }
      continue;
    }
    for (const kind of ['html', 'css', 'js'] as const) {
      const budget = budgetFor(page, kind);
      const b = built[kind];
      const f = fetched.kinds[kind];
      add({ name: `${page.label}: ${label[kind]} raw, built files`, value: kb(b.raw), unit: 'KB', method: `${b.files} file(s)` });
      add({ name: `${page.label}: ${label[kind]} gzip, built files`, value: kb(b.gzip), unit: 'KB', budget, method: `${b.files} file(s), zlib level 9` });
      add({
        name: `${page.label}: ${label[kind]} gzip, fetched by Chromium`,
        value: kb(f.gzip),
        unit: 'KB',
        budget,
        method: `${f.files} response(s) before ${fetched.idle ? 'load + network idle' : `load + ${NETWORK_IDLE_TIMEOUT_MS / 1000} s (the network never went idle)`}, ${kb(f.raw)} KB decoded`,
      });
    }
    if (page.kind === 'ticker') {
      ctx.log('    the live chart and the long tasks, 4x CPU');
      try {
        for (const input of await chartFigures(browser, origin + page.path, page.label)) add(input);
      } catch (error) {
        add({ name: `${page.label}: live chart`, value: null, unit: '', method: 'Chromium, 4x CPU', missing: `not available (${(error as Error).message.split('\n')[0]})` });
      }
    }
  }
  return figures;
}
