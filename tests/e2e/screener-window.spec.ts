import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';

// The screener's result is windowed: only the rows in view and a few around them are in the page, whatever the
// result's size; aria-rowcount and aria-rowindex give its size and each row's place; the keyboard reaches every row
// in order; the count and the CSV are over every row. Without JavaScript the table is whole.

/** The CSV download's tickers, in order: the result's every row. */
async function csvTickers(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const text = await readFile((await download.path())!, 'utf8');
  return text.trim().split(/\r?\n/).slice(1).map((line) => line.split(',')[0]!);
}

const rowsInPage = (page: Page) => page.locator('#screener tbody tr[data-t]');

test('a screen\'s result is windowed, with its size and places for assistive technology; count and CSV cover every row', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await page.locator('input[name="cscore"]').fill('-40..');
  const count = page.locator('[data-screen-count]');
  await expect(count).not.toHaveText('503 of 503 stocks');
  const shown = Number(/^(\d+) of 503 stocks$/.exec((await count.textContent()) ?? '')?.[1]);
  expect(shown).toBeGreaterThan(100);
  const table = page.locator('table#screener');
  await expect(table).toHaveAttribute('aria-rowcount', String(shown + 1));
  await expect(table).toHaveAttribute('data-windowed', '');
  // The window: the rows in view (800 px) and 4 on each side, far fewer than the result.
  const inPage = await rowsInPage(page).count();
  expect(inPage).toBeGreaterThan(0);
  expect(inPage).toBeLessThanOrEqual(30);
  const all = await csvTickers(page);
  expect(all).toHaveLength(shown);
  // Scrolled down the table, the rows there are the result's, at their places.
  await page.evaluate(() => {
    const body = document.querySelector('#screener tbody')!;
    window.scrollTo(0, body.getBoundingClientRect().top + window.scrollY + 60 * (body.querySelector('tr[data-t]') as HTMLElement).offsetHeight);
  });
  await expect.poll(async () => Number(await rowsInPage(page).first().getAttribute('aria-rowindex'))).toBeGreaterThan(40);
  const placed = await rowsInPage(page).evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('aria-rowindex')), (r as HTMLElement).dataset.t!] as const));
  for (const [index, ticker] of placed) expect(all[index - 2], `row ${index}`).toBe(ticker);
  expect(await rowsInPage(page).count()).toBeLessThanOrEqual(30);
});

test('the keyboard reaches every row of a windowed result, in order', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await page.locator('input[name="cscore"]').fill('75..');
  await page.locator('input[name="cscore"]').press('Enter');
  const all = await csvTickers(page);
  expect(all.length).toBeGreaterThan(30);
  await expect(page.locator('table#screener')).toHaveAttribute('aria-rowcount', String(all.length + 1));
  await rowsInPage(page).first().focus();
  const reached: string[] = [];
  for (let i = 0; i < all.length * 3 + 3 && reached.length < all.length; i++) {
    const ticker = await page.evaluate(() => {
      const row = document.activeElement?.closest<HTMLElement>('#screener tbody tr[data-t]');
      return row && document.activeElement === row ? row.dataset.t! : null;
    });
    if (ticker !== null && reached.at(-1) !== ticker) reached.push(ticker);
    await page.keyboard.press('Tab');
  }
  expect(reached).toEqual(all);
});

test('without JavaScript the result is the whole server-rendered table', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/screener?cscore=-40..');
  const shown = Number(/^(\d+) of 503 stocks$/.exec((await page.locator('[data-screen-count]').textContent()) ?? '')?.[1]);
  expect(shown).toBeGreaterThan(100);
  await expect(rowsInPage(page)).toHaveCount(shown);
  await expect(page.locator('table#screener')).not.toHaveAttribute('data-windowed');
  await context.close();
});
