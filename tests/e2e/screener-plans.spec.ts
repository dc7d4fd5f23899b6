/**
 * The screener per viewer in Chromium. With PAYWALL=on a Pro account opens the static /screener (the free slice, as a
 * CDN serves it) and, once the page knows the plan, screens every stock: the rows from /api/pro/screener replace the
 * free ones, the lead and the count say how many, and the CSV holds stocks the free slice lacks. Nobody signed in with
 * "Watched only" and an empty watchlist: the page says why the result is empty, until a stock is starred.
 */
import { readFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { expect, test, type Page } from '@playwright/test';
import { unpackScreenRows, WATCHED_SIGNED_OUT } from '../../src/lib/domain/signals/screener-page';
import { PAYWALL_DB, PAYWALL_URL } from './servers';

/** The result's every row, in order, from its CSV download (the page holds only the rows in view). */
async function csvTickers(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  return (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/).slice(1).map((line) => line.split(',')[0]!);
}

test.describe('with PAYWALL=on', () => {
  test.use({ baseURL: PAYWALL_URL });

  test('a Pro account screens every stock: the Pro rows replace the free slice once the page knows the plan', async ({ page }) => {
    const email = `screener-pro-${Date.now()}@example.com`;
    expect((await page.request.post('/api/auth/sign-up/email', { headers: { origin: PAYWALL_URL }, data: { email, password: 'correct horse battery', name: '' } })).status()).toBe(200);
    expect((await page.request.post('/api/auth/sign-in/email', { headers: { origin: PAYWALL_URL }, data: { email, password: 'correct horse battery' } })).status()).toBe(200);
    const free = unpackScreenRows(await (await page.request.get('/screener-rows.json')).text()).map((r) => r.ticker);
    // Free first: the route refuses, the page is the free slice.
    expect((await page.request.get('/api/pro/screener')).status()).toBe(403);
    const db = new DatabaseSync(PAYWALL_DB);
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      const { id } = db.prepare('select id from "user" where email = ?').get(email) as { id: string };
      db.prepare('insert into plan_grant (user_id, plan, granted_at) values (?, ?, ?)').run(id, 'pro', new Date().toISOString());
    } finally {
      db.close();
    }
    const answer = await page.request.get('/api/pro/screener');
    expect(answer.status()).toBe(200);
    const every = unpackScreenRows(((await answer.json()) as { rows: string }).rows).map((r) => r.ticker);
    expect(every.length).toBeGreaterThan(free.length);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/screener');
    // The static page holds the free slice; the Pro rows come after first paint.
    await expect(page.locator('[data-screen-count]')).toHaveText(`${every.length} of ${every.length} stocks`);
    await expect(page.locator('.page-lead')).toContainText(`Screen the ${every.length} stocks of the report`);
    await expect(page.locator('[data-pro-gate]')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
    const all = await csvTickers(page);
    expect([...all].sort()).toEqual([...every].sort());
    const beyond = all.filter((t) => !free.includes(t));
    expect(beyond.length).toBe(every.length - free.length);
    // A screen runs over every stock: A to Z, the first rows in the page are the first tickers of the whole report.
    await page.locator('select[name="sort"]').selectOption('ticker');
    const first = [...every].sort()[0]!;
    const firstRow = page.locator('#screener tbody tr[data-t]').first();
    await expect(firstRow).toHaveAttribute('data-t', first);
    // The row's link, name and label are the stock's own, whichever row of the window shows it.
    await expect(firstRow.getByRole('link', { name: first, exact: true })).toHaveAttribute('href', `/signal/${first}`);
    await expect(firstRow).toHaveAttribute('aria-label', new RegExp(`^${first}, .+: open details$`));
    await expect(page.locator('table#screener')).toHaveAttribute('aria-rowcount', String(every.length + 1));
  });
});

test('nobody signed in, "Watched only" with an empty watchlist says why nothing shows, until a stock is starred', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/screener?watched=1');
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  const note = page.locator('[data-screen-watched]');
  await expect(note).toBeVisible();
  await expect(note).toHaveText(WATCHED_SIGNED_OUT);
  await expect(page.locator('[data-screen-count]')).toHaveText(/^0 of \d+ stocks$/);
  await expect(page.locator('#screener tbody tr[data-t]')).toHaveCount(0);

  // Without the flag every stock shows and the note goes; a starred stock is then the watched screen, with no note.
  const watched = page.locator('input[name="watched"]');
  await watched.uncheck();
  await expect(note).toBeHidden();
  const row = page.locator('#screener tbody tr[data-t]').first();
  const ticker = (await row.getAttribute('data-t'))!;
  await row.getByRole('button', { name: `Watch ${ticker}` }).click();
  await watched.check();
  await expect(page.locator('#screener tbody tr[data-t]')).toHaveCount(1);
  await expect(page.locator('#screener tbody tr[data-t]')).toHaveAttribute('data-t', ticker);
  await expect(note).toBeHidden();
});
