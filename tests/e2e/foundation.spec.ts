import { expect, test } from '@playwright/test';

test('the home page lists the day\'s signals from the sample exports and links to each ticker', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('C-Score Signals (beta): daily bullish and bearish stock signals');
  await expect(page.getByRole('heading', { level: 1, name: 'All Signals' })).toBeVisible();
  await expect(page.getByText('503 stocks, report of Nov 20, 2026.')).toBeVisible();
  // The top of the table, and a link to the whole list on All Signals.
  await expect(page.locator('#all-signals tbody tr')).toHaveCount(20);
  await expect(page.getByRole('link', { name: 'See all 503 stocks in All Signals' })).toHaveAttribute('href', '/all-signals');
  await page.goto('/all-signals');
  await expect(page.locator('#all-signals tbody tr')).toHaveCount(503);
  const link = page.getByRole('link', { name: 'BRK.B', exact: true });
  await expect(link).toHaveAttribute('data-detail-link', '');
  await expect(link).toHaveAttribute('data-top', /^(true|false)$/);
  await link.click();
  await expect(page).toHaveURL(/\/signal\/BRK\.B$/);
  await expect(page).toHaveTitle('C-Score Signals BRK.B');
  await expect(page.getByText('Signal data uploaded: Nov 20, 2026')).toBeVisible();
});

test('an unknown path answers 404 with the not-found page in the shell', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('static answers carry content types and cache headers', async ({ request }) => {
  const html = await request.get('/');
  expect(html.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(html.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(html.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const body = await html.text();
  const asset = /\/_astro\/[^"]+\.css/.exec(body)?.[0];
  expect(asset).toBeTruthy();
  const css = await request.get(asset!);
  expect(css.headers()['content-type']).toBe('text/css; charset=utf-8');
  expect(css.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const health = await request.get('/api/health');
  expect(await health.json()).toMatchObject({ status: 'ok', reportDate: '2026-11-20', tickers: 503 });
  const index = await request.get('/search-index.json');
  const entries = (await index.json()) as [string, string, number | null][];
  expect(entries).toHaveLength(503);
  expect(entries).toContainEqual(['AAPL', 'Apple Inc.', -23.74]);
});
