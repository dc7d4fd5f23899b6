/**
 * The signal permalinks of a daily build (/signal/{T}/{date}): five years of 6,000 tickers are about 130,000 pages,
 * too many to render every morning. A page whose signal has settled (exited, every horizon measured) and whose
 * content and shell are what the published build rendered is kept from it (hard links, with its compressed copies
 * and its share image); only the others are rendered. The manifest beside the site data names every page's content key.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import type { LedgerRow } from '../lib/domain/track-record/track-record';
import { isSettled, PERMALINK_MANIFEST_FILE, permalinkId, splitPermalinkId, permalinkContentKey, permalinkFolder, permalinkImage, type PermalinkContent } from '../lib/domain/track-record/permalink';
import { DailyJobError } from './error';

/** Each page's content key (hashed) and whether it shows its own share image (1), by `T/date`; `shell` is the code and settings key. */
export interface PermalinkManifest {
  shell: string;
  pages: Record<string, [key: string, image: 0 | 1]>;
}

// The job's own file, read back whole or not at all: a look at its shape, not a schema's parse of 130,000 entries
// (seconds of the run). An entry of another shape simply never matches, so that page is rendered.
function isManifest(value: unknown): value is PermalinkManifest {
  const v = value as Partial<PermalinkManifest> | null;
  return typeof v === 'object' && v !== null && typeof v.shell === 'string' && typeof v.pages === 'object' && v.pages !== null;
}

/** What the build does with the permalinks. */
export interface PermalinkPlan {
  /** Pages kept from the published build (`T/date`): not rendered, linked in. */
  kept: string[];
  /** Pages this run renders (`T/date`), a ticker's together: every page of the manifest not kept. */
  rendered: string[];
  /** Pages rendered this run that show their own share image (`T/date`). */
  images: string[];
  manifest: PermalinkManifest;
}

/** The previous build's manifest, or null (none, another shape, or unreadable: everything is rendered). */
export function readManifest(dataDir: string | null): PermalinkManifest | null {
  if (dataDir === null) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dataDir, PERMALINK_MANIFEST_FILE), 'utf8'));
    return isManifest(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The key of what every page shares: the code (its shell and assets), the site's settings and the data source. */
export function shellKey(code: string, settings: unknown): string {
  return createHash('sha256').update(code).update(JSON.stringify(settings)).digest('hex').slice(0, 32);
}

/**
 * Which pages to keep and which to render. A page is kept when its signal has settled, the shell is the same and its
 * content key is the one the published build rendered, and its file is still there. A signal still open draws its
 * own share image; a settled one keeps the one it had (a fresh build of old signals draws none: the stock's card).
 */
export function planPermalinks(
  previous: PermalinkManifest | null,
  previousClient: string | null,
  shell: string,
  byTicker: ReadonlyMap<string, readonly LedgerRow[]>,
  contentOf: (row: LedgerRow, rows: readonly LedgerRow[]) => Omit<PermalinkContent, 'row' | 'rows'>,
): PermalinkPlan {
  const same = previous !== null && previousClient !== null && previous.shell === shell ? previous.pages : null;
  const pages: PermalinkManifest['pages'] = {};
  const kept: string[] = [];
  const rendered: string[] = [];
  const images: string[] = [];
  for (const [ticker, rows] of byTicker) {
    // The published build's pages of this ticker, looked up once it has a page to keep: one listing of its folder
    // rather than a look for each page (a hundred thousand on the job's serial stretch).
    let published: Set<string> | null = null;
    for (const row of rows) {
      const id = permalinkId(ticker, row.date);
      const settled = isSettled(row);
      const had = same?.[id];
      const image: 0 | 1 = !settled || had?.[1] === 1 ? 1 : 0;
      const key = createHash('sha1').update(permalinkContentKey({ row, rows, ...contentOf(row, rows) })).update(String(image)).digest('base64url');
      pages[id] = [key, image];
      if (settled && had?.[0] === key && (published ??= publishedPages(previousClient!, ticker)).has(row.date)) kept.push(id);
      else {
        rendered.push(id);
        if (image === 1) images.push(id);
      }
    }
  }
  return { kept, rendered, images, manifest: { shell, pages } };
}

/** The dates of a ticker's permalink pages in a build's client folder (`signal/{T}/{date}/index.html`). */
function publishedPages(client: string, ticker: string): Set<string> {
  try {
    const folder = join(client, permalinkFolder(ticker, ''));
    return new Set(readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  } catch {
    return new Set();
  }
}

/** Writes the manifest beside the site data. */
export async function writeManifest(dataDir: string, manifest: PermalinkManifest): Promise<void> {
  await writeFile(join(dataDir, PERMALINK_MANIFEST_FILE), JSON.stringify(manifest));
}

/** Pages kept between two turns of the event loop. */
const YIELD_EVERY = 500;

// A hard link costs no space and no copy; another file system gets a copy. False when the file is not there.
function linkOrCopy(from: string, to: string): boolean {
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV') throw error;
    copyFileSync(from, to);
  }
  return true;
}

/** Where a kept page comes from: the published build's client folder, and the recycled build's with its manifest. */
export interface KeptSources {
  published: string;
  recycled: { client: string; manifest: PermalinkManifest } | null;
}

/**
 * Puts the kept pages into the new client folder. A page the recycled build holds with the same content (and shell) is
 * moved out of it: its folder with the page and all its compressed copies, one rename. Any other is linked from the
 * published build: its folder made, the page and its `.gz` (what nginx's gzip_static and the Node server send; the
 * `.br` is left behind). Its share image comes the same way when the manifest says it has one. The file system's calls
 * are most of the cost (making a folder costs about eight renames here), so no call is made twice: synchronous ones,
 * no existence checks first, one folder made per ticker. A page the published build lost stops the build.
 */
export async function keepPermalinks(from: KeptSources, client: string, kept: readonly string[], manifest: PermalinkManifest): Promise<{ moved: number; linked: number }> {
  const folders = new Set<string>();
  const ensure = (folder: string) => {
    if (folders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  };
  const recycled = from.recycled !== null && from.recycled.manifest.shell === manifest.shell ? from.recycled : null;
  let moved = 0;
  for (const [i, id] of kept.entries()) {
    // Now and then the event loop runs: this goes on while Astro renders, whose pages wait to be compressed.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const [ticker, date] = splitPermalinkId(id);
    const folder = permalinkFolder(ticker, date);
    const entry = manifest.pages[id]!;
    const image = entry[1] === 1 ? permalinkImage(ticker, date) : null;
    ensure(join(client, dirname(folder)));
    if (image !== null) ensure(join(client, dirname(image)));
    const same = recycled?.manifest.pages[id];
    if (recycled !== null && same?.[0] === entry[0] && same[1] === entry[1] && moveIfThere(join(recycled.client, folder), join(client, folder))) {
      if (image !== null && !moveIfThere(join(recycled.client, image), join(client, image))) linkOrCopy(join(from.published, image), join(client, image));
      moved += 1;
      continue;
    }
    mkdirSync(join(client, folder));
    const page = join(folder, 'index.html');
    if (!linkOrCopy(join(from.published, page), join(client, page))) throw new DailyJobError(`The published build lost ${page} during the run; the published site is unchanged. Run the daily job again.`);
    linkOrCopy(join(from.published, `${page}.gz`), join(client, `${page}.gz`));
    if (image !== null) linkOrCopy(join(from.published, image), join(client, image));
  }
  return { moved, linked: kept.length - moved };
}

// A rename within the file system; false when the source is not there.
function moveIfThere(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
