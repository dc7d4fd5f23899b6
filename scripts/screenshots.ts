/**
 * `npm run screenshots -- --out docs/screenshots/after`: builds the bundled sample exports into .tmp/screenshots, serves
 * the build with the real server and saves what a phone shows first (390 x 844) of `/`, a list page and a stock page,
 * in both themes, with the system Chromium. Re-runnable: the same inputs give the same pages.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium, settleNetwork } from './bench/browser';
import { runTsx } from './bench/process';
import { startServer } from './bench/server';
import { THEME_STORAGE_KEY } from '../src/lib/domain/site/ui';

const USAGE = `usage: npm run screenshots -- --out DIR [--width 390] [--height 844]
  --out     the folder the PNG files go to (made when missing)
  --width   viewport width in CSS pixels (390, an iPhone's)
  --height  viewport height in CSS pixels (844)`;

/** The pages shown: the landing page, a list and a stock page. */
const SHOTS = [
  { name: 'home', path: '/' },
  { name: 'list', path: '/currently-qualified' },
  { name: 'stock', path: '/signal/AAPL' },
  { name: 'screener', path: '/screener?cscore=40..&sort=-change' },
] as const;

const THEMES = ['light', 'dark'] as const;

function fail(message: string): never {
  console.error(`screenshots: ${message}\n${USAGE}`);
  process.exit(2);
}

function pixels(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 200 || value > 4000) fail(`--${name} "${text}": expected a whole number of pixels between 200 and 4000`);
  return value;
}

let parsed;
try {
  parsed = parseArgs({ options: { out: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' }, help: { type: 'boolean', default: false } } });
} catch (error) {
  fail((error as Error).message);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!parsed.values.out) fail('--out is required');
const width = pixels('width', parsed.values.width, 390);
const height = pixels('height', parsed.values.height, 844);

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = resolve(parsed.values.out);
const work = join(root, '.tmp/screenshots');
const site = {
  SIGNALS_SOURCE: 'data/sample-exports',
  ARCHIVE_DIR: join(work, 'archive'),
  DIST_DIR: join(work, 'dist'),
  HISTORY_STORE: join(work, 'history'),
  SHARE_IMAGE_CACHE: join(work, 'share-images'),
  FUNDAMENTALS_FILE: join(work, 'fundamentals.json'),
  DATABASE_FILE: join(work, 'app.db'),
  DATABASE_URL: '',
  // The offline demo provider and no model, whatever the shell has: the same pages on every machine.
  POLYGON_API_KEY: '',
  LLM_BASE_URL: '',
  LLM_API_KEY: '',
  LLM_MODEL: '',
};

// A fresh build of the checkout as it is: a build left from other code would show other pages.
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
console.log('Building the sample exports (about a minute)...');
const built = await runTsx(root, 'scripts/daily.ts', ['--force'], { ...process.env, ...site });
if (built.code !== 0) fail(`the daily job failed (exit ${built.code}):\n${built.stderr.trim() || built.stdout.trim()}`);

// Ports apart from the bench's 4800-4899: the two may run at once.
const server = await startServer(root, site.DIST_DIR, site, { first: 4900, last: 4999 });
const browser = await launchChromium(process.env.CHROMIUM_PATH || '/usr/bin/chromium');
try {
  await mkdir(out, { recursive: true });
  for (const theme of THEMES) {
    // Reduced motion: the stock page shows its final C-Score at once instead of mid-count-up.
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme: theme, reducedMotion: 'reduce' });
    await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
    const page = await context.newPage();
    for (const shot of SHOTS) {
      await page.goto(server.origin + shot.path, { waitUntil: 'load' });
      await settleNetwork(page);
      const file = join(out, `${shot.name}-${width}-${theme}.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
      console.log(`  ${shot.path} (${theme}) -> ${file}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
