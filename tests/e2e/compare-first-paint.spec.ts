/**
 * /compare paints its chart without lightweight-charts: an SVG of the same lines, in the library's box. On a phone the
 * library waits for the reader's first move (a scroll, a touch) and then takes the same box with no layout shift; on
 * a device with a mouse it loads once the page is idle (compare.spec.ts waits for it there). And /track-record runs no
 * schema library before its equity chart is in view.
 */
import { expect, test } from '@playwright/test';
import { contrastOf, watch } from './page-checks';
import { COMPARE_CHART_HEIGHT } from '../../src/lib/domain/signals/compare-chart';
import { THEME_STORAGE_KEY } from '../../src/lib/domain/site/ui';

const FIVE = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'];

for (const theme of ['light', 'dark'] as const) {
  test.describe(`a phone, ${theme} theme`, () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: theme });

    test('5 stocks: the SVG chart paints with no library; the first scroll brings the library into the same box with no layout shift', async ({ page }) => {
      await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
      const errors = await watch(page);
      const library: string[] = [];
      page.on('request', (r) => r.url().includes('lightweight-charts') && library.push(r.url()));
      await page.goto(`/compare?t=${FIVE.join(',')}`);
      const chart = page.getByTestId('compare-chart');
      await expect(chart).toHaveAttribute('data-state', 'painted');
      const drawing = page.getByTestId('compare-first-paint');
      // Each stock's C-Score and rebased price, in the address's order, and its label on the scale.
      expect(await drawing.locator('path[data-score]').evaluateAll((paths) => paths.map((p) => [p.getAttribute('data-score'), /^M[\d,-]+l/.test(p.getAttribute('d')!)]))).toEqual(FIVE.map((t) => [t, true]));
      expect(await drawing.locator('path[data-price]').evaluateAll((paths) => paths.map((p) => p.getAttribute('data-price')))).toEqual(FIVE);
      await expect(drawing.locator('.cmp-fp-tag')).toHaveCount(10);
      await expect(drawing.locator('.cmp-fp-tag').first()).toHaveText(/^AAPL −?\d+\.\d\d$/);
      await expect(drawing.locator('.cmp-fp-y')).toContainText(['-100', '-65', '0', '65', '100']);
      // The scale's labels are readable on the page in this theme.
      const [label, page_] = await drawing.locator('.cmp-fp-y').first().evaluate((el) => [getComputedStyle(el).color, getComputedStyle(document.body).backgroundColor]);
      expect(contrastOf(label!, page_!)).toBeGreaterThanOrEqual(3);
      await expect(page.getByTestId('compare-table').locator('tbody tr')).toHaveCount(5);
      const before = (await chart.boundingBox())!;
      expect(before.height).toBe(COMPARE_CHART_HEIGHT);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      expect(library, 'no library before the reader moves').toEqual([]);

      await page.evaluate(() => window.scrollBy(0, 40));
      await expect(chart).toHaveAttribute('data-state', 'drawn');
      expect(library.length).toBeGreaterThan(0);
      await expect(chart.locator('canvas').first()).toBeVisible();
      await expect(drawing).toHaveCount(0);
      const after = (await chart.boundingBox())!;
      expect([after.width, after.height]).toEqual([before.width, before.height]);
      expect((await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).reduce((sum, v) => sum + v, 0)).toBe(0);
      expect(errors).toEqual([]);
    });
  });
}

test('a phone: a touch on the drawing brings the library', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/compare?t=NVDA,AAPL');
  const chart = page.getByTestId('compare-chart');
  await expect(chart).toHaveAttribute('data-state', 'painted');
  await chart.tap();
  await expect(chart).toHaveAttribute('data-state', 'drawn');
  await expect(chart).toHaveAttribute('data-lines', '2');
  await context.close();
});

test('/track-record runs no schema library before its equity chart is in view, and draws the chart once it is', async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => response.request().resourceType() === 'script' && scripts.push(response.text()));
  await page.goto('/track-record');
  await page.waitForLoadState('networkidle');
  const before = await Promise.all(scripts);
  expect(before.length).toBeGreaterThan(0);
  // zod's classes carry their names as strings through minification.
  expect(before.filter((text) => text.includes('$ZodType'))).toEqual([]);
  const chart = page.locator('[data-equity-chart]');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  expect((await Promise.all(scripts)).some((text) => text.includes('$ZodType'))).toBe(true);
});
