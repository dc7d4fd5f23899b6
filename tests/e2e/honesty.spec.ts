/**
 * Honest data in the browser, on the demo app (a build of the bundled sample exports, no key): the sample-data notice,
 * the list markers, the filter form without JavaScript, and every island inside the spec's error boundary.
 */
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO_URL } from './servers';

const expect = baseExpect.configure({ timeout: 15_000 });
const NOTICE = 'Sample data: scores are generated for demonstration';
const RENDER_FAILURE = 'Unable to load application. Please try refreshing the page or contact support if the problem persists.';

test.use({ baseURL: DEMO_URL });

test('a sample build says so on every page, in its meta descriptions, and in /api/health', async ({ page, request }) => {
  for (const path of ['/', '/signal/AAPL', '/heatmap', '/archives']) {
    await page.goto(path);
    await expect(page.getByRole('note')).toContainText(NOTICE);
    for (const selector of ['meta[name="description"]', 'meta[property="og:description"]']) {
      await expect(page.locator(selector)).toHaveAttribute('content', new RegExp(`^${NOTICE}\\. `));
    }
  }
  await page.goto('/signal/AAPL');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', `${NOTICE}. Apple Inc. (AAPL): Neutral, C-Score \u221223.74 on Nov 20, 2026. Daily consumer-spending signal with its 7- and 14-day history.`);
  // The price's own demo label stays.
  await expect(page.getByText('Demo price', { exact: true })).toBeVisible();
  const health = (await (await request.get('/api/health')).json()) as { source: string };
  expect(health.source).toBe('sample');
});

test('list rows show Top and New markers as text, for sight and for screen readers', async ({ page }) => {
  await page.goto('/all-signals');
  const topLinks = await page.locator('#all-signals a[data-top="true"]').count();
  expect(topLinks).toBeGreaterThan(0);
  await expect(page.locator('#all-signals .mk-top')).toHaveCount(topLinks);
  const top = page.locator('#all-signals .mk-top').first();
  await expect(top).toBeVisible();
  await expect(top).toHaveText('Top signal');
  await expect(top.locator('.sr-only')).toHaveText(' signal');
  await expect(page.locator('#all-signals .mk-new').first()).toHaveText('New signal');
  // The New marker is the stock page's new dot: the rows marked New are the ones new today on Recently Qualified.
  const marked = await page.locator('#all-signals tr:has(.mk-new)').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.t!).sort());
  await page.goto('/recently-qualified');
  const newToday = await page.locator('#recent tbody tr').evaluateAll((rows) =>
    rows.filter((r) => (r as HTMLTableRowElement).cells[3]!.textContent!.trim() === 'Yes').map((r) => (r as HTMLElement).dataset.t!).sort(),
  );
  expect(marked).toEqual(newToday);
});

test('the filter form works without JavaScript: the server renders the filtered table', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: DEMO_URL, javaScriptEnabled: false });
  const page = await context.newPage();
  const shownScores = () =>
    page.locator('#all-signals tbody tr:not([hidden]) td:nth-child(3)').evaluateAll((cells) => cells.map((c) => parseFloat(c.textContent!.replace('\u2212', '-'))));
  await page.goto('/all-signals?direction=bearish');
  await expect(page.getByLabel('Direction')).toHaveValue('bearish');
  const bearish = await shownScores();
  expect(bearish.length).toBeGreaterThan(0);
  for (const score of bearish) expect(score).toBeLessThanOrEqual(-65);
  // A direction filter orders by signal strength, the strongest bearish first, without JavaScript too.
  expect(bearish).toEqual([...bearish].sort((a, b) => a - b));
  await expect(page.locator('[data-count]')).toHaveText(`Showing ${bearish.length} of 503 stocks`);
  // Apply submits the form as a plain GET: the next page is filtered by the server too.
  await page.getByLabel('Direction').selectOption('bullish');
  await page.getByLabel('Sector').selectOption('Energy');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/direction=bullish&sector=Energy/);
  const rows = page.locator('#all-signals tbody tr:not([hidden])');
  const sectors = await rows.evaluateAll((list) => list.map((r) => (r as HTMLElement).dataset.s));
  expect(new Set(sectors)).toEqual(new Set(['Energy']));
  for (const score of await shownScores()) expect(score).toBeGreaterThanOrEqual(65);
  await context.close();
});

/** Opens the list page's detail dialog on a top ticker's row (the first one). */
async function clickFirstRow(page: Page, top = false) {
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
  await page.locator(`#all-signals a[data-detail-link][data-top="${top}"]`).first().click();
}

const islands: { name: string; path: string; act?: (page: Page) => Promise<void> }[] = [
  // The chart and the news card hydrate when they come into view.
  { name: 'TrendChart', path: '/signal/AAPL', act: (page) => page.locator('astro-island[component-url*="TrendChart"]').scrollIntoViewIfNeeded() },
  { name: 'PriceCard', path: '/signal/AAPL' },
  { name: 'NewsCard', path: '/signal/AAPL', act: (page) => page.locator('astro-island[component-url*="NewsCard"]').scrollIntoViewIfNeeded() },
  { name: 'PageScripts', path: '/signal/AAPL' },
  { name: 'DetailModal', path: '/all-signals' },
  { name: 'ModalRoot', path: '/all-signals', act: (page) => clickFirstRow(page) },
  { name: 'HeaderLive', path: '/all-signals', act: (page) => clickFirstRow(page) },
  {
    name: 'Toaster',
    path: '/signal/AAPL',
    act: async (page) => {
      // The watch button answers once the page script has hydrated the live header (it marks it).
      await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');
      await page.getByTestId('watch-toggle').click();
    },
  },
  {
    name: 'Paywall',
    path: '/all-signals',
    act: async (page) => {
      // The Top Signals paywall flag (spec section 4), set as docs/screens.md, "Stored in the browser" says; a top row opens it.
      await page.evaluate(() => {
        localStorage.setItem('top-signals-paywall', 'true');
        dispatchEvent(new StorageEvent('storage', { key: 'top-signals-paywall', newValue: 'true', storageArea: localStorage }));
      });
      await clickFirstRow(page, true);
    },
  },
];

for (const island of islands) {
  test(`the ${island.name} island, when it throws, shows the render-failure message instead of a blank area`, async ({ page }) => {
    await page.goto(`${island.path}?island-fault=${island.name}`);
    await island.act?.(page);
    const failure = page.getByRole('alert').filter({ hasText: RENDER_FAILURE });
    await expect(failure).toBeVisible();
    await expect(failure).toContainText(`Test fault: the ${island.name} island threw on purpose (island-fault=${island.name}).`);
    await expect(page.getByRole('alert').filter({ hasText: RENDER_FAILURE })).toHaveCount(1);
  });
}

test('without a fault the same pages show no render failure, and the dialog says No Earnings Scheduled without a calendar', async ({ page }) => {
  await page.goto('/all-signals');
  await clickFirstRow(page);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('earnings-badge')).toHaveText('No Earnings Scheduled');
  await expect(page.getByText(RENDER_FAILURE)).toHaveCount(0);
});
