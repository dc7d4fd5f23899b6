import { expect, test } from '@playwright/test';
import { watch } from './page-checks';
import { demoClose } from '../../src/lib/domain/market-data/demo-prices';
import { formatPrice } from '../../src/lib/domain/text/format';
import { PRICE_PANE_HEIGHT } from '../../src/lib/domain/trend/trend-chart';
import { TREND_CHART_HEIGHTS } from '../../src/lib/domain/trend/trend';

// The live chart on lightweight-charts, against the built demo app (its CSP: no eval, no unhashed inline script).
// The sample's latest report is 2026-11-20 with 60 reports from 2026-08-28; PNW is bullish (96.81, the day before
// 93.29); NVDA entered and exited bearish signals five times (its track-record ledger).

// A short window: the trend card starts well below the fold, past the island's 200 px margin.
test.use({ viewport: { width: 1280, height: 500 } });

test('the library chart replaces the SVG on scroll, in the same box, with no layout shift', async ({ page }) => {
  const errors = await watch(page);
  const library: string[] = [];
  page.on('request', (r) => r.url().includes('live-chart') && library.push(r.url()));
  await page.goto('/signal/PNW');
  const chart = page.getByTestId('trend-chart');
  // First paint: the SVG drawn at build time, the price pane's place reserved; the library not loaded.
  await expect(chart.locator('svg path')).toHaveCount(1);
  await expect(chart).toHaveAttribute('data-drawn', 'false');
  const before = (await chart.boundingBox())!;
  expect(before.height).toBe(PRICE_PANE_HEIGHT + TREND_CHART_HEIGHTS.card);
  await page.waitForTimeout(500);
  expect(library).toEqual([]);

  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  expect(library.length).toBeGreaterThan(0);
  await expect(chart.locator('svg path')).toHaveCount(0);
  await expect(chart.getByTestId('trend-live').locator('canvas').first()).toBeVisible();
  const after = (await chart.boundingBox())!;
  expect([after.width, after.height]).toEqual([before.width, before.height]);
  const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
  expect(shifts.reduce((sum, value) => sum + value, 0)).toBe(0);
  // The demo provider's prices are named so, and nothing broke under the CSP.
  await expect(page.getByTestId('demo-prices')).toHaveText('Demo prices');
  expect(errors).toEqual([]);
});

test('no schema library runs on the stock page, before the reader scrolls or for the chart; the first scroll readies the chart before the card is in view', async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => response.request().resourceType() === 'script' && scripts.push(response.text()));
  await page.goto('/signal/PNW');
  // The header's script has run (it shows the quote) and the page has gone quiet.
  await expect(page.getByTestId('header-price')).toHaveText(/^\$\d/);
  await page.waitForLoadState('networkidle');
  const before = await Promise.all(scripts);
  expect(before.length).toBeGreaterThan(0);
  // zod's classes carry their names as strings through minification.
  expect(before.filter((text) => text.includes('$ZodType'))).toEqual([]);
  // A first scroll that leaves the card below the fold (its top is near 850 px): the chart gets ready meanwhile.
  await page.evaluate(() => window.scrollBy(0, 300));
  await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-drawn', 'true');
  expect(await page.getByTestId('trend-chart').evaluate((chart) => chart.getBoundingClientRect().top > window.innerHeight)).toBe(true);
  // The chart reads its trend and events with the domain's own checks: zod stays off its path too.
  expect((await Promise.all(scripts)).filter((text) => text.includes('$ZodType'))).toEqual([]);
});

test('markers sit on the days a stock entered, exited or reversed a signal, with their meaning', async ({ page }) => {
  await page.goto('/signal/NVDA');
  const chart = page.getByTestId('trend-chart');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  const live = chart.getByTestId('trend-live');
  // Five bearish entries and five exits in the ledger, each on a report day of the chart.
  await expect(live).toHaveAttribute('data-markers', '10');
  await live.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('trend-announce')).toHaveText(/^Aug 28, 2026, Close \$[\d,.]+, C-Score -?[\d.]+, Entered a bearish signal \(C-Score -65 or less\)$/);
});

test('the keyboard moves the crosshair and a live region reads the date, close and C-Score; Escape hides it', async ({ page }) => {
  await page.goto('/signal/PNW');
  const chart = page.getByTestId('trend-chart');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  const live = chart.getByRole('group', { name: /^Price and C-Score of PNW/ });
  await live.focus();
  const spoken = page.getByTestId('trend-announce');
  await page.keyboard.press('ArrowLeft');
  // The close is the one daily price series' (the demo provider's) for that day.
  await expect(spoken).toHaveText(`Nov 19, 2026, Close ${formatPrice(demoClose('PNW', '2026-11-19'))}, Previous day 93.29`);
  // The tooltip reads the averages too, with the spec's labels.
  await expect(page.getByTestId('trend-legend')).toHaveText(`Nov 19, 2026, Close ${formatPrice(demoClose('PNW', '2026-11-19'))}, Previous day 93.29 · 14D avg. 91.90, 7D avg. 91.85`);
  await page.keyboard.press('ArrowRight');
  await expect(spoken).toHaveText(`Nov 20, 2026, Close ${formatPrice(demoClose('PNW', '2026-11-20'))}, Current day 96.81`);
  await page.keyboard.press('Home');
  await expect(spoken).toHaveText(/^Aug 28, 2026, /);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('trend-legend')).toHaveText('');
});

test('the ranges change the visible span; the wheel zooms', async ({ page }) => {
  await page.goto('/signal/PNW');
  const chart = page.getByTestId('trend-chart');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  // 3M holds the whole 60 reports.
  await expect(chart).toHaveAttribute('data-visible-from', '2026-08-28');
  await expect(chart).toHaveAttribute('data-visible-to', '2026-11-20');
  await page.getByRole('button', { name: /^1M:/ }).click();
  await expect(chart).toHaveAttribute('data-visible-from', /^2026-10-2[0-3]$/);
  await expect(chart).toHaveAttribute('data-visible-to', '2026-11-20');
  await page.getByRole('button', { name: /^3M:/ }).click();
  await expect(chart).toHaveAttribute('data-visible-from', '2026-08-28');
  // Zoom in with the wheel over the chart: a shorter span.
  const box = (await chart.getByTestId('trend-live').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect(chart).not.toHaveAttribute('data-visible-from', '2026-08-28');
});
