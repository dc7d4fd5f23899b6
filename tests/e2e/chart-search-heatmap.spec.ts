import { expect, test, type Locator, type Page } from '@playwright/test';
import { TREND_PLOT_INSETS as INSETS } from '../../src/lib/domain/trend/trend-chart';

// A chart that tells the truth, search that forgives, a heatmap that fits. Against the
// demo app (the offline demo provider: its daily bars are demo prices). The sample's latest report is 2026-11-20;
// PNW is bullish there (96.81, the day before 93.29; averages 91.85 over 7 days, 91.90 over 14).

/** Opens a page in a theme (cardify-theme is read before the first paint). */
async function openIn(page: Page, path: string, theme: 'dark' | 'light') {
  await page.addInitScript((t) => localStorage.setItem('cardify-theme', t), theme);
  await page.goto(path);
}

/** The live chart's focusable box, once the library draws it. */
async function liveChart(page: Page): Promise<Locator> {
  const chart = page.getByTestId('trend-chart');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  return chart.getByRole('group', { name: /^Price and C-Score of PNW/ });
}

for (const theme of ['dark', 'light'] as const) {
  test.describe(`the trend chart (${theme} theme)`, () => {
    test('the crosshair under the mouse reads the day: date, close and C-Score', async ({ page }) => {
      await openIn(page, '/signal/PNW', theme);
      const box = (await (await liveChart(page)).boundingBox())!;
      // The score pane's last day sits left of the price axis, at the right end of the plot.
      await page.mouse.move(box.x + box.width - 60, box.y + box.height - 60);
      await expect(page.getByTestId('trend-legend')).toHaveText(/^\w{3} \d+, 2026, Close \$[\d,.]+, (C-Score|Previous day|Current day) -?[\d.]+/);
      await page.mouse.move(0, 0);
      await expect(page.getByTestId('trend-legend')).toHaveText('');
    });

    test('arrow keys move between days and announce the value', async ({ page }) => {
      await openIn(page, '/signal/PNW', theme);
      const box = await liveChart(page);
      const spoken = page.getByTestId('trend-announce');
      await box.focus();
      await page.keyboard.press('ArrowLeft');
      await expect(spoken).toHaveText(/^Nov 19, 2026, Close \$[\d,.]+, Previous day 93\.29$/);
      await page.keyboard.press('End');
      await expect(spoken).toHaveText(/^Nov 20, 2026, Close \$[\d,.]+, Current day 96\.81$/);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('trend-legend')).toHaveText('');
    });
  });
}

test.describe('the trend chart on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the static first paint (the no-JavaScript view) has the spec\'s axes; the average labels fit beside the plot', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/signal/PNW');
    const chart = page.getByTestId('trend-chart');
    await expect(chart).toHaveAttribute('data-drawn', 'false');
    await expect(chart.locator('svg path')).toHaveCount(1);
    const labels = await chart.locator('[data-date], [data-average-label]').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['14D Avg', '7D Avg', '8/28', '11/20']));
    // The average labels: in the gutter left of the plot (never over the line), wholly inside the chart, apart.
    const wrap = (await chart.getByRole('img').boundingBox())!;
    const placed = await Promise.all((await chart.locator('[data-average-label]').all()).map(async (l) => ({ box: (await l.boundingBox())!, fits: await l.evaluate((e) => e.scrollWidth <= e.clientWidth) })));
    for (const { box, fits } of placed) {
      expect(fits).toBe(true);
      expect(box.x).toBeGreaterThanOrEqual(wrap.x);
      expect(box.x + box.width).toBeLessThanOrEqual(wrap.x + INSETS.left);
      expect(box.y).toBeGreaterThanOrEqual(wrap.y);
    }
    const [a, b] = placed.map((l) => l.box);
    expect(a!.y + a!.height <= b!.y || b!.y + b!.height <= a!.y).toBe(true);
    await context.close();
  });

  test('by touch: a drag pans the chart to earlier days', async ({ page }) => {
    await page.goto('/signal/PNW');
    const box = (await (await liveChart(page)).boundingBox())!;
    await page.getByRole('button', { name: /^1M:/ }).click();
    const chart = page.getByTestId('trend-chart');
    await expect(chart).toHaveAttribute('data-visible-from', /^2026-10-2[0-3]$/);
    const y = box.y + box.height / 2;
    const client = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) => client.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', box.x + 60);
    for (let x = 80; x <= 260; x += 20) await touch('touchMove', box.x + x);
    await touch('touchEnd', box.x + 260);
    await expect(chart).not.toHaveAttribute('data-visible-from', /^2026-10-2[0-3]$/);
  });
});

test.describe('search that forgives', () => {
  test('"nvdia" finds NVDA with its score and badge, Enter opens it; a query that matches nothing offers the closest', async ({ page }) => {
    await page.goto('/heatmap');
    const box = page.getByRole('combobox', { name: 'Search tickers and companies' });
    await box.fill('nvdia');
    const first = page.getByRole('option').first();
    await expect(first).toHaveText(/^NVDA\s+Nvidia\s+-?\d+\.\d\d\s(Bullish|Bearish|Neutral)$/);
    await expect(first.locator('.badge')).toBeVisible();
    await box.fill('coca cola');
    await expect(page.getByRole('option').first()).toHaveText(/^KO\s/);
    await box.fill('aple');
    await expect(page.getByRole('option').first()).toHaveText(/^AAPL\s/);
    await box.fill('aplx');
    await expect(page.getByText('No ticker or company matches. Closest matches:')).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(5);
    // A query that resembles nothing offers nothing.
    await box.fill('qqqxz');
    await expect(page.getByText('No ticker or company matches.', { exact: true })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(0);
    await box.fill('nvdia');
    await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/signal\/NVDA$/);
  });

  test('an empty list offers the closest matches and "Clear filters"', async ({ page }) => {
    await page.goto('/all-signals?q=aplx&direction=bullish');
    const noMatch = page.getByText('No stocks match these filters.');
    await expect(noMatch).toBeVisible();
    const closest = page.getByRole('group', { name: 'Closest matches' }).getByRole('link');
    await expect(closest.first()).toBeVisible();
    expect(await closest.count()).toBeLessThanOrEqual(5);
    await expect(closest.first()).toHaveAttribute('href', /^\/signal\/[A-Z.]+$/);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(noMatch).toBeHidden();
    await expect(page).toHaveURL(/\/all-signals$/);
    await expect(page.locator('#all-signals tbody tr:not([hidden])').first()).toBeVisible();
    await expect(page.locator('form[data-table-filters] input[name=q]')).toHaveValue('');
  });

  test('/signal/NVDAA repeats the ticker, offers the search box with it, and suggests NVDA first', async ({ page }) => {
    const response = await page.goto('/signal/NVDAA');
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stock Not Found');
    await expect(page.getByText('There is no stock NVDAA in the latest report.')).toBeVisible();
    await expect(page.locator('#not-found-search')).toHaveValue('NVDAA');
    const suggestions = page.getByRole('region', { name: 'Closest tickers' }).getByRole('link');
    await expect(suggestions.first()).toHaveAttribute('href', '/signal/NVDA');
    await expect(suggestions.first()).toContainText(/^NVDA\s+Nvidia\s+-?\d+\.\d\d\s(Bullish|Bearish|Neutral)$/);
    await suggestions.first().click();
    await expect(page).toHaveURL(/\/signal\/NVDA$/);
  });
});

test.describe('the heatmap', () => {
  test('on a phone: compact tiles show the whole market in at most 3 screens; the sector chips stay on screen and jump', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/heatmap');
    await expect(page.locator('.tile')).toHaveCount(503);
    const tiles = (await page.locator('[data-heat-sectors]').boundingBox())!;
    expect(tiles.height).toBeLessThanOrEqual(3 * 844);
    // Ticker and score only, uncut.
    const tile = page.getByRole('link', { name: /^AAPL / });
    expect(await tile.evaluate((e) => [...e.children].filter((c) => getComputedStyle(c).clipPath === 'none').map((c) => c.textContent))).toEqual(['AAPL', '-23.74']);
    expect(await tile.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const chips = page.getByRole('navigation', { name: 'Sectors' });
    await page.mouse.wheel(0, 1800);
    await expect(chips).toBeInViewport();
    await chips.getByRole('link', { name: /^Utilities/ }).click();
    await expect(page).toHaveURL(/#utilities$/);
    const heading = page.getByRole('heading', { name: /^Utilities/ });
    await expect(heading).toBeInViewport();
    // The heading is not under the chips.
    const [chipBox, headingBox] = [(await chips.boundingBox())!, (await heading.boundingBox())!];
    expect(headingBox.y).toBeGreaterThanOrEqual(chipBox.y + chipBox.height - 1);
  });

  test('a tile\'s tooltip names the company, the score and the signal', async ({ page }) => {
    await page.goto('/heatmap');
    const tile = page.getByRole('link', { name: /^AAPL / });
    await tile.hover();
    const tip = tile.locator('.tip');
    await expect(tip).toBeVisible();
    await expect(tip).toHaveText('Apple Inc., C-Score -23.74, Neutral');
  });
});

test('in the detail dialog the chart fetches its trend, and Escape hides its crosshair first, then closes the dialog', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
  await page.locator('#all-signals a[data-detail-link][href="/signal/PNW"]').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const chart = dialog.getByTestId('trend-chart');
  await expect(chart).toHaveAttribute('data-state', 'chart');
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  // The pointer left where the row was clicked (over the chart now) would move the crosshair too.
  await page.mouse.move(0, 0);
  await chart.getByRole('group', { name: /^Price and C-Score of PNW/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByTestId('trend-legend')).toContainText('Previous day 93.29');
  await page.keyboard.press('Escape');
  await expect(dialog.getByTestId('trend-legend')).toHaveText('');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
