/**
 * Offline navigation in Chromium against the real demo server: once the service worker is installed and controls the
 * page, the context goes offline; a page the worker never cached answers with the offline page (its own words and
 * the last report seen, never a score) at the address asked for, the app shell it needs still comes from the
 * worker's cache, the API does not answer from any cache, and back online "Try again" loads the real page.
 */
import { expect, test } from '@playwright/test';

test('offline, a page not cached shows the offline page while the cached app shell still serves', async ({ page, context }) => {
  test.slow();
  await page.goto('/signal/AAPL');
  const reportDate = await page.locator('meta[name="report-date"]').getAttribute('content');
  expect(reportDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
  // The page that registered the worker is not controlled by it; the next load is.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null)).toBe('activated');
  // The shell the worker keeps is in its cache before the network goes (a slow machine may still be filling it).
  await expect.poll(() => page.evaluate(async () => (await caches.match('/offline.html'))?.status ?? null)).toBe(200);

  await context.setOffline(true);
  await page.goto('/signal/MSFT');
  expect(new URL(page.url()).pathname).toBe('/signal/MSFT');
  await expect(page).toHaveTitle('Offline');
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.getByText('This page needs the network: no signal or score is shown without it, so nothing here is out of date.')).toBeVisible();
  // offline.js ran (from the cache): it names the last report this device showed.
  const shown = new Date(`${reportDate}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  await expect(page.locator('#last-report')).toHaveText(`The last report you saw here was of ${shown}. Reconnect to see the current one.`);
  await expect(page.locator('body')).not.toContainText('C-Score');
  // The shell's icon came from the cache too.
  await expect.poll(() => page.locator('main img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(192);

  // The cached app shell still serves while offline; a page's or the API's answer is never kept, so those fail.
  const answers = await page.evaluate(async () => {
    const status = (path: string) => fetch(path, { cache: 'no-store' }).then((r) => r.status, () => 'failed');
    return { shell: await status('/offline.js'), icon: await status('/icons/icon-192.png'), api: await status('/api/health'), page: await status('/signal/AAPL') };
  });
  expect(answers).toEqual({ shell: 200, icon: 200, api: 'failed', page: 'failed' });

  // Another kind of page the worker never saw is the offline page too.
  await page.goto('/screener');
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await page.goto('/signal/MSFT');

  // Back online, "Try again" loads the page asked for, from the network.
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe('/signal/MSFT');
  await expect(page.locator('meta[name="report-date"]')).toHaveAttribute('content', reportDate!);
  await expect(page).toHaveTitle(/MSFT/);
});
