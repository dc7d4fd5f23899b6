/** The pages the weight and Lighthouse sections measure, and where each one is in a build. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TICKER_PATTERN } from '../../src/lib/domain/report/ticker';

/** One page under test. */
export interface BenchPage {
  /** Short label for the tables: "/", "/heatmap", "ticker /signal/AAPL". */
  label: string;
  path: string;
  kind: 'list' | 'heatmap' | 'archives' | 'ticker' | 'track' | 'permalink' | 'compare' | 'hub';
}

const PREFERRED_TICKER = 'AAPL';

/** The fixed routes plus one ticker page: AAPL when the build has it, else the first ticker of the build. */
export function benchPages(clientDir: string): BenchPage[] {
  const ticker = existsSync(join(clientDir, 'signal', PREFERRED_TICKER)) || existsSync(join(clientDir, 'signal', `${PREFERRED_TICKER}.html`))
    ? PREFERRED_TICKER
    : firstTicker(clientDir);
  return [
    { label: '/', path: '/', kind: 'list' },
    { label: '/all-signals', path: '/all-signals', kind: 'list' },
    { label: '/screener', path: '/screener', kind: 'list' },
    { label: '/heatmap', path: '/heatmap', kind: 'heatmap' },
    { label: '/archives', path: '/archives', kind: 'archives' },
    { label: '/track-record', path: '/track-record', kind: 'track' },
    { label: `ticker /signal/${ticker}`, path: `/signal/${ticker}`, kind: 'ticker' },
    ...permalinkPage(clientDir, ticker),
    ...hubPage(clientDir),
  ];
}

/** The largest sector hub of the build (the heaviest hub page there is); none in a build without hubs. */
function hubPage(clientDir: string): BenchPage[] {
  const dir = join(clientDir, 'sector');
  if (!existsSync(dir)) return [];
  const sizes = readdirSync(dir)
    .filter((slug) => existsSync(join(dir, slug, 'index.html')))
    .map((slug) => ({ slug, bytes: statSync(join(dir, slug, 'index.html')).size }))
    .sort((a, b) => b.bytes - a.bytes);
  return sizes.length === 0 ? [] : [{ label: 'largest hub /sector/{slug}', path: `/sector/${sizes[0]!.slug}`, kind: 'hub' }];
}

/** A signal's permalink: the ticker's newest one, else the first ticker's that has one; none in a build without. */
function permalinkPage(clientDir: string, ticker: string): BenchPage[] {
  // A ticker's folder; the not-found screen's own file (signal/404.html) sits beside them.
  const isFolder = (t: string) => statSync(join(clientDir, 'signal', t), { throwIfNoEntry: false })?.isDirectory() === true;
  const datesOf = (t: string) => (isFolder(t) ? readdirSync(join(clientDir, 'signal', t)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort() : []);
  let dates = datesOf(ticker);
  let owner = ticker;
  if (dates.length === 0) {
    for (const t of existsSync(join(clientDir, 'signal')) ? readdirSync(join(clientDir, 'signal')) : []) {
      dates = datesOf(t);
      owner = t;
      if (dates.length > 0) break;
    }
  }
  const date = dates.at(-1);
  return date === undefined ? [] : [{ label: 'permalink /signal/{T}/{date}', path: `/signal/${owner}/${date}`, kind: 'permalink' }];
}

function firstTicker(clientDir: string): string {
  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  return new RegExp(`href="/signal/(${TICKER_PATTERN.source.slice(1, -1)})"`).exec(html)?.[1] ?? PREFERRED_TICKER;
}

/** The built HTML file that answers `path` (the server's order: directory index, then `.html`), or null. */
export function builtHtmlFile(clientDir: string, path: string): string | null {
  const rel = path.replace(/^\/+/, '');
  const candidates = rel === '' ? ['index.html'] : [join(rel, 'index.html'), `${rel}.html`];
  for (const candidate of candidates) {
    const file = join(clientDir, candidate);
    if (existsSync(file)) return file;
  }
  return null;
}
