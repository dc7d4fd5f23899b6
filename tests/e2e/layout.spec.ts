import { expect, test, type Page } from '@playwright/test';
import { THEME_STORAGE_KEY } from '../../src/lib/domain/ui';

// Issue 18 item 4: no page is wider than its viewport. 640 px is also 1280 px at 200% zoom (deviceScaleFactor 2).
const VIEWPORTS = [
  { width: 320, height: 640, deviceScaleFactor: 1 },
  { width: 390, height: 844, deviceScaleFactor: 1 },
  { width: 640, height: 400, deviceScaleFactor: 2 },
  { width: 1280, height: 800, deviceScaleFactor: 1 },
] as const;
const THEMES = ['light', 'dark'] as const;

// The pages the sitemap does not list: the not-found screens, the account and operators' pages, the stock pages
// (one stands for all) and the pages kept out of search results.
const UNLISTED = ['/signal/AAPL', '/signal/NVDAA', '/signal', '/no-such-page', '/login', '/account', '/upload', '/admin', '/ai-chat', '/signals-dao', '/403'];

/** Every route: the sitemap's pages (so a page added later is checked too) and the unlisted ones. */
async function everyRoute(page: Page): Promise<string[]> {
  const paths = new Set<string>();
  const index = await (await page.request.get('/sitemap-index.xml')).text();
  for (const [, sitemap] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const xml = await (await page.request.get(new URL(sitemap!).pathname)).text();
    for (const [, url] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) paths.add(new URL(url!).pathname.replace(/(.)\/$/, '$1'));
  }
  // One stock page and two archive pages stand for the others of their kind.
  const routes = [...paths].filter((p) => !p.startsWith('/signal/') && !/^\/archives\/([3-9]|\d\d)/.test(p));
  expect(routes).toEqual(expect.arrayContaining(['/', '/all-signals', '/heatmap', '/learn', '/archives']));
  return [...routes, ...UNLISTED];
}

/** What sticks out past the right edge: up to 3 elements, by tag, class and right edge. */
function widerThanViewport(): { width: number; scrollWidth: number; culprits: string[] } {
  const width = window.innerWidth;
  const culprits: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.right > width + 0.5 && box.width > 0 && culprits.length < 3) {
      culprits.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(box.right)}`);
    }
  }
  return { width, scrollWidth: document.documentElement.scrollWidth, culprits };
}

for (const viewport of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`at ${viewport.width} px (${theme}) no route is wider than the viewport`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, deviceScaleFactor: viewport.deviceScaleFactor, colorScheme: theme });
      await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
      const page = await context.newPage();
      const routes = await everyRoute(page);
      const wide: string[] = [];
      for (const route of routes) {
        await page.goto(route, { waitUntil: 'load' });
        // Islands hydrate as they come into view (the stock page's tooltips among them): scroll to the end first.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        const found = await page.evaluate(widerThanViewport);
        if (found.scrollWidth > found.width) wide.push(`${route}: ${found.scrollWidth} px in ${found.width} (${found.culprits.join(', ')})`);
      }
      expect(wide).toEqual([]);
      await context.close();
    });
  }
}

test('at 320 px the stock page tooltips open on screen, and a closed one takes no room', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await page.goto('/signal/AAPL');
  for (const name of ['About Market Score', 'About Delta Score']) {
    const button = page.getByRole('button', { name });
    await button.focus();
    const tip = page.locator(`#${await button.getAttribute('aria-describedby')}`);
    await expect(tip).toBeVisible();
    const box = (await tip.boundingBox())!;
    expect([box.x >= 0, box.x + box.width <= 320]).toEqual([true, true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await button.blur();
    await expect(tip).toBeHidden();
  }
  await context.close();
});
