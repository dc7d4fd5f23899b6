import { expect as baseExpect, test, type Page } from '@playwright/test';
import { expected } from './sample-lists';

// The shared test machine can be slow: islands load on first use, so allow them time.
const expect = baseExpect.configure({ timeout: 15_000 });

const tickers = (page: Page, table: string) => page.locator(`#${table} tbody tr:not([hidden])`).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.t!));

test('each list shows exactly the tickers its DESIGN.md definition selects from the sample data', async ({ page }) => {
  const want = await expected();
  expect(want.all).toHaveLength(503);
  expect(want.current.length).toBeGreaterThan(0);
  expect(want.newToday.length).toBeGreaterThan(0);
  expect(want.events.exits.size + want.events.reversals.size).toBeGreaterThan(0);

  await page.goto('/all-signals');
  expect(await tickers(page, 'all-signals')).toEqual(want.all);

  await page.goto('/currently-qualified');
  expect((await tickers(page, 'currently-qualified')).sort()).toEqual([...want.current].sort());

  // Recently Qualified: one row per stock (the new ones among them), its qualified date, and whether it is new today.
  await page.goto('/recently-qualified');
  const recent = await tickers(page, 'recent');
  expect(recent.length).toBe(new Set(recent).size);
  expect([...recent].sort()).toEqual([...want.recent].sort());
  const newToday = await page.locator('#recent tbody tr').evaluateAll((rows) =>
    rows.filter((r) => (r as HTMLTableRowElement).cells[3]!.textContent!.trim() === 'Yes').map((r) => (r as HTMLElement).dataset.t!),
  );
  expect(newToday.sort()).toEqual([...want.newToday].sort());
  await expect(page.locator('[data-count]')).toHaveText(`${want.recent.length} stocks`);
  await expect(page.getByRole('heading', { name: new RegExp(`^Qualified within the last 5 reports \\(${want.recent.length} stocks, ${want.newToday.length} new (today|on Nov 20)\\)$`) })).toBeVisible();

  await page.goto('/reversals-exits');
  const events = (table: string) =>
    page.locator(`#${table} tbody tr`).evaluateAll((rows) =>
      rows.map((r) => {
        const cells = (r as HTMLTableRowElement).cells;
        return `${(r as HTMLElement).dataset.t}|${cells[2]!.textContent!.trim()}|${cells[3]!.textContent!.trim()}|${cells[4]!.dataset.v}`;
      }),
    );
  expect((await events('reversals-table')).sort()).toEqual([...want.events.reversals].sort());
  expect((await events('exits-table')).sort()).toEqual([...want.events.exits].sort());
});

test('sorting, filtering and the URL state', async ({ page }) => {
  await page.goto('/all-signals');
  const scores = () => page.locator('#all-signals tbody tr:not([hidden]) td:nth-child(3)').evaluateAll((cells) => cells.map((c) => parseFloat(c.textContent!)));

  // Sort by C-Score: the first click orders numbers descending, the second ascending; both land in the URL.
  const header = page.getByRole('columnheader', { name: 'C-Score' });
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sort=cScore&order=desc/);
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sort=cScore&order=asc/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await scores();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

  // Sort by ticker, text ascending.
  await page.getByRole('columnheader', { name: 'Ticker' }).getByRole('button').click();
  const byTicker = await tickers(page, 'all-signals');
  expect(byTicker.slice(0, 3)).toEqual(['A', 'AAPL', 'ABBV']);

  // Filter by direction and text; the count and the URL follow.
  await page.getByLabel('Direction').selectOption('bearish');
  await expect(page).toHaveURL(/direction=bearish/);
  for (const s of await scores()) expect(s).toBeLessThanOrEqual(-65);
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('apple');
  await expect(page.locator('[data-count]')).toHaveText(/Showing \d+ of 503 stocks/);
  await page.getByLabel('Direction').selectOption('');
  await expect(page.locator('#all-signals tbody tr:not([hidden])')).toHaveCount(1);
  await expect(page.locator('#all-signals tbody tr:not([hidden])')).toHaveAttribute('data-t', 'AAPL');

  // A shared address restores the view.
  await page.goto('/all-signals?sector=Energy&sort=cScore&order=asc');
  await expect(page.getByLabel('Sector')).toHaveValue('Energy');
  const energy = await page.locator('#all-signals tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.s));
  expect(energy.length).toBeGreaterThan(5);
  expect(new Set(energy)).toEqual(new Set(['Energy']));
  const energyScores = await scores();
  expect(energyScores).toEqual([...energyScores].sort((a, b) => a - b));
});

test('the star watches a ticker, the Watched filter shows it, and the list works without JavaScript', async ({ page, browser }) => {
  await page.goto('/currently-qualified');
  const first = page.locator('#currently-qualified tbody tr').first();
  const ticker = (await first.getAttribute('data-t'))!;
  await first.getByRole('button', { name: `Watch ${ticker}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${ticker} added to watchlist` })).toBeVisible();
  await page.getByLabel('Watched').check();
  await expect(page).toHaveURL(/watched=1/);
  await expect(page.locator('#currently-qualified tbody tr:not([hidden])')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('#currently-qualified tbody tr:not([hidden])')).toHaveCount(1);
  await expect(page.getByRole('button', { name: `Watch ${ticker}` })).toHaveAttribute('aria-pressed', 'true');

  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await plain.goto('/all-signals');
  await expect(plain.locator('#all-signals tbody tr')).toHaveCount(503);
  await expect(plain.getByRole('link', { name: 'AAPL', exact: true })).toHaveAttribute('href', '/signal/AAPL');
  await noJs.close();
});

test('the heatmap has a focusable tile per ticker, named with ticker, company and C-Score', async ({ page }) => {
  await page.goto('/heatmap');
  await expect(page.locator('.tile')).toHaveCount(503);
  const tile = page.getByRole('link', { name: /^AAPL ?,? Apple Inc\., C-Score -?\d+(\.\d\d)? ?, (Bullish|Bearish|Neutral)$/ });
  await tile.focus();
  await expect(tile).toBeFocused();
  const response = await page.goto('/explore');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Explore' })).toBeVisible();
});

test('archives paginate 7 files a page with numbers and Next, cards expand to downloads', async ({ page }) => {
  await page.goto('/archives');
  await expect(page.locator('.archive-card')).toHaveCount(7);
  await expect(page.locator('.archive-title').first()).toHaveText('Nov 20, 2026');
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/archives\/2$/);
  await expect(page.locator('.archive-title').first()).toHaveText('Nov 11, 2026');
  await page.getByRole('link', { name: 'Page 9' }).click();
  await expect(page.locator('.archive-card')).toHaveCount(60 - 8 * 7);
  await expect(page.getByRole('link', { name: 'Next' })).toHaveCount(0);

  // Nov 13 is a two-sheet workbook: its card lists both sheets.
  await page.goto('/archives');
  const card = page.locator('.archive-card', { hasText: 'Nov 13, 2026' });
  await card.locator('summary').first().click();
  await card.getByText('Download').click();
  const raw = card.getByRole('link', { name: 'Original file (.xlsx)' });
  await expect(raw).toHaveAttribute('href', /^\/api\/download-excel\/[0-9a-f]{16}$/);
  await expect(card.getByText(/^Summary · \d+ rows$/)).toBeVisible();
  await expect(card.getByRole('link', { name: 'CSV of sheet Summary' })).toHaveAttribute('href', /^\/api\/download-csv\/[0-9a-f]{16}\?sheetId=\d+$/);
});

test('a 6,036-row table keeps a window of rows: sorted across the whole list, scrollable to its end, filterable, walkable by keyboard', async ({ page }) => {
  // The sample has 503 tickers: the served /all-signals page is copied 12 times over (AAPL, AAPL~1, … AAPL~11)
  // so the real page script meets a table past the windowing threshold.
  const COPIES = 12;
  await page.route('**/all-signals', async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const body = /(<tbody[^>]*>)([\s\S]*?)(<\/tbody>)/.exec(html)!;
    const copies = Array.from({ length: COPIES }, (_, k) =>
      k === 0 ? body[2]! : body[2]!.replace(/(data-t="|aria-label="Watch )([^"]+)"/g, `$1$2~${k}"`).replace(/(data-detail-link[^>]*>)([^<]+)</g, `$1$2~${k}<`),
    ).join('');
    await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html.replace(body[0]!, () => body[1] + copies + body[3]) });
  });
  await page.goto('/all-signals');
  const table = page.locator('#all-signals');
  const total = 503 * COPIES;
  // The switch to the window happens once the page is idle.
  await page.waitForFunction(() => document.querySelector('#all-signals')?.hasAttribute('data-windowed'), null, { timeout: 15_000 });
  await expect(table).toHaveAttribute('aria-rowcount', String(total + 1));
  await expect(page.locator('[data-count]')).toHaveText(`${total} stocks`);
  const inPage = () =>
    table.locator('tbody tr:not(.gap)').evaluateAll((rows) =>
      rows.map((r) => ({ index: Number(r.getAttribute('aria-rowindex')), t: (r as HTMLElement).dataset.t!, score: parseFloat(r.children[2]!.textContent!.replace('\u2212', '-')) })),
    );
  expect((await inPage()).length).toBeLessThan(80);

  // The C-Score sort covers every row: the top of the window is the highest score, the end of the list the lowest.
  await page.getByRole('columnheader', { name: 'C-Score' }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: 'C-Score' })).toHaveAttribute('aria-sort', 'descending');
  const want = [...(await expected()).latest.values()].sort((a, b) => b - a).map((s) => Math.round(s * 100) / 100);
  let rows = await inPage();
  expect(rows[0]!.index).toBe(2);
  expect(rows[0]!.score).toBe(want[0]);
  // The page is the only scroll: the window follows it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(async () => (await inPage()).at(-1)!.index).toBe(total + 1);
  rows = await inPage();
  expect(rows.at(-1)!.score).toBe(want.at(-1));
  // Positions follow each other and scores never rise inside the window.
  rows.forEach((row, i) => i > 0 && expect([row.index - rows[i - 1]!.index, row.score <= rows[i - 1]!.score]).toEqual([1, true]));

  // A filter applies to the whole list (AAPL and its 11 copies), and the count says so.
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('aapl');
  await expect(page.locator('[data-count]')).toHaveText(`Showing ${COPIES} of ${total} stocks`);
  await expect(table).toHaveAttribute('aria-rowcount', String(COPIES + 1));
  expect((await inPage()).map((r) => r.t).sort()).toEqual(['AAPL', ...Array.from({ length: COPIES - 1 }, (_, k) => `AAPL~${k + 1}`)].sort());
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('');
  await expect(page.locator('[data-count]')).toHaveText(`${total} stocks`);

  // Watching a row, then scrolling it out of the window and back, keeps its star on.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(async () => (await inPage())[0]!.index).toBe(2);
  const first = (await inPage())[0]!.t;
  await page.getByRole('button', { name: `Watch ${first}`, exact: true }).click();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('button', { name: `Watch ${first}`, exact: true })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('button', { name: `Watch ${first}`, exact: true })).toHaveAttribute('aria-pressed', 'true');

  // Tab walks row after row past the first window: each row, its star and its ticker link take focus in order.
  await page.getByRole('button', { name: `Watch ${first}`, exact: true }).focus();
  for (let i = 0; i < 3 * 60; i++) await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const row = document.activeElement?.closest('tr');
    return row ? Number(row.getAttribute('aria-rowindex')) : null;
  });
  expect(focused).toBe(62);
});
