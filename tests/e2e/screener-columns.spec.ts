import { expect, test, type Locator } from '@playwright/test';

// The screener's signal-day columns leave the layout while hidden (the default): chosen in the column chooser, each
// shows under its own heading with the current result's figures, also in rows a new screen rewrote while it was hidden.

const left = async (locator: Locator) => (await locator.boundingBox())!.x;

test('the signal-day columns, hidden by default, show the current result under their own headings when chosen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  const table = page.locator('table#screener');
  const input = page.locator('input[name="cscore"]');
  await input.fill('..-40');
  await expect(table).toHaveAttribute('data-windowed', '');
  await table.evaluate((element) => element.scrollIntoView());
  const firstRow = page.locator('#screener tbody tr[data-t]').first();
  await expect(firstRow.locator('td.c-days7')).toBeHidden();
  await expect(firstRow.locator('td.c-days14')).toBeHidden();
  // A new result while the columns are hidden rewrites the rows in view.
  await input.fill('60..');
  await expect(firstRow).toHaveAttribute('aria-rowindex', '2');
  const ticker = (await firstRow.getAttribute('data-t'))!;
  // The server's rendering of the same screen has the row's own figures.
  const html = await (await page.request.get('/screener?cscore=60..')).text();
  const served = new RegExp(`<tr data-t="${ticker}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
  const figure = (key: string) => new RegExp(`<td class="c-${key}">([^<]*)</td>`).exec(served)?.[1] ?? 'missing';

  await page.locator('[data-col-chooser] > summary').click();
  await page.getByRole('checkbox', { name: 'Signal days 14D' }).check();
  const days14 = firstRow.locator('td.c-days14');
  await expect(days14).toBeVisible();
  await expect(days14).toHaveText(figure('days14'));
  // 14D alone: under its own heading, not in the hidden 7D column's place.
  await expect(firstRow.locator('td.c-days7')).toBeHidden();
  expect(Math.abs((await left(days14)) - (await left(page.locator('#screener thead th.c-days14'))))).toBeLessThan(2);

  await page.getByRole('checkbox', { name: 'Signal days 7D' }).check();
  const days7 = firstRow.locator('td.c-days7');
  await expect(days7).toBeVisible();
  await expect(days7).toHaveText(figure('days7'));
  expect(Math.abs((await left(days7)) - (await left(page.locator('#screener thead th.c-days7'))))).toBeLessThan(2);
  expect(Math.abs((await left(days14)) - (await left(page.locator('#screener thead th.c-days14'))))).toBeLessThan(2);
  expect(await left(days14)).toBeGreaterThan(await left(days7));
});
