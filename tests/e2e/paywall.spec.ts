/**
 * PAYWALL=on in Chromium against the real server: a visitor and a Free account see the free slice
 * of All Signals (45 rows, the locked count and the paywall with the feature's name); once the account has paid
 * through the fake Stripe Checkout and its signed webhook, the
 * same page shows every row of the report, put in place after first paint, and sorting still works; so do the
 * preview lists (Recently Qualified, Reversals & Exits).
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe';
import { PAYWALL_STRIPE_PORT, PAYWALL_STRIPE_WEBHOOK_SECRET, PAYWALL_URL } from './servers';

test.use({ baseURL: PAYWALL_URL });
// One worker runs this file: the fake Stripe API listens on one port, in this process.
test.describe.configure({ mode: 'serial' });

let stripe: FakeStripe;
test.beforeAll(async () => {
  // Stripe calls the webhook with no cookie: the fake posts it from this process when the customer pays.
  stripe = await startFakeStripe(PAYWALL_STRIPE_PORT, { webhook: { url: `${PAYWALL_URL}/api/auth/stripe/webhook`, secret: PAYWALL_STRIPE_WEBHOOK_SECRET } });
});
test.afterAll(async () => {
  await stripe?.close();
});

const rows = (page: Page) => page.locator('#all-signals tbody tr');

async function signUp(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: PAYWALL_URL },
    data: { email, password: 'correct horse battery', name: '' },
  });
  expect(response.status()).toBe(200);
  // Sign-up never signs in: the session comes from signing in.
  const signedIn = await page.request.post('/api/auth/sign-in/email', { headers: { origin: PAYWALL_URL }, data: { email, password: 'correct horse battery' } });
  expect(signedIn.status()).toBe(200);
}

/**
 * Upgrades as a customer does, in the browser: /account's upgrade form sends it to the fake Stripe Checkout, "Pay"
 * makes the subscription, the fake sends the signed webhook to the app, and the browser returns to the app.
 */
async function upgrade(page: Page): Promise<void> {
  await page.goto('/account');
  await page.getByRole('region', { name: 'Plan' }).getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${PAYWALL_STRIPE_PORT}/checkout/cs_`));
  await page.getByRole('button', { name: 'Pay $20.00' }).click();
  await expect(page).toHaveURL(new RegExp(`^${PAYWALL_URL}/`));
  expect(stripe.webhookAnswers).toEqual([200]);
  expect([...stripe.subscriptions.values()].map((s) => s.status)).toEqual(['active']);
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Your details' }).getByText('Pro (Premium Account)')).toBeVisible();
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

test('a Free account sees the free slice; after an upgrade through the fake Stripe checkout and its webhook the full lists replace it', async ({ page }) => {
  const email = `reader-${Date.now()}@example.com`;
  await signUp(page, email);
  await page.goto('/all-signals');
  await expect(page.locator('[data-pro-gate]')).toBeVisible();
  await expect(rows(page)).toHaveCount(45);
  expect((await page.request.get('/api/pro/lists/all-signals')).status()).toBe(403);
  // This site takes payments: the account menu offers a Free account the upgrade.
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await expect(page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Upgrade to Premium' })).toBeVisible();

  await upgrade(page);
  const full = await page.request.get('/api/pro/all-signals');
  expect(full.status()).toBe(200);
  const total = ((await full.json()) as unknown[]).length;
  expect(total).toBeGreaterThan(45);
  await page.goto('/all-signals');
  await expect(rows(page)).toHaveCount(total);
  await expect(page.locator('[data-pro-gate]')).toBeHidden();
  await expect(page.locator('[data-count]')).toHaveText(`${total} stocks`);
  await page.getByRole('button', { name: 'Ticker' }).click();
  await expect(rows(page).first()).toHaveAttribute('data-t', /^A/);

  // The preview lists too: every row of Recently Qualified and Reversals & Exits.
  const recent = (await (await page.request.get('/api/pro/lists/recently-qualified')).json()) as { newToday: unknown[]; recent: unknown[] };
  await page.goto('/recently-qualified');
  await expect(page.locator('#recent tbody tr')).toHaveCount(recent.recent.length);
  // One row per stock: the new ones are among them, marked "Yes" under New today.
  await expect(page.locator('#recent tbody tr').filter({ has: page.locator('td:nth-child(4)', { hasText: /^Yes$/ }) })).toHaveCount(recent.newToday.length);
  const changes = (await (await page.request.get('/api/pro/lists/reversals-exits')).json()) as { reversals: unknown[]; exits: unknown[] };
  await page.goto('/reversals-exits');
  await expect(page.locator('#exits-table tbody tr')).toHaveCount(changes.exits.length);
  await expect(page.locator('#reversals-table tbody tr')).toHaveCount(changes.reversals.length);

  // A locked top ticker's own page: a visitor's static answer says locked; the Pro user sees its cards.
  const records = (await full.json()) as { ticker: string; cScore: number; isTopTicker: boolean }[];
  let locked: (typeof records)[number] | undefined;
  for (const record of records.filter((r) => r.isTopTicker)) {
    const publicAnswer = (await (await fetch(`${PAYWALL_URL}/api/stock/${record.ticker}`)).json()) as { locked?: boolean };
    if (publicAnswer.locked === true) {
      locked = record;
      break;
    }
  }
  expect(locked, 'a top ticker beyond the free 5').toBeDefined();
  await page.goto(`/signal/${locked!.ticker}`);
  await expect(page.getByRole('region', { name: 'C-Score', exact: true }).getByTestId('cscore')).toHaveAttribute('data-countup', String(locked!.cScore));
  await expect(page.getByRole('region', { name: 'C-Score Trend' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Signal Metrics' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top Stock Details are part of Pro' })).toHaveCount(0);

  // The heatmap: every ticker of the report instead of the 5-tile preview.
  await page.goto('/heatmap');
  await expect(page.locator('.tile')).toHaveCount(total);
  await expect(page.locator('[data-pro-gate]')).toBeHidden();
});
