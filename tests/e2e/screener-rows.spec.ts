import { expect, test, type Page } from '@playwright/test';

// A new screen rewrites the rows in view in place: a row that shows a stock with a marker fewer (Top, New) loses that
// marker only, and keeps its company line's element, so the browser neither builds that line's box again nor the
// marker's; every row then shows the server's cells for its stock. The result's cells clip their overflow without
// being scroll containers (each would be a layer of its own), and the ticker and company cells keep their ellipsis.

const rowsInPage = (page: Page) => page.locator('#screener tbody tr[data-t]');

/** The server's rows for a screen, in order: ticker, each cell's text, and the ticker cell's parts (their classes). */
async function servedRows(page: Page, query: string): Promise<{ ticker: string; cells: string[]; parts: string[] }[]> {
  const html = await (await page.request.get(`/screener?${query}`)).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return [...doc.querySelectorAll<HTMLTableRowElement>('table#screener tbody tr[data-t]')].map((row) => ({
      ticker: row.dataset.t!,
      cells: [...row.cells].map((cell) => cell.textContent ?? ''),
      parts: [...row.querySelector('td.c-ticker')!.children].map((part) => part.className),
    }));
  }, html);
}

test('a new screen rewrites the rows in view in place: a marker fewer is taken out, the company line is kept', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  const table = page.locator('table#screener');
  await table.evaluate((element) => element.scrollIntoView());
  // First the Top signals only: every row has the Top marker.
  await page.getByRole('checkbox', { name: 'Top', exact: true }).check();
  await expect(table).toHaveAttribute('data-windowed', '');
  await expect.poll(() => rowsInPage(page).evaluateAll((rows) => rows.length > 0 && rows.every((row) => row.querySelector('.mk-top') !== null))).toBe(true);
  // Each row and company line in the page is marked (a property: the copy rewrites attributes), to tell afterwards
  // whether it is the same element.
  await rowsInPage(page).evaluateAll((rows) =>
    rows.forEach((row, i) => {
      Object.assign(row, { was: i });
      Object.assign(row.querySelector('.co')!, { was: i });
    }),
  );
  const query = 'cscore=-20..20';
  const served = await servedRows(page, query);
  expect(served.length).toBeGreaterThan(30);
  await page.getByRole('checkbox', { name: 'Top', exact: true }).uncheck();
  await page.locator('input[name="cscore"]').fill('-20..20');
  await expect(page).toHaveURL(/cscore=-20\.\.20/);
  // The window shows the new result, every row at its place (its aria-rowindex) with the server's cells.
  const shown = () =>
    rowsInPage(page).evaluateAll((rows) =>
      rows.map((row) => ({
        index: Number(row.getAttribute('aria-rowindex')),
        ticker: (row as HTMLElement).dataset.t!,
        cells: [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent ?? ''),
        parts: [...row.querySelector('td.c-ticker')!.children].map((part) => part.className),
        wasRow: (row as unknown as { was?: number }).was ?? null,
        wasCompany: (row.querySelector('.co') as unknown as { was?: number } | null)?.was ?? null,
      })),
    );
  await expect.poll(async () => (await shown()).every((row) => row.ticker === served[row.index - 2]?.ticker)).toBe(true);
  const rows = await shown();
  for (const row of rows) {
    const expected = served[row.index - 2]!;
    expect(row.cells, `row ${row.index} (${row.ticker})`).toEqual(expected.cells);
    expect(row.parts, `row ${row.index} (${row.ticker})`).toEqual(expected.parts);
  }
  // Rows of the page before the screen that now show a stock without the Top marker: their company line is the same element.
  const rewritten = rows.filter((row) => row.wasRow !== null && !row.parts.includes('mk mk-top'));
  expect(rewritten.length).toBeGreaterThan(3);
  for (const row of rewritten) expect(row.wasCompany, `row ${row.index} (${row.ticker})`).toBe(row.wasRow);
});

test('the result\'s cells clip without being scroll containers; the ticker and company cells keep their ellipsis', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  await page.locator('input[name="cscore"]').fill('40..');
  await expect(page.locator('table#screener')).toHaveAttribute('data-windowed', '');
  const styles = await rowsInPage(page)
    .first()
    .evaluate((row) => {
      const of = (selector: string) => {
        const style = getComputedStyle(row.querySelector(selector)!);
        return `${style.overflowX} ${style.overflowY} ${style.textOverflow}`;
      };
      return { ticker: of('td.c-ticker'), company: of('.co'), score: of('td.c-cScore'), close: of('td.c-price'), delta: of('td.c-delta'), avg7: of('td.c-avg7') };
    });
  expect(styles).toEqual({
    ticker: 'clip clip ellipsis',
    company: 'clip clip ellipsis',
    score: 'clip clip ellipsis',
    close: 'clip clip ellipsis',
    // A score column is never narrower than its number: nothing to clip.
    delta: 'visible visible ellipsis',
    avg7: 'visible visible ellipsis',
  });
});
