import { expect, test } from '@playwright/test';

// The stock page's trend chart is drawn on the reader's first scroll without React, and the card's island, which
// starts after, takes that chart over instead of making a second one or drawing it again.
// The sample's latest report is 2026-11-20 with 60 reports from 2026-08-28 (the default 3M range shows them all).

// A short window: the trend card starts below the fold.
test.use({ viewport: { width: 1280, height: 500 } });

test('the first scroll draws the chart before the island runs; the island takes that chart over without drawing it again', async ({ page }) => {
  // A library drawing clears its canvases in one task: the tasks that clear a canvas are the drawings (the library's
  // own 1 x 1 canvas check aside).
  await page.addInitScript(() => {
    const counts = { draws: 0 };
    (window as unknown as { chartDraws: typeof counts }).chartDraws = counts;
    let inDraw = false;
    const clear = CanvasRenderingContext2D.prototype.clearRect;
    CanvasRenderingContext2D.prototype.clearRect = function (this: CanvasRenderingContext2D, x: number, y: number, w: number, h: number) {
      if (!inDraw && w > 1 && h > 1) {
        inDraw = true;
        counts.draws += 1;
        queueMicrotask(() => (inDraw = false));
      }
      return clear.call(this, x, y, w, h);
    };
  });
  await page.goto('/signal/PNW');
  await expect(page.getByTestId('header-price')).toHaveText(/^\$\d/);
  await page.waitForLoadState('networkidle');
  const chart = page.getByTestId('trend-chart');
  const island = page.locator('astro-island', { has: chart });
  await expect(island).toHaveAttribute('ssr', '');
  // Whether the island had started when the chart was drawn.
  await chart.evaluate((element) => {
    const island = element.closest('astro-island')!;
    new MutationObserver((_, observer) => {
      if (element.getAttribute('data-drawn') !== 'true') return;
      observer.disconnect();
      (window as unknown as { islandAtDraw: boolean }).islandAtDraw = !island.hasAttribute('ssr');
    }).observe(element, { attributes: true, attributeFilter: ['data-drawn'] });
  });

  const draws = () => page.evaluate(() => (window as unknown as { chartDraws: { draws: number } }).chartDraws.draws);
  // A first scroll that leaves the card below the fold (its top is near 850 px).
  await page.evaluate(() => window.scrollBy(0, 300));
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  expect(await page.evaluate(() => (window as unknown as { islandAtDraw: boolean }).islandAtDraw)).toBe(false);
  await expect(chart.getByTestId('trend-live')).toHaveAttribute('aria-label', /^Price and C-Score of PNW\./);
  await expect(chart.getByTestId('trend-live')).toHaveAttribute('tabindex', '0');
  // The library's own frames: its first drawing measures the axes and asks for one more.
  await page.waitForTimeout(1000);
  const drawn = await draws();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThanOrEqual(2);

  // In view, the island starts and takes the chart over: its summary, its span, its badge; no second chart, no redraw.
  await chart.scrollIntoViewIfNeeded();
  await expect(island).not.toHaveAttribute('ssr', /.*/);
  await expect(chart.getByTestId('trend-summary')).toHaveText(/over 60 reports/);
  await expect(chart).toHaveAttribute('data-visible-from', '2026-08-28');
  await expect(page.getByTestId('demo-prices')).toHaveText('Demo prices');
  await expect(chart.locator('svg path')).toHaveCount(0);
  await page.waitForTimeout(1000);
  await expect(chart.locator('.tv-lightweight-charts')).toHaveCount(1);
  expect(await draws()).toBe(drawn);

  // The island drives the chart it took over: a range moves its view (and draws it again).
  await page.getByRole('group', { name: 'Trend range for PNW' }).getByRole('button', { name: 'Last month' }).click();
  await expect(chart).toHaveAttribute('data-visible-from', /^2026-10-2[0-3]$/);
  await expect(chart.getByTestId('trend-summary')).toHaveText(/over 24 reports/);
});
