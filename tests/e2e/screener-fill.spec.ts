import { expect, test, type Page } from '@playwright/test';

// A new screen rewrites the window's own rows in place, back and forth between screens: each row then shows the
// server's cells for its stock, its names and link, and a row that showed a watched stock shows the next stock's star.

const rowsInPage = (page: Page) => page.locator('#screener tbody tr[data-t]');

/** The server's rows for a screen, in order: ticker and each cell's text. */
async function servedRows(page: Page, query: string): Promise<{ ticker: string; cells: string[] }[]> {
  const html = await (await page.request.get(`/screener?${query}`)).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return [...doc.querySelectorAll<HTMLTableRowElement>('table#screener tbody tr[data-t]')].map((row) => ({
      ticker: row.dataset.t!,
      cells: [...row.cells].map((cell) => cell.textContent ?? ''),
    }));
  }, html);
}

/** The rows in the page: place, ticker, cells, star. */
function shownRows(page: Page) {
  return rowsInPage(page).evaluateAll((rows) =>
    rows.map((row) => ({
      index: Number(row.getAttribute('aria-rowindex')),
      ticker: (row as HTMLElement).dataset.t!,
      cells: [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent ?? ''),
      star: row.querySelector('button.star')?.getAttribute('aria-pressed') ?? null,
      starText: row.querySelector('button.star')?.textContent ?? null,
      label: row.querySelector('button.star')?.getAttribute('aria-label') ?? null,
      href: row.querySelector('a[data-detail-link]')?.getAttribute('href') ?? null,
      rowLabel: row.getAttribute('aria-label'),
    })),
  );
}

async function screen(page: Page, range: string, served: { ticker: string }[]): Promise<void> {
  await page.locator('input[name="cscore"]').fill(range);
  await expect(page.locator('[data-screen-count]')).toHaveText(`${served.length} of 503 stocks`);
  await expect.poll(async () => (await shownRows(page)).every((row) => row.ticker === served[row.index - 2]?.ticker)).toBe(true);
}

test('screens back and forth rewrite the rows in view with each stock\'s cells, names and links', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await page.locator('table#screener').evaluate((element) => element.scrollIntoView());
  const screens = { '-20..20': await servedRows(page, 'cscore=-20..20'), '-60..-30': await servedRows(page, 'cscore=-60..-30') };
  for (const served of Object.values(screens)) expect(served.length).toBeGreaterThan(20);
  for (const range of ['-20..20', '-60..-30', '-20..20', '-60..-30'] as const) {
    const served = screens[range];
    await screen(page, range, served);
    const rows = await shownRows(page);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const expected = served[row.index - 2]!;
      expect(row.cells, `${range}: row ${row.index} (${row.ticker})`).toEqual(expected.cells);
      // The attributes come from the stock's own row: its star's name, its link, its name for the keyboard.
      expect(row.label, `${range}: row ${row.index}`).toBe(`Watch ${row.ticker}`);
      expect(row.href, `${range}: row ${row.index}`).toBe(`/signal/${row.ticker}`);
      expect(row.rowLabel, `${range}: row ${row.index}`).toMatch(new RegExp(`^${row.ticker}(, .+)?: open details$`));
    }
  }
});

test('a row rewritten in place shows its own stock\'s star: watched, then another stock, then back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await page.locator('table#screener').evaluate((element) => element.scrollIntoView());
  const first = await servedRows(page, 'cscore=-20..20');
  const second = await servedRows(page, 'cscore=-60..-30');
  await screen(page, '-20..20', first);
  const top = first[0]!.ticker;
  await page.getByRole('button', { name: `Watch ${top}`, exact: true }).click();
  await expect(rowsInPage(page).first().locator('button.star')).toHaveAttribute('aria-pressed', 'true');
  // The same row element now shows another stock: its star is that stock's (not watched).
  await screen(page, '-60..-30', second);
  const other = (await shownRows(page))[0]!;
  expect(other.ticker).toBe(second[0]!.ticker);
  expect([other.star, other.starText]).toEqual(['false', '☆']);
  // Back to the first screen: the watched stock's row shows its star on.
  await screen(page, '-20..20', first);
  const again = (await shownRows(page))[0]!;
  expect(again.ticker).toBe(top);
  expect([again.star, again.starText]).toEqual(['true', '★']);
});
