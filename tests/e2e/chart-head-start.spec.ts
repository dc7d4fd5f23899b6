import { expect, test } from '@playwright/test';

// The stock page's trend chart gets a head start on the reader's first scroll: its library, its trend, its signal
// events and the default range's bars are asked at once, beside the chart island's own load, each once.
// The sample's reports run from 2026-08-28 to 2026-11-20 (60 reports): the default range (3M) shows them all.

test.use({ viewport: { width: 1280, height: 500 } });

test('the first scroll asks the bars beside the trend, not after it, and each part once', async ({ page }) => {
  const asked: { url: string; at: number }[] = [];
  const answered = new Map<string, number>();
  const started = Date.now();
  page.on('request', (request) => asked.push({ url: request.url(), at: Date.now() - started }));
  page.on('requestfinished', (request) => answered.set(request.url(), Date.now() - started));
  await page.goto('/signal/PNW');
  await expect(page.getByTestId('header-price')).toHaveText(/^\$\d/);
  await page.waitForLoadState('networkidle');
  const chartParts = (url: string) => /\/api\/(c-score-trend|track-record)\/PNW|\/api\/polygon\/aggs\/PNW|live-chart/.test(url);
  expect(asked.filter((r) => chartParts(r.url))).toEqual([]);

  await page.evaluate(() => window.scrollBy(0, 300));
  await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-drawn', 'true');
  const trend = asked.find((r) => r.url.includes('/api/c-score-trend/PNW'));
  const bars = asked.filter((r) => r.url.includes('/api/polygon/aggs/PNW'));
  expect(trend).toBeDefined();
  // The default range's windows, counted back from the latest report (the bars route's 31 days at most).
  expect(bars.map((r) => new URL(r.url).search)).toEqual(['?from=2026-08-28&to=2026-09-17', '?from=2026-09-18&to=2026-10-19', '?from=2026-10-20&to=2026-11-20']);
  // Asked before the trend's answer came: from the build's span, not from the trend.
  expect(bars[0]!.at).toBeLessThanOrEqual(answered.get(trend!.url)!);
  for (const part of ['/api/c-score-trend/PNW', '/api/track-record/PNW']) expect(asked.filter((r) => r.url.includes(part))).toHaveLength(1);
  await expect(page.getByTestId('trend-live')).toHaveAttribute('data-markers', /^\d+$/);
});

test("the stock page's scripts load the shell and the page's behaviour without appending preload links", async ({ page }) => {
  await page.goto('/signal/PNW');
  // The live header is the page script's work, after the shell's: both have run.
  await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');
  await page.waitForLoadState('networkidle');
  expect(await page.locator('link[rel=modulepreload]').count()).toBe(0);
});
