import { expect, test } from '@playwright/test';

test('the home page lists the day\'s signals from the sample exports and links to each ticker', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'All Signals' })).toBeVisible();
  await expect(page.getByText('503 stocks, report of Nov 20, 2026.')).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(503);
  await page.getByRole('link', { name: 'BRK.B', exact: true }).click();
  await expect(page).toHaveURL(/\/signal\/BRK\.B$/);
  await expect(page).toHaveTitle('C-Score Signals BRK.B');
  await expect(page.getByText('Signal data uploaded: Nov 20, 2026')).toBeVisible();
});

test('the stored theme is applied before the first paint', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(12, 13, 16)');
});

test('an unknown path answers 404 with the not-found page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
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
});
