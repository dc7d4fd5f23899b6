/**
 * Sector and sub-industry hubs in Chromium: a hub's trail, figures, qualified stocks first and markup; the stock
 * page's breadcrumb leads to its hubs; the heatmap's headings link to them. At 390 and 1280 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_URL } from './servers';

test.use({ baseURL: DEMO_URL });

async function jsonLdTypes(page: Page): Promise<string[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((text) => (JSON.parse(text)['@graph'] as { '@type': string }[]).map((node) => node['@type']));
}

for (const width of [390, 1280]) {
  test(`a sector hub lists its qualified stocks first, its spread and its sub-industries, at ${width} px`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: DEMO_URL, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto('/sector/energy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Energy');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Energy');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/sector\/energy$/);
    expect(await jsonLdTypes(page)).toEqual(['CollectionPage', 'BreadcrumbList']);
    // Every stock linked; the qualified table holds only bullish or bearish ones.
    const qualified = page.getByRole('region', { name: /^Qualified \(\d+\)$/ });
    for (const signal of await qualified.locator('tbody td:last-child').allTextContents()) expect(['Bullish', 'Bearish']).toContain(signal);
    // The neutral ones, each a link with its score between the thresholds.
    for (const text of await page.getByTestId('hub-others').locator('li').allTextContents()) {
      const score = Number(text.trim().split(/\s+/).at(-1));
      expect(score, text).toBeGreaterThan(-65);
      expect(score, text).toBeLessThan(65);
    }
    await expect(page.getByTestId('hub-distribution').locator('li')).toHaveCount(10);
    const sub = page.getByRole('region', { name: 'Sub-industries' }).getByRole('link').first();
    const href = await sub.getAttribute('href');
    expect(href).toMatch(/^\/industry\/[a-z0-9-]+$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await sub.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Energy' })).toHaveAttribute('href', '/sector/energy');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await context.close();
  });
}

test("the stock page's breadcrumb leads to its sector and sub-industry; the heatmap's headings link to the hubs", async ({ page }) => {
  await page.goto('/signal/XOM');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link')).toHaveText(['Home', 'Energy', 'Integrated Oil & Gas']);
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('XOM');
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  const trail = ld['@graph'].find((node: { '@type': string }) => node['@type'] === 'BreadcrumbList').itemListElement.map((item: { name: string }) => item.name);
  expect(trail).toEqual(['Home', 'Energy', 'Integrated Oil & Gas', 'XOM']);
  await crumbs.getByRole('link', { name: 'Integrated Oil & Gas' }).click();
  await expect(page).toHaveURL(/\/industry\/integrated-oil-and-gas$/);
  await expect(page.getByRole('link', { name: 'XOM', exact: true }).first()).toBeVisible();

  await page.goto('/heatmap');
  await page.getByRole('heading', { name: /^Energy/ }).getByRole('link', { name: 'Energy' }).click();
  await expect(page).toHaveURL(/\/sector\/energy$/);
});

test("a list's sector filter links the chosen sector's hub, with and without JavaScript", async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ baseURL: DEMO_URL, javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(javaScriptEnabled ? '/all-signals' : '/all-signals?sector=Energy');
    const filters = page.getByRole('form', { name: 'Filter the list' });
    if (javaScriptEnabled) {
      await expect(filters.getByRole('link', { name: /stocks$/ })).toBeHidden();
      await filters.getByLabel('Sector').selectOption('Energy');
    }
    await expect(filters.getByRole('link', { name: 'All Energy stocks' })).toHaveAttribute('href', '/sector/energy');
    await context.close();
  }
});
