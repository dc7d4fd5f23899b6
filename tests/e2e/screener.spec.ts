import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';

// The screener: a screen built by its controls is its address, and that address shows the same rows anywhere; the
// server's answer works without JavaScript; a phone gets cards.

const rowsOf = (page: Page) => page.locator('#screener tbody tr[data-t]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.t!));

/** The result's every row, in order, from its CSV download (the page holds only the rows in view of a screened result). */
async function csvTickers(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  return (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/).slice(1).map((line) => line.split(',')[0]!);
}

/** Waits for the page script: the CSV button shows only with it. */
async function scripted(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
}

test('a screen built by the controls is the address; the address in a new page shows the same rows', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await scripted(page);
  await expect(page.locator('[data-screen-count]')).toHaveText('503 of 503 stocks');
  await page.locator('input[name="cscore"]').fill('40..');
  await page.locator('select[name="sector"]').selectOption(['Information Technology', 'Health Care']);
  await page.locator('select[name="sort"]').selectOption('-change');
  await expect(page).toHaveURL(/\/screener\?cscore=40\.\.&sector=Health\+Care&sector=Information\+Technology&sort=-change$/);
  const built = await csvTickers(page);
  expect(built.length).toBeGreaterThan(0);
  expect(built.length).toBeLessThan(503);
  const count = await page.locator('[data-screen-count]').textContent();
  expect(count).toBe(`${built.length} of 503 stocks`);
  // A header sorts the screen too, and says so.
  await page.getByRole('columnheader', { name: 'C-Score' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=-cscore$/);
  await expect(page.getByRole('columnheader', { name: 'C-Score' })).toHaveAttribute('aria-sort', 'descending');
  const byScore = await csvTickers(page);
  expect([...byScore].sort()).toEqual([...built].sort());

  // Shared: the server renders the address; the same rows, in the same order.
  const shared = await context.newPage();
  await shared.goto(page.url());
  expect(await rowsOf(shared)).toEqual(byScore);
  await expect(shared.locator('[data-screen-count]')).toHaveText(count!);
  await expect(shared.locator('input[name="cscore"]')).toHaveValue('40..');
  // The shared page's script takes over: a preset applies in place.
  await scripted(shared);
  await shared.getByRole('link', { name: 'Strongest bearish' }).click();
  await expect(shared).toHaveURL(/\/screener\?signal=bearish&sort=cscore$/);
  const bearish = await rowsOf(shared);
  expect(bearish.length).toBeGreaterThan(0);
  for (const badge of await shared.locator('#screener tbody tr[data-t] .c-cScore .badge').allTextContents()) expect(badge).toBe('Bearish');
});

test('without JavaScript the server answers the form: the result, the count and a bad value named', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/screener');
  await page.locator('input[name="cscore"]').fill('..-65');
  await page.locator('input[name="pe"]').fill('abc..');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/cscore=\.\.-65/);
  const rows = await rowsOf(page);
  expect(rows.length).toBeGreaterThan(0);
  for (const badge of await page.locator('#screener tbody tr[data-t] .c-cScore .badge').allTextContents()) expect(badge).toBe('Bearish');
  await expect(page.locator('[data-screen-count]')).toHaveText(`${rows.length} of 503 stocks`);
  await expect(page.getByRole('alert')).toContainText('pe: "abc" is not a number');
  await expect(page.locator('input[name="cscore"]')).toHaveValue('..-65');
  await context.close();
});

test('at 390 px the screen and its result fit the phone, the result as cards', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/screener?signal=bullish&sort=-change');
  await scripted(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const layout = await page.locator('#screener tbody tr[data-t]').first().evaluate((row) => ({
    delta: getComputedStyle(row.querySelector('.c-delta')!).display,
    change: getComputedStyle(row.querySelector('.chg-v')!).display,
  }));
  expect(layout).toEqual({ delta: 'none', change: 'inline' });
  for (const field of await page.locator('.scr-form input, .scr-form select').all()) {
    const box = await field.boundingBox();
    if (box) expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
});
