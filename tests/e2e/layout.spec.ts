import { expect, test } from '@playwright/test';
import { THEME_STORAGE_KEY } from '../../src/lib/domain/site/ui';

// No page is wider than its viewport. 640 x 400 CSS px is also 1280 x 800 at 200% zoom.
const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
  { width: 640, height: 400 },
  { width: 1280, height: 800 },
] as const;
const THEMES = ['light', 'dark'] as const;

// Every route of the spec's table and of src/pages, one stock page and two archive pages standing for the others of
// their kind (/track-record answers once its page is there; until then its 404 page is checked).
const ROUTES = [
  '/', '/all-signals', '/recently-qualified', '/currently-qualified', '/reversals-exits', '/heatmap', '/explore', '/archives', '/archives/2',
  '/sector/energy', '/industry/integrated-oil-and-gas', '/learn', '/changelog', '/terms', '/privacy', '/signal/AAPL', '/signal/NVDAA', '/signal', '/upload', '/admin', '/ai-analysis', '/ai-chat',
  '/signals-dao', '/login', '/account', '/403', '/no-such-page', '/track-record', '/screener', '/compare', '/methodology', '/developers',
];

test('the routes checked below cover every page of the sitemap', async ({ request }) => {
  const paths = new Set<string>();
  const index = await (await request.get('/sitemap-index.xml')).text();
  for (const [, sitemap] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const xml = await (await request.get(new URL(sitemap!).pathname)).text();
    for (const [, url] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) paths.add(new URL(url!).pathname.replace(/(.)\/$/, '$1'));
  }
  // One hub of each kind stands for the others.
  const pages = [...paths].filter((p) => !p.startsWith('/signal/') && !/^\/(sector|industry)\/./.test(p) && !/^\/archives\/([3-9]|\d\d)/.test(p));
  expect(pages.length).toBeGreaterThan(10);
  expect(ROUTES).toEqual(expect.arrayContaining(pages));
});

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

for (const route of ROUTES) {
  for (const theme of THEMES) {
    test(`${route} (${theme}) is no wider than the viewport at 320, 390, 640 and 1280 px`, async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: theme });
      await context.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
      const page = await context.newPage();
      const wide: string[] = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.goto(route, { waitUntil: 'load' });
        // Islands hydrate as they come into view (the stock page's tooltips among them): scroll to the end first.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        const found = await page.evaluate(widerThanViewport);
        if (found.scrollWidth > found.width) wide.push(`${viewport.width} px: ${found.scrollWidth} px wide (${found.culprits.join(', ')})`);
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
