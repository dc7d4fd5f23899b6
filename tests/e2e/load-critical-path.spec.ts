/**
 * What a page's load waits on and runs: the stock page's and /compare's first paint wait on two stylesheets (Base and
 * the page's own), with every rule their cards and breadcrumbs use; /compare on a phone paints its drawing with no
 * React fetched or run before the reader moves, and the drawing's scale labels read at 4.5:1 on their lines' colours.
 */
import { expect, test, type Page } from '@playwright/test';
import { contrastOf, watch } from './page-checks';
import { THEME_STORAGE_KEY } from '../../src/lib/domain/site/ui';

/** The stylesheets that hold the first paint: in the head, not print-only, not disabled. */
function blockingSheets(page: Page): Promise<string[]> {
  return page.locator('head link[rel="stylesheet"]').evaluateAll((links) =>
    (links as HTMLLinkElement[]).filter((l) => !l.disabled && (l.media === '' || l.media === 'all' || l.media === 'screen')).map((l) => new URL(l.href).pathname),
  );
}

test.describe('the stock page at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('waits on at most 2 render-blocking stylesheets, and its breadcrumbs, cards and track record card keep their rules', async ({ page }) => {
    await page.goto('/signal/AAPL');
    const sheets = await blockingSheets(page);
    expect(sheets.length, `render-blocking sheets: ${sheets.join(', ')}`).toBeLessThanOrEqual(2);
    // The breadcrumb trail is one row of steps with no list bullets.
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).locator('ol');
    await expect(crumbs).toHaveCSS('display', 'flex');
    await expect(crumbs).toHaveCSS('list-style-type', 'none');
    // The detail view's card and the track record card's table.
    await expect(page.locator('.card').first()).toHaveCSS('border-top-style', 'solid');
    const track = page.locator('.track-table').first();
    if ((await track.count()) > 0) await expect(track).toHaveCSS('border-collapse', 'collapse');
  });

  test('a sector hub keeps its breadcrumb row', async ({ page }) => {
    await page.goto('/sector/information-technology');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).locator('ol')).toHaveCSS('display', 'flex');
  });
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`/compare on a phone, ${theme} theme`, () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: theme });

    test('5 stocks: 2 render-blocking sheets at most; the drawing paints with no React fetched or run, and its labels read at 4.5:1 or more', async ({ page }) => {
      await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
      const errors = await watch(page);
      const scripts: Promise<{ url: string; text: string }>[] = [];
      page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(r.text().then((text) => ({ url: r.url(), text }))));
      await page.goto('/compare?t=AAPL,MSFT,NVDA,AMZN,GOOGL');
      const sheets = await blockingSheets(page);
      // Soft: each of the three findings is reported on its own.
      expect.soft(sheets.length, `render-blocking sheets: ${sheets.join(', ')}`).toBeLessThanOrEqual(2);
      await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-state', 'painted');
      await expect(page.getByTestId('compare-table').locator('tbody tr[data-state="ready"]')).toHaveCount(5);
      await page.waitForLoadState('networkidle');
      const loaded = await Promise.all(scripts);
      expect(loaded.length).toBeGreaterThan(0);
      // React's element marker survives minification (a chunk that only names React in a dynamic import has none);
      // a React root leaves its container key on its element.
      expect.soft(loaded.filter((s) => s.text.includes('react.transitional.element')).map((s) => s.url)).toEqual([]);
      expect.soft(await page.evaluate(() => [...document.querySelectorAll('*')].some((el) => Object.keys(el).some((k) => k.startsWith('__react'))))).toBe(false);

      const tags = page.getByTestId('compare-first-paint').locator('.cmp-fp-tag');
      await expect(tags).toHaveCount(10);
      const colours = await tags.evaluateAll((els) => els.map((el) => [el.textContent!, getComputedStyle(el).color, getComputedStyle(el).backgroundColor] as const));
      for (const [text, color, background] of colours) expect.soft(contrastOf(color, background), `${text}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
      expect(errors).toEqual([]);
    });
  });
}
