import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';
import { THEME_STORAGE_KEY } from '../../src/lib/domain/site/ui';
import { E2E_DIR, E2E_PORT } from './servers';
import { contrastOf } from './page-checks';

// Phones and the light theme: no page wider than a phone on data made to break layouts, Track Record readable at
// 390 px, the dialog's header on one line, the chart's range buttons usable at once, a landing page of bounded height.

const THEMES = ['light', 'dark'] as const;

/** The scroll width of the page and up to 3 elements sticking out past the right edge. */
function overflow(): { scrollWidth: number; culprits: string[] } {
  const width = window.innerWidth;
  const culprits: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.right > width + 0.5 && box.width > 0 && culprits.length < 3) culprits.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(box.right)}`);
  }
  return { scrollWidth: document.scrollingElement!.scrollWidth, culprits };
}

async function themed(browser: Browser, theme: (typeof THEMES)[number], viewport: { width: number; height: number }, baseURL?: string) {
  const context = await browser.newContext({ colorScheme: theme, viewport, ...(baseURL ? { baseURL } : {}) });
  await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
  return context;
}

// ---- Generated data: long company names, an unbroken name, extreme and negative values, every badge at once. ----

const GEN_PORT = E2E_PORT + 700;
const GEN_URL = `http://127.0.0.1:${GEN_PORT}`;
const GEN_DIR = join(E2E_DIR, 'trust-phones');
const DAYS = ['2026-11-18', '2026-11-19', '2026-11-20'];
const LONG_NAME = '"The Extraordinarily Long-Named International Holdings, Consolidated Industries and Allied Services Corporation of North America, Europe and Asia Pacific Incorporated"';
const UNBROKEN = 'Pneumonoultramicroscopicsilicovolcanoconiosisandhippopotomonstrosesquippedaliophobiaholdings';
/** Ticker, name, its C-Scores on the three days, top ticker. Accuracy and Relevance are unbounded: huge and negative. */
const GENERATED: [string, string, [number, number, number], boolean][] = [
  ['LONGNAMEAB', LONG_NAME, [10, 20, 99.99], true], // a new bullish top signal
  ['UNBRK.B', UNBROKEN, [80, 80, -100], true], // a reversal
  ['EXITX', UNBROKEN.slice(0, 60), [90, 90, 10], false], // an exit
  ['NEG', 'Negative Everything Corp', [-99.99, -99.99, -99.99], true],
  ['NEWBR', '"Newly Bearish Very Long Company Name Holdings, Inc."', [0, -10, -65], false],
  ...['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF', 'GGG'].map((t, i): [string, string, [number, number, number], boolean] => [t, `${t} Plain Co`, [i * 10 - 30, i * 10 - 25, i * 10 - 20], false]),
];

function generatedDay(day: number): string {
  const date = DAYS[day]!;
  return exportCsv(
    GENERATED.map(([ticker, name, scores, top]) => {
      const [score, yesterday] = [scores[day]!, scores[Math.max(0, day - 1)]!];
      return exportRow(ticker, name, date, score, `${yesterday},-100,-123456789.12,100,98765432.1,${score},${-score},7,14,${top ? 'TRUE' : 'FALSE'}`);
    }),
  );
}

let server: ChildProcess | null = null;

test.describe('on generated data made to break layouts', () => {
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    await rm(GEN_DIR, { recursive: true, force: true });
    await writeExports(join(GEN_DIR, 'source'), Object.fromEntries(DAYS.map((date, i) => [`signals-${date}.csv`, generatedDay(i)])));
    // The real `npm start`: the daily job builds the generated source into its own folder, then the server serves it.
    server = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/start.ts'], {
      env: {
        ...process.env,
        SIGNALS_SOURCE: join(GEN_DIR, 'source'),
        ARCHIVE_DIR: join(GEN_DIR, 'archive'),
        DIST_DIR: join(GEN_DIR, 'dist'),
        DATABASE_FILE: join(GEN_DIR, 'app.db'),
        SHARE_IMAGE_CACHE: join(GEN_DIR, 'share-images'),
        SITE_URL: GEN_URL,
        PORT: String(GEN_PORT),
        HOST: '127.0.0.1',
        POLYGON_API_KEY: '',
        LLM_BASE_URL: '',
        LLM_API_KEY: '',
        LLM_MODEL: '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 280_000;
    for (;;) {
      const up = await fetch(`${GEN_URL}/api/health`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the generated site did not start (exit ${server.exitCode})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  });
  test.afterAll(() => {
    server?.kill();
  });

  const ROUTES = ['/', '/all-signals', '/recently-qualified', '/currently-qualified', '/reversals-exits', '/signal/LONGNAMEAB', '/signal/UNBRK.B', '/signal/NEG', '/track-record', '/heatmap', '/archives', '/learn', '/ai-analysis'];
  for (const width of [320, 390]) {
    test(`at ${width} px no page is wider than the screen, in both themes`, async ({ browser }) => {
      test.setTimeout(120_000);
      const wide: string[] = [];
      for (const theme of THEMES) {
        const context = await themed(browser, theme, { width, height: 800 }, GEN_URL);
        const page = await context.newPage();
        for (const route of ROUTES) {
          await page.goto(route, { waitUntil: 'load' });
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await page.waitForLoadState('networkidle');
          const found = await page.evaluate(overflow);
          if (found.scrollWidth > width) wide.push(`${route} ${theme}: ${found.scrollWidth} px (${found.culprits.join(', ')})`);
        }
        await context.close();
      }
      expect(wide).toEqual([]);
    });
  }

  test('the generated data shows every badge at once: top, new, a reversal and an exit', async ({ page }) => {
    await page.goto(`${GEN_URL}/all-signals`);
    const row = page.locator('#all-signals tbody tr', { has: page.getByRole('link', { name: 'LONGNAMEAB', exact: true }) });
    await expect(row.locator('.mk-top')).toHaveCount(1);
    await expect(row.locator('.mk-new')).toHaveCount(1);
    await page.goto(`${GEN_URL}/reversals-exits`);
    await expect(page.getByRole('link', { name: 'UNBRK.B', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'EXITX', exact: true }).first()).toBeVisible();
  });
});

// ---- The sample site (the demo app): Track Record, the dialog, the chart, the landing page. ----

test('Track Record at 390 px: chart labels of 11 px or more, figures tables as cards with nothing cut', async ({ browser }) => {
  const context = await themed(browser, 'light', { width: 390, height: 844 });
  const page = await context.newPage();
  await page.goto('/track-record');
  const sizes = await page.getByTestId('calibration-chart').evaluate((svg) =>
    [...svg.querySelectorAll('text')].map((t) => (t as SVGTextElement).getScreenCTM()!.a * parseFloat(getComputedStyle(t).fontSize)),
  );
  expect(sizes.length).toBeGreaterThan(10);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
  for (const id of ['direction-table', 'band-table', 'sector-table']) {
    const table = page.getByTestId(id);
    // Every cell whole inside the screen: none cut by the table's box, none past the right edge.
    const cut = await table.evaluate((t) =>
      [...t.querySelectorAll('tbody th, tbody td')].filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > window.innerWidth).map((c) => c.textContent),
    );
    expect(cut).toEqual([]);
    // Each figure says which column it is: "30 days" and its rate on one card.
    await expect(table.locator('tbody tr').first().locator('td[data-label="30 days"]')).toBeVisible();
  }
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

/** Lines a button's label takes. */
async function labelLines(page: Page, name: string | RegExp, scope = page.getByRole('dialog')): Promise<number> {
  return scope.getByRole('button', { name }).first().evaluate((b) => {
    const range = document.createRange();
    range.selectNodeContents(b);
    // A new line starts below the last line's bottom (a star glyph of another font sits a pixel or two off, on the same line).
    const rects = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const r of rects) {
      if (r.top >= bottom - 2) lines += 1;
      bottom = Math.max(bottom, r.bottom);
    }
    return lines;
  });
}

test("at 390 px the dialog's header buttons keep their labels on one line, and its description takes at most two", async ({ browser }) => {
  const context = await themed(browser, 'light', { width: 390, height: 844 });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
  await page.locator('#all-signals a[data-detail-link]').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Copy link to this page' })).toBeVisible();
  for (const name of ['Copy link to this page', /Watch/, 'Alerts']) expect(await labelLines(page, name)).toBe(1);
  const open = dialog.getByRole('link', { name: 'Open page' });
  expect(await open.evaluate((a) => a.getBoundingClientRect().height)).toBeLessThan(48);
  const description = dialog.getByText(/: C-Score detail for the report of /);
  const lines = await description.evaluate((d) => d.getBoundingClientRect().height / parseFloat(getComputedStyle(d).lineHeight));
  expect(lines).toBeLessThanOrEqual(2.05);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width} px the chart's range buttons work as soon as they are on screen`, async ({ browser }) => {
    const context = await themed(browser, 'light', viewport);
    const page = await context.newPage();
    await page.goto('/signal/PNW');
    const ranges = page.getByRole('group', { name: 'Trend range for PNW' });
    // Only the buttons come into view (at 1280 px they are there at load, most of the chart below the fold).
    await ranges.evaluate((g) => g.scrollIntoView({ block: 'end' }));
    const month = ranges.getByRole('button', { name: 'Last month' });
    await expect(month).toBeEnabled({ timeout: 5000 });
    await month.click();
    await expect(month).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-range', '1M');
    await context.close();
  });
}

for (const theme of THEMES) {
  test(`the chosen range stays readable on hover, and the ranges longer than the history say so (${theme})`, async ({ browser }) => {
    const context = await themed(browser, theme, { width: 1280, height: 800 });
    const page = await context.newPage();
    await page.goto('/signal/PNW');
    const ranges = page.getByRole('group', { name: 'Trend range for PNW' });
    const chosen = ranges.getByRole('button', { name: 'Last 3 months' });
    await expect(ranges.getByRole('button', { name: 'Last month' })).toBeEnabled();
    for (const state of ['rest', 'hover'] as const) {
      if (state === 'hover') await chosen.hover();
      const [color, background] = await chosen.evaluate((b) => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]);
      expect(contrastOf(color!, background!), `${state}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
    const idle = ranges.getByRole('button', { name: 'Last month' });
    const [color, background] = await idle.evaluate((b) => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]);
    expect(contrastOf(color!, background!)).toBeGreaterThanOrEqual(4.5);
    // 60 days of sample history: 1Y and All are off, and the reason is on screen and read with them.
    await expect(ranges.getByRole('button', { name: 'Last year' })).toBeDisabled();
    await expect(ranges.getByRole('button', { name: 'All history' })).toHaveAccessibleDescription(/^1Y and All show the same as 3M: the history starts on /);
    await expect(page.getByTestId('trend-ranges-note')).toBeVisible();
    await context.close();
  });
}

test('the landing page shows the summary and the top of the table, a bounded height, and the way to All Signals', async ({ browser }) => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const context = await themed(browser, 'light', viewport);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Nov 20, 2026 in numbers' })).toBeVisible();
    await expect(page.locator('#all-signals tbody tr')).toHaveCount(20);
    const height = await page.evaluate(() => document.scrollingElement!.scrollHeight);
    // It was 27,000 px at 1280 with every row.
    expect(height).toBeLessThan(viewport.width === 1280 ? 4000 : 7000);
    const link = page.getByRole('link', { name: 'See all 503 stocks in All Signals' });
    await expect(link).toHaveAttribute('href', '/all-signals');
    await link.click();
    await expect(page.locator('#all-signals tbody tr')).toHaveCount(503);
    await context.close();
  }
});

test('in the light theme a qualified heatmap tile is outlined in the text colour and set apart from an almost-qualified one', async ({ browser }) => {
  const context = await themed(browser, 'light', { width: 1280, height: 800 });
  const page = await context.newPage();
  await page.goto('/heatmap');
  const [q, other, pageBg] = await page.evaluate(() => {
    const style = (e: Element | null) => getComputedStyle(e!);
    const qualified = style(document.querySelector('.tile.q'));
    const plain = style(document.querySelector('.tile:not(.q)'));
    return [{ bg: qualified.backgroundColor, ring: qualified.boxShadow, color: qualified.color }, { bg: plain.backgroundColor, color: plain.color }, style(document.body).backgroundColor];
  });
  expect(contrastOf(q.bg, pageBg)).toBeGreaterThanOrEqual(3);
  expect(contrastOf(q.color, q.bg)).toBeGreaterThanOrEqual(4.5);
  expect(contrastOf(other.color, other.bg)).toBeGreaterThanOrEqual(4.5);
  // The ring's outer edge is the page's text colour, 3:1 or more against the light page.
  const edge = q.ring.match(/rgba?\([^)]+\)/)![0];
  expect(contrastOf(edge, pageBg)).toBeGreaterThanOrEqual(3);
  const scale = await page.locator('.heat-scale').evaluate((e) => getComputedStyle(e).outlineColor);
  expect(contrastOf(scale, pageBg)).toBeGreaterThanOrEqual(3);
  await context.close();
});
