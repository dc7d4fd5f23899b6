/**
 * The daily job starts `astro build` before it writes the site data, so Astro bundles meanwhile; a page
 * then waits for the file (SITE_DATA_WAIT_SECONDS) instead of failing on it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let dir: string;
const saved = { file: process.env.SITE_DATA_FILE, wait: process.env.SITE_DATA_WAIT_SECONDS };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-data-wait-'));
  vi.resetModules();
});
afterEach(async () => {
  for (const [name, value] of [['SITE_DATA_FILE', saved.file], ['SITE_DATA_WAIT_SECONDS', saved.wait]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(dir, { recursive: true, force: true });
});

/** siteData() of a fresh module graph (config and the data are read once per process otherwise). */
async function readSiteData(file: string, waitSeconds: number, beforeRead: () => void = () => undefined): Promise<{ error: string; ms: number }> {
  process.env.SITE_DATA_FILE = file;
  process.env.SITE_DATA_WAIT_SECONDS = String(waitSeconds);
  const { siteData } = await import('../../src/lib/site-data');
  // After the import, which a loaded machine makes slow, so that the time measured is the wait alone.
  beforeRead();
  const started = Date.now();
  try {
    siteData();
    return { error: '', ms: Date.now() - started };
  } catch (error) {
    return { error: (error as Error).message, ms: Date.now() - started };
  }
}

describe('the static build waiting for the site data', () => {
  it('without a wait, a missing file fails at once and says to run the daily job', async () => {
    const { error, ms } = await readSiteData(join(dir, 'site.json'), 0);
    expect(error).toMatch(/^No signal data at .*site\.json: run "npm run daily" first/);
    expect(ms).toBeLessThan(200);
  });

  it('with a wait, a file written (then renamed into place) by another process 0.4 s later is read', async () => {
    const file = join(dir, 'site.json');
    // Another process, as the daily job is to Astro's: this thread sleeps while it waits.
    const { error, ms } = await readSiteData(file, 10, () => {
      spawn('sh', ['-c', `sleep 0.4 && printf '{}' > "${file}.partial" && mv "${file}.partial" "${file}"`], { stdio: 'ignore' });
    });
    // Read, then refused by the schema: '{}' is not site data. Not "No signal data": the file was there when read.
    expect(error).not.toMatch(/No signal data/);
    expect(error).toMatch(/npm run daily -- --force/);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(5_000);
  });

  it('gives up after the wait: a file that never comes fails as a missing one', async () => {
    const { error, ms } = await readSiteData(join(dir, 'site.json'), 1);
    expect(error).toMatch(/^No signal data at/);
    expect(ms).toBeGreaterThanOrEqual(950);
  });
});
