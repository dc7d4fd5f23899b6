/**
 * The site knows what day it is, on the demo app: its build is the bundled sample (report of Fri Nov 20 2026) built on
 * this machine's clock, later than that report, so the pages as built name the report's date; a visitor whose clock
 * is on the report's day (Playwright's page.clock) sees the "today" wording the script puts back.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_URL } from './servers';

test.use({ baseURL: DEMO_URL });

const LATEST = /^Latest report: Nov 20, 2026, (\d+ trading days|more than 20 trading days) ago\.$/;

async function noHeadingSaysToday(page: Page): Promise<void> {
  const headings = await page.getByRole('heading').allInnerTexts();
  expect(headings.length).toBeGreaterThan(0);
  for (const heading of headings) expect(heading).not.toMatch(/today/i);
}

for (const javaScriptEnabled of [false, true]) {
  test(`a stale build says "Latest report" on every page and no heading says today (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: DEMO_URL, javaScriptEnabled });
    const page = await context.newPage();
    for (const path of ['/', '/currently-qualified', '/recently-qualified', '/archives', '/signal/AAPL', '/track-record']) {
      await page.goto(path);
      await expect(page.locator('[data-report-day]'), path).toHaveText(LATEST);
      await expect(page.locator('[data-report-day]'), path).toBeVisible();
      await noHeadingSaysToday(page);
    }
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Top signals of Nov 20, 2026' })).toBeVisible();
    await expect(page.locator('.figure-label', { hasText: /^New/ })).toHaveText('New');
    await page.goto('/currently-qualified');
    await expect(page.locator('.page-lead')).toContainText(/\d+ qualify on Nov 20, 2026, \d+ bullish/);
    await context.close();
  });
}

test('on the report\'s day the script says today, as the spec words it, and hides the "Latest report" line', async ({ page }) => {
  // Fri Nov 20 2026, 12:00 in New York.
  await page.clock.setFixedTime(new Date('2026-11-20T17:00:00Z'));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: "Today's top signals" })).toBeVisible();
  await expect(page.locator('.figure-label', { hasText: /^New/ })).toHaveText('New today');
  await expect(page.locator('[data-report-day]')).toBeHidden();
  await page.goto('/currently-qualified');
  await expect(page.locator('.page-lead')).toContainText(/\d+ qualify today, \d+ bullish/);
  await page.goto('/recently-qualified');
  await expect(page.getByRole('heading', { name: /^Qualified within the last 5 reports \(\d+ stocks, \d+ new today\)$/ })).toBeVisible();
});

test('the next Monday after the bell the report is 1 trading day old; Tuesday counts 2', async ({ page }) => {
  await page.clock.setFixedTime(new Date('2026-11-23T15:00:00Z'));
  await page.goto('/');
  await expect(page.locator('[data-report-day]')).toHaveText('Latest report: Nov 20, 2026, 1 trading day ago.');
  await expect(page.getByRole('heading', { name: 'Top signals of Nov 20, 2026' })).toBeVisible();
  await page.clock.setFixedTime(new Date('2026-11-24T15:00:00Z'));
  await page.goto('/');
  await expect(page.locator('[data-report-day]')).toHaveText('Latest report: Nov 20, 2026, 2 trading days ago.');
});
