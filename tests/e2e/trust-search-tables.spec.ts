import { expect, test, type Page } from '@playwright/test';
import { SIDEBAR_COLLAPSED_STORAGE_KEY, THEME_STORAGE_KEY } from '../../src/lib/domain/site/ui';

// Search you can always reach and trust; tables and dialogs that fit.

/** Opens a page with the theme and the sidebar state set before its first paint. */
async function open(page: Page, path: string, { theme = 'dark', collapsed = false } = {}): Promise<void> {
  await page.addInitScript(
    ([themeKey, sidebarKey, t, c]) => {
      localStorage.setItem(themeKey!, t!);
      localStorage.setItem(sidebarKey!, c!);
    },
    [THEME_STORAGE_KEY, SIDEBAR_COLLAPSED_STORAGE_KEY, theme, String(collapsed)],
  );
  await page.goto(path);
  // The shell's script is in: the collapse button says what it does.
  await expect(page.locator('[data-collapse] .sr-only')).toHaveText(/sidebar/);
}

test.describe('Ctrl/Cmd+K opens a visible search with the focus inside', () => {
  for (const { name, width, collapsed } of [
    { name: 'sidebar expanded', width: 1280, collapsed: false },
    { name: 'sidebar collapsed', width: 1280, collapsed: true },
    { name: 'a phone at 390 px', width: 390, collapsed: false },
  ]) {
    test(name, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await open(page, '/heatmap', { collapsed });
      await page.waitForFunction(() => document.documentElement.classList.contains('js'));
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      await expect(dialog).toBeVisible();
      const box = dialog.getByRole('combobox', { name: 'Search tickers and companies' });
      await expect(box).toBeFocused();
      // Where the focus is can be seen: the box is on screen, not clipped to a pixel.
      const rect = (await box.boundingBox())!;
      expect(rect.width).toBeGreaterThan(Math.min(300, width - 60));
      expect(rect.x).toBeGreaterThanOrEqual(0);
      expect(rect.x + rect.width).toBeLessThanOrEqual(width);

      // An exact or prefix match first; the results readable at the dialog's width (the company whole).
      await page.keyboard.type('appl');
      const options = dialog.getByRole('option');
      await expect(options.first()).toHaveText(/^AAPL Apple Inc\./);
      await expect(options).toHaveText([/^AAPL/, /^AMAT/, /^APP\b/]);
      const cut = await dialog.locator('.sr-co').evaluateAll((names) => names.filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent));
      expect(cut).toEqual([]);

      // A query that resembles nothing offers nothing.
      await box.fill('zzzz');
      await expect(dialog.getByText('No ticker or company matches.', { exact: true })).toBeVisible();
      await expect(options).toHaveCount(0);

      // The typo tolerance stays; Enter opens the stock.
      await box.fill('nvdia');
      await expect(options.first()).toHaveText(/^NVDA/);
      await page.keyboard.press('Escape'); // closes the list
      await page.keyboard.press('Escape'); // closes the dialog
      await expect(dialog).toBeHidden();
    });
  }

  test('a phone has a search button in its top bar, and the collapsed sidebar one in its rail', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, '/all-signals');
    const button = page.locator('.topbar').getByRole('button', { name: 'Search tickers and companies' });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await expect(dialog.getByRole('combobox')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.locator('#sidebar').getByRole('button', { name: 'Search tickers and companies' }).click();
    await expect(dialog.getByRole('combobox')).toBeFocused();
  });

  test("the sidebar's own results are wider than the sidebar", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, '/heatmap');
    await page.locator('#shell-search').fill('apple');
    const list = page.locator('#shell-search-list');
    await expect(list.getByRole('option').first()).toHaveText(/^AAPL/);
    expect((await list.boundingBox())!.width).toBeGreaterThan(400);
  });
});

test('an empty filtered table suggests only stocks the other filters allow', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // AAPL is Neutral on the sample's latest report: under a Bearish filter it is no suggestion.
  await open(page, '/all-signals?direction=bearish&q=aapl');
  await expect(page.getByText('No stocks match these filters.')).toBeVisible();
  const closest = page.locator('[data-no-match-closest] a');
  await expect(page.locator('[data-no-match-closest]')).toContainText('within the other filters');
  await expect(closest.first()).toBeVisible();
  await expect(closest.filter({ hasText: /^AAPL/ })).toHaveCount(0);
  for (const badge of await closest.locator('.badge').allTextContents()) expect(badge).toBe('Bearish');
});

test.describe('every cell whole at 1280 px with the sidebar expanded (light theme)', () => {
  for (const path of ['/all-signals', '/currently-qualified']) {
    test(path, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await open(page, path, { theme: 'light' });
      await expect(page.locator('.sig-table th .sort-btn').first()).toBeVisible();
      const overflowing = await page.evaluate(() => {
        const cells = [...document.querySelectorAll<HTMLElement>('.sig-table th, .sig-table tbody tr:not([hidden]):not(.gap) td')];
        return cells
          .filter((cell) => cell.getClientRects().length > 0 && getComputedStyle(cell).visibility !== 'hidden')
          .filter((cell) => cell.scrollWidth > cell.clientWidth)
          .map((cell) => `${cell.className}: ${cell.textContent?.trim()} (${cell.scrollWidth} > ${cell.clientWidth})`);
      });
      expect(overflowing).toEqual([]);
      // The Relevance heading is its word and its sort arrow, nothing cut.
      const relevance = page.locator('.sig-table th.c-relevance');
      await expect(relevance).toHaveText('Relevance');
      expect(await relevance.evaluate((th) => th.scrollWidth <= th.clientWidth)).toBe(true);
      // The close and its change are both in the cell.
      await expect(page.locator('.sig-table tbody td.c-price').first()).toHaveText(/^\$[\d,.]+ [+−-][\d.]+%/);
    });
  }
});

test.describe('choosing a row opens the detail dialog', () => {
  test('a click anywhere on the row and Enter on a focused row open it; the ticker stays a link; the star keeps its action', async ({ page, context }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, '/all-signals');
    const row = page.locator('#all-signals tbody tr[data-t="PNW"]');
    await expect(row).toHaveAttribute('tabindex', '0');
    await expect(row).toHaveAccessibleName(/^PNW, Pinnacle West Capital/);
    await expect(row.locator('a[data-detail-link]')).toHaveAttribute('href', '/signal/PNW');

    // The dialog's island listens once hydrated (client:idle; Astro then drops its ssr attribute): before that a
    // chosen row follows its link to the stock page.
    await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
    const dialog = page.getByRole('dialog');
    await row.locator('td.c-delta').click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await expect(dialog.getByRole('heading', { name: /PNW/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/all-signals$/);

    await row.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The star watches, and opens nothing.
    const star = row.getByRole('button', { name: 'Watch PNW' });
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/all-signals$/);

    // A modified click on the ticker is the browser's: the page opens in a new tab, no dialog here.
    const [tab] = await Promise.all([context.waitForEvent('page'), row.locator('a[data-detail-link]').click({ modifiers: ['Control'] })]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/signal/PNW');
    await expect(dialog).toBeHidden();
  });
});

test('the drawer takes the focus, keeps it while open, and Escape gives it back', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/currently-qualified');
  const opener = page.getByRole('button', { name: 'Open navigation' });
  await opener.click();
  const inDrawer = () => page.evaluate(() => document.getElementById('sidebar')!.contains(document.activeElement));
  await expect.poll(inDrawer).toBe(true);
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press('Tab');
    expect(await inDrawer()).toBe(true);
  }
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await inDrawer()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(opener).toBeFocused();
});
