/**
 * The track record in the browser, on the demo app (`npm start` on the sample exports: demo closes stored by its daily job):
 * /track-record's chart and tables without JavaScript, the ledger sorted and filtered by keyboard over the whole
 * ledger, the stock page's Track record card, and the demo price beside every list row.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { DEMO_URL } from './servers';

const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ baseURL: DEMO_URL });

test('without JavaScript the calibration chart, the tables and the newest ledger rows are all there', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: DEMO_URL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/track-record');
  await expect(page.getByRole('heading', { level: 1, name: 'Track Record' })).toBeVisible();
  await expect(page.getByTestId('past-results-note')).toContainText('Past results do not predict future ones.');
  await expect(page.getByTestId('demo-prices')).toContainText('Demo prices');
  const chart = page.getByRole('img', { name: 'Hit rate by C-Score band at 5, 30 and 90 trading days' });
  await expect(chart).toBeVisible();
  expect(await chart.locator('rect.cal-bar').count()).toBeGreaterThan(0);
  for (const id of ['direction-table', 'band-table', 'sector-table']) await expect(page.getByTestId(id).locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('direction-table').getByRole('rowheader', { name: 'Bullish' })).toBeVisible();
  const ledger = page.getByTestId('ledger-table');
  const total = Number(await ledger.getAttribute('data-total'));
  expect(total).toBeGreaterThan(200);
  await expect(ledger.locator('tbody tr')).toHaveCount(200);
  // The filters need the script: without it the form stays hidden, and the CSV link holds every row.
  await expect(page.locator('[data-ledger-filters]')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Download the ledger (CSV)' })).toHaveAttribute('href', '/track-record.csv');
  await context.close();
});

test('the ledger sorts and filters by keyboard, over the whole ledger', async ({ page }) => {
  await page.goto('/track-record');
  const ledger = page.getByTestId('ledger-table');
  const total = Number(await ledger.getAttribute('data-total'));
  const sortScore = ledger.getByRole('button', { name: 'C-Score' });
  await sortScore.focus();
  await page.keyboard.press('Enter');
  // The first sort loads every signal from the CSV.
  await expect(ledger.locator('tbody tr')).toHaveCount(total);
  const header = ledger.getByRole('columnheader', { name: 'C-Score' });
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const scores = async () => (await ledger.locator('tbody tr td:nth-child(4)').allTextContents()).map(Number);
  const descending = await scores();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await scores();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

  await page.getByLabel('Signal', { exact: true }).selectOption('bearish');
  await expect(page.locator('[data-ledger-count]')).toHaveText(/^\d[\d,]* of [\d,]+ signals shown$/);
  const shown = ledger.locator('tbody tr:not([hidden])');
  expect(await shown.count()).toBeGreaterThan(0);
  expect(new Set(await shown.locator('td:nth-child(3)').allTextContents())).toEqual(new Set(['Bearish']));
  const ticker = (await shown.first().getAttribute('data-ticker'))!;
  await page.getByLabel('Ticker', { exact: true }).fill(ticker);
  expect(new Set(await ledger.locator('tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.ticker)))).toEqual(new Set([ticker]));
});

test('a stock page shows its Track record card, and the lists show each row\'s demo close', async ({ page }) => {
  await page.goto('/track-record');
  const ticker = (await page.getByTestId('ledger-table').locator('tbody tr').first().getAttribute('data-ticker'))!;
  await page.goto(`/signal/${ticker}`);
  const card = page.getByTestId('track-record-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText('Hit Rate');
  await expect(card).toContainText('Average ROI');
  await expect(card).toContainText(/\d+ signals? since /);
  await page.goto('/all-signals');
  await expect(page.getByRole('columnheader', { name: 'Close' })).toBeVisible();
  const first = page.locator('#all-signals tbody tr').first().locator('td[data-v]').first();
  await expect(first).toHaveText(/^\$[\d,]+\.\d{2} [+-]?\d+\.\d{2}% demo$/);
});
