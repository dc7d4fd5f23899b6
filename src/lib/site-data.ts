import { readFileSync } from 'node:fs';
import { config } from '../config';
import { parseOrExplain } from './domain/text/explain';
import { SiteDataSchema, type SiteData } from './domain/report/schemas';

let cached: SiteData | undefined;

/**
 * The day's data as the daily job handed it to the build (SITE_DATA_FILE, else the published dist/data/site.json).
 * Read once per build.
 */
export function siteData(): SiteData {
  if (cached) return cached;
  const { siteDataFile: path, siteDataWaitSeconds } = config();
  let text: string;
  try {
    text = readWhenWritten(path, siteDataWaitSeconds * 1000);
  } catch {
    throw new Error(`No signal data at ${path}: run "npm run daily" first; it ingests the exports and builds the site.`);
  }
  try {
    cached = parseOrExplain(SiteDataSchema, JSON.parse(text), path);
  } catch (error) {
    throw new Error(`${(error as Error).message}. Run "npm run daily -- --force" to write it again.`);
  }
  return cached;
}

/**
 * The file's text; a file not there yet is waited for, up to `waitMs`. The daily job starts `astro build` before it
 * writes the site data, so Astro bundles meanwhile, and it writes the file whole under its name (a rename): a page
 * never reads half of it.
 */
function readWhenWritten(path: string, waitMs: number): string {
  const deadline = Date.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || Date.now() >= deadline) throw error;
    }
    // Rendering is synchronous here: a 50 ms sleep of this thread.
    Atomics.wait(pause, 0, 0, 50);
  }
}
