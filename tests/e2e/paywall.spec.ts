/**
 * PAYWALL=on (issue 12 item 5) in Chromium against the real server: a visitor and a Free account see the free slice
 * of All Signals (45 rows, the locked count and the paywall with the feature's name); once the account has Pro, the
 * same page shows every row of the report, put in place after first paint, and sorting still works; so do the
 * preview lists (Recently Qualified, Reversals & Exits).
 */
import { DatabaseSync } from 'node:sqlite';
import { expect, test, type Page } from '@playwright/test';
import { PAYWALL_DB, PAYWALL_URL } from './servers';

test.use({ baseURL: PAYWALL_URL });

const rows = (page: Page) => page.locator('#all-signals tbody tr');

async function signUp(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: PAYWALL_URL },
    data: { email, password: 'correct horse battery', name: '' },
  });
  expect(response.status()).toBe(200);
}

/** What `npm run admin -- grant-pro EMAIL` writes. */
function grantPro(email: string): void {
  const db = new DatabaseSync(PAYWALL_DB);
  try {
    const user = db.prepare('select id from user where email = ?').get(email) as { id: string };
    db.prepare('insert into plan_grant (user_id, plan, granted_at) values (?, ?, ?)').run(user.id, 'pro', new Date().toISOString());
  } finally {
    db.close();
  }
}

test('a visitor sees the free slice of 45 rows, the locked count and the paywall with the feature name', async ({ page }) => {
  await page.goto('/all-signals');
  await expect(rows(page)).toHaveCount(45);
  const gate = page.locator('[data-pro-gate]');
  await expect(gate.getByRole('heading', { name: /^\d+ more signals with Pro$/ })).toBeVisible();
  await gate.getByRole('button', { name: 'Upgrade to Pro' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Your Plan' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('All Signals is part of Pro');
  const all = await page.request.get('/api/all-signals');
  expect(((await all.json()) as unknown[]).length).toBe(45);
});

test('a Free account sees the free slice; with Pro the full list replaces it and sorts', async ({ page }) => {
  const email = `reader-${Date.now()}@example.com`;
  await signUp(page, email);
  await page.goto('/all-signals');
  await expect(page.locator('[data-pro-gate]')).toBeVisible();
  await expect(rows(page)).toHaveCount(45);
  expect((await page.request.get('/api/pro/lists/all-signals')).status()).toBe(403);

  grantPro(email);
  const full = await page.request.get('/api/pro/all-signals');
  expect(full.status()).toBe(200);
  const total = ((await full.json()) as unknown[]).length;
  expect(total).toBeGreaterThan(45);
  await page.reload();
  await expect(rows(page)).toHaveCount(total);
  await expect(page.locator('[data-pro-gate]')).toBeHidden();
  await expect(page.locator('[data-count]')).toHaveText(`${total} rows`);
  await page.getByRole('button', { name: 'Ticker' }).click();
  await expect(rows(page).first()).toHaveAttribute('data-t', /^A/);

  // The preview lists too: every row of Recently Qualified and Reversals & Exits.
  const recent = (await (await page.request.get('/api/pro/lists/recently-qualified')).json()) as { newToday: unknown[]; recent: unknown[] };
  await page.goto('/recently-qualified');
  await expect(page.locator('#recent tbody tr')).toHaveCount(recent.recent.length);
  await expect(page.locator('#new-today tbody tr')).toHaveCount(recent.newToday.length);
  const changes = (await (await page.request.get('/api/pro/lists/reversals-exits')).json()) as { reversals: unknown[]; exits: unknown[] };
  await page.goto('/reversals-exits');
  await expect(page.locator('#exits-table tbody tr')).toHaveCount(changes.exits.length);
  await expect(page.locator('#reversals-table tbody tr')).toHaveCount(changes.reversals.length);
});
