import { readFileSync } from 'node:fs';
import { config } from '../config';
import { parseOrExplain } from './domain/explain';
import { SiteDataSchema, type SiteData } from './domain/schemas';

let cached: SiteData | undefined;

/**
 * The day's data as the daily job handed it to the build (SITE_DATA_FILE, else the published dist/data/site.json).
 * Read once per build.
 */
export function siteData(): SiteData {
  if (cached) return cached;
  const path = config().siteDataFile;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
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
