/**
 * Nothing but the page's own files comes before its first paint: the manifest (which Chromium fetches at once, with
 * its icon) is linked only after the page has loaded, beside the service worker, and the browser still finds it.
 */
import { expect, test } from '@playwright/test';

test('the manifest is linked after load, not in the HTML, and the browser finds it', async ({ page, context }) => {
  const html = await (await page.request.get('/signal/AAPL')).text();
  expect(html).not.toMatch(/<link[^>]+rel="manifest"/);
  const early: string[] = [];
  let loaded = false;
  page.on('request', (r) => !loaded && /manifest\.webmanifest|\/icons\//.test(r.url()) && early.push(r.url()));
  await page.goto('/signal/AAPL', { waitUntil: 'domcontentloaded' });
  await page.waitForLoadState('load');
  loaded = true;
  expect(early, 'no manifest or icon request before load').toEqual([]);
  await expect(page.locator('head link[rel="manifest"][href="/manifest.webmanifest"]')).toHaveCount(1);
  const cdp = await context.newCDPSession(page);
  await expect
    .poll(async () => ((await cdp.send('Page.getAppManifest')) as { url: string }).url)
    .toMatch(/\/manifest\.webmanifest$/);
});
