import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SiteDataSchema, type SiteData } from './domain/schemas';

let cached: SiteData | undefined;

/**
 * The day's data as the daily job handed it to the build (SITE_DATA_FILE, else the published dist/data/site.json).
 * Read once per build.
 */
export function siteData(): SiteData {
  if (cached) return cached;
  const path = resolve(process.env.SITE_DATA_FILE || 'dist/data/site.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`No signal data at ${path}: run "npm run daily" first; it ingests the exports and builds the site.`);
  }
  const parsed = SiteDataSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`${path} does not match the site data schema (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}); run "npm run daily -- --force".`);
  }
  cached = parsed.data;
  return cached;
}
