/**
 * The track record against the market in the browser, on the demo app (`npm start` on the sample exports, demo closes):
 * at 390 and 1280 px the figures beside the demo index with their intervals, the ledger as cards on a phone with
 * nothing sideways, the model portfolio's equity curve drawn once in view, a signal's permalink, and a date with no
 * entry answered 404 with the nearest entries.
 */
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO_URL } from './servers';

const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ baseURL: DEMO_URL });

const WIDTHS = [390, 1280] as const;

/** How far the page reaches past the screen's right edge, in px (0: nothing sideways). */
const overflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - document.documentElement.clientWidth);

for (const width of WIDTHS) {
  test(`at ${width} px: the figures against the demo index with intervals, the equity curve draws, nothing sideways`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: DEMO_URL, viewport: { width, height: 844 } });
    const page = await context.newPage();
    // The curve's library is not loaded before the reader reaches the curve.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto('/track-record');
    await expect(page.getByTestId('benchmark-name')).toHaveText('Demo index (demo prices)');
    await expect(page.getByTestId('methodology-link')).toHaveAttribute('href', '/methodology');
    const direction = page.getByTestId('direction-table');
    // Each horizon cell states a rate with its interval, or says "too few to judge".
    const cells = direction.locator('tbody td[data-label$="days"]');
    expect(await cells.count()).toBe(6);
    for (const text of await cells.allTextContents()) expect(text).toMatch(/\d+\.\d% \d+\.\d–\d+\.\d%[\s\S]*beat Demo index \d+\.\d%|too few to judge/);
    await expect(page.getByTestId('calibration-chart').locator('[data-testid="calibration-interval"]').first()).toBeAttached();
    const chartBox = page.locator('[data-equity-chart]');
    const beforeScroll = scripts.length;
    expect(await chartBox.getAttribute('data-drawn')).toBeNull();
    await chartBox.scrollIntoViewIfNeeded();
    await expect(chartBox).toHaveAttribute('data-drawn', 'true');
    await expect(chartBox.locator('canvas').first()).toBeVisible();
    expect(scripts.length).toBeGreaterThan(beforeScroll);
    await expect(page.getByTestId('portfolio-figures')).toContainText('Sharpe');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });

  test(`at ${width} px: a ledger row's permalink, its outcomes against the benchmark and its links`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: DEMO_URL, viewport: { width, height: 844 } });
    const page = await context.newPage();
    await page.goto('/track-record');
    const row = page.getByTestId('ledger-table').locator('tbody tr').first();
    const ticker = (await row.getAttribute('data-ticker'))!;
    const dateLink = row.locator('td').first().getByRole('link');
    const date = (await dateLink.textContent())!;
    await dateLink.click();
    await expect(page).toHaveURL(new RegExp(`/signal/${ticker.replace('.', '\\.')}/${date}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`${ticker}: `);
    await expect(page.getByTestId('permalink-call')).toContainText('qualified as a');
    const outcomes = page.getByTestId('permalink-outcomes');
    await expect(outcomes.locator('tbody tr')).toHaveCount(3);
    await expect(outcomes.locator('td[data-label="Excess"]').first()).toBeVisible();
    await expect(page.getByTestId('permalink-methodology')).toHaveAttribute('href', '/methodology');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByTestId('permalink-methodology').click();
    await expect(page.getByTestId('methodology-version')).toContainText(/^Version \d+\.\d+\.\d+/);
    await context.close();
  });
}

test('at 390 px the ledger is cards: each figure under its column\'s name (11 px or more), no sideways scroll in the ledger', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: DEMO_URL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/track-record');
  const ledger = page.getByTestId('ledger-table');
  await ledger.scrollIntoViewIfNeeded();
  const wrap = page.locator('.ledger-wrap');
  expect(await wrap.evaluate((w) => w.scrollWidth - w.clientWidth)).toBeLessThanOrEqual(0);
  const first = ledger.locator('tbody tr').first();
  const cell = first.locator('td[data-label="30 days"]');
  await expect(cell).toBeVisible();
  const label = await cell.evaluate((td) => {
    const style = getComputedStyle(td, '::before');
    return { content: style.content, size: parseFloat(style.fontSize) };
  });
  expect(label.content).toBe('"30 days"');
  expect(label.size).toBeGreaterThanOrEqual(11);
  // Every cell of the card inside the screen.
  const outside = await first.evaluate((tr) => [...tr.querySelectorAll('td')].filter((td) => td.getBoundingClientRect().right > window.innerWidth + 0.5).length);
  expect(outside).toBe(0);
  await context.close();
});

test('a date with no entry for that stock is a 404 that lists the nearest entries', async ({ page }) => {
  await page.goto('/track-record');
  const row = page.getByTestId('ledger-table').locator('tbody tr').first();
  const ticker = (await row.getAttribute('data-ticker'))!;
  const answer = await page.goto(`/signal/${ticker}/2001-01-02`);
  expect(answer!.status()).toBe(404);
  const section = page.locator('[data-permalink-missing]');
  await expect(section).toContainText(`${ticker} has no signal on Jan 2, 2001.`);
  const nearest = section.locator('[data-permalink-nearest] a');
  await expect(nearest.first()).toBeVisible();
  await expect(nearest.first()).toHaveAttribute('href', new RegExp(`^/signal/${ticker.replace('.', '\\.')}/\\d{4}-\\d{2}-\\d{2}$`));
  await nearest.first().click();
  await expect(page.getByTestId('signal-permalink')).toBeVisible();
});
