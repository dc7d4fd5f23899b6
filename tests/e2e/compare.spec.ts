/**
 * /compare?t=...: the chart draws every stock with a legend, the table keeps the address's order, a bad ticker is
 * named, a sixth is left out with a message; at 390 and 1280 px. With PAYWALL=on a locked top ticker shows as locked.
 * And the ways in: the stock page's link with its similar tickers, and choosing list rows.
 */
import { expect, test, type Page } from '@playwright/test';
import { PAYWALL_URL } from './servers';

const WIDTHS = [390, 1280] as const;

async function tableOrder(page: Page): Promise<string[]> {
  return page.getByTestId('compare-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.t!));
}

async function noSideScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), 'no page wider than the window').toBeLessThanOrEqual(page.viewportSize()!.width);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('3 tickers: the chart draws all three, the legend names each company, the table keeps their order', async ({ page }) => {
      await page.goto('/compare?t=NVDA,aapl,MSFT');
      const chart = page.getByTestId('compare-chart');
      await expect(chart).toHaveAttribute('data-state', 'drawn');
      await expect(chart).toHaveAttribute('data-lines', '3');
      await expect(chart.locator('canvas').first()).toBeVisible();
      expect(await chart.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(300);
      const legend = page.getByTestId('compare-legend').locator('li');
      await expect(legend).toHaveCount(3);
      await expect(legend.nth(0)).toContainText('NVDA');
      await expect(legend.nth(0)).toContainText(/NVIDIA/i);
      await expect(legend.nth(1)).toContainText(/Apple/i);
      await expect(legend.nth(2)).toContainText(/Microsoft/i);
      expect(await tableOrder(page)).toEqual(['NVDA', 'AAPL', 'MSFT']);
      const first = page.getByTestId('compare-table').locator('tbody tr').first();
      await expect(first).toHaveAttribute('data-state', 'ready');
      await expect(first.getByTestId('compare-cscore')).toContainText(/^-?\d+(\.\d+)? (Bullish|Bearish|Neutral)$/);
      await expect(first.locator('td').last()).toHaveText(/%|—/);
      await expect(page.getByTestId('compare-notice')).toHaveCount(0);
      await noSideScroll(page);

      // Remove one and add one by keyboard: the address follows, in order.
      await page.getByRole('button', { name: 'Remove AAPL' }).click();
      await expect(page).toHaveURL(/\/compare\?t=NVDA,MSFT$/);
      await page.getByLabel('Add a stock').fill('KO');
      await page.getByLabel('Add a stock').press('Enter');
      await expect(page).toHaveURL(/\/compare\?t=NVDA,MSFT,KO$/);
      await expect(chart).toHaveAttribute('data-lines', '3');
      expect(await tableOrder(page)).toEqual(['NVDA', 'MSFT', 'KO']);
    });

    test('a bad ticker is named on the page, and the others still draw', async ({ page }) => {
      await page.goto('/compare?t=AAPL,ZZZZ,$$$');
      const notice = page.getByTestId('compare-notice');
      await expect(notice).toContainText('Not a ticker: "$$$".');
      await expect(notice).toContainText('Not in the latest report: ZZZZ.');
      await expect(page.getByTestId('compare-table').locator('tr[data-t="ZZZZ"]')).toContainText('ZZZZ is not in the latest report.');
      await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-state', 'drawn');
      await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-lines', '1');
      // Nothing known at all: a message, never a blank chart.
      await page.goto('/compare?t=QQQQQ');
      await expect(page.getByTestId('compare-chart-empty')).toBeVisible();
      await expect(page.getByTestId('compare-notice')).toContainText('QQQQQ');
    });

    test('6 tickers: the first 5 show and the page says the sixth was left out', async ({ page }) => {
      await page.goto('/compare?t=AAPL,MSFT,NVDA,AMZN,GOOGL,META');
      await expect(page.getByTestId('compare-notice')).toHaveText('A comparison shows at most 5 stocks: showing the first 5, left out META.');
      await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-lines', '5');
      expect(await tableOrder(page)).toEqual(['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL']);
      await expect(page.getByLabel('Add a stock')).toHaveCount(0);
      await noSideScroll(page);
    });
  });
}

test('the stock page links to a comparison with its similar tickers; list rows can be chosen to compare', async ({ page }) => {
  await page.goto('/signal/AAPL');
  const link = page.getByRole('link', { name: 'Compare with similar stocks' });
  await expect(link).toHaveAttribute('href', /^\/compare\?t=AAPL(,[A-Z0-9.-]+){1,4}$/);
  await link.click();
  await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-state', 'drawn');
  expect((await tableOrder(page))[0]).toBe('AAPL');

  await page.goto('/all-signals');
  await page.getByRole('button', { name: 'Compare stocks' }).first().click();
  const rows = page.locator('table[data-picking] tbody tr');
  const tickers = await rows.evaluateAll((r) => r.slice(0, 2).map((row) => (row as HTMLElement).dataset.t!));
  await rows.nth(0).locator('td.c-cScore').click();
  await rows.nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('link', { name: 'Compare 2 stocks' }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?t=${tickers.join(',').replace(/\./g, '\\.')}$`));
  // The address changes before the new page's table is drawn.
  await expect.poll(() => tableOrder(page)).toEqual(tickers);
});

test('PAYWALL=on: a locked top ticker shows as locked, with no score', async ({ page }) => {
  const index = (await (await fetch(`${PAYWALL_URL}/search-index.json`)).json()) as [string, string, number | null][];
  const locked = index.find((e) => e[2] === null)!;
  const free = index.find((e) => e[2] !== null)!;
  expect(locked, 'a top ticker beyond the free 5').toBeDefined();
  await page.goto(`${PAYWALL_URL}/compare?t=${free[0]},${locked[0]}`);
  const row = page.getByTestId('compare-table').locator(`tr[data-t="${locked[0]}"]`);
  await expect(row).toHaveAttribute('data-state', 'locked');
  await expect(row).toContainText('its scores are part of Pro');
  await expect(row.getByTestId('compare-cscore')).toHaveCount(0);
  await expect(page.getByTestId('compare-legend')).toContainText(`${locked[0]}`);
  await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-lines', '1');
});

test.describe('What moved', () => {
  test.use({ javaScriptEnabled: false });

  test('the stock page shows each supporting score with its change since the last report and over 5, without JavaScript', async ({ page }) => {
    await page.goto('/signal/AAPL');
    const card = page.getByRole('region', { name: 'What moved' });
    await expect(card.getByRole('columnheader')).toHaveText(['Score', 'Now', 'Last report', '5 reports']);
    await expect(card.getByRole('rowheader')).toHaveText(['Delta', 'Market', 'Accuracy', 'Relevance']);
    // Each row: the score now, then two signed changes (or a dash where the ticker was not in that report).
    for (const row of await card.locator('tbody tr').all()) await expect(row.locator('td')).toHaveText([/^-?\d+(\.\d+)?$/, /^([+-]\d+\.\d|0\.0|—)$/, /^([+-]\d+\.\d|0\.0|—)$/]);
  });
});

test('the detail dialog shows What moved compactly', async ({ page }) => {
  await page.goto('/all-signals');
  await page.locator('tbody tr a[data-detail-link]').first().click();
  const moved = page.getByRole('dialog').getByRole('region', { name: 'What moved' });
  await expect(moved).toContainText(/Delta -?\d+\.\d+ \(([+-]\d+\.\d|0\.0|—) last report, ([+-]\d+\.\d|0\.0|—) over 5 reports\)/);
  await expect(moved).toContainText('Relevance');
});
