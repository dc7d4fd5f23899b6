/**
 * PAYWALL=on (issue 12 item 5) in Chromium against the real server: a visitor and a Free account see the free slice
 * of All Signals (45 rows, the locked count and the paywall with the feature's name); once the account has paid
 * through the fake Stripe Checkout and its signed webhook, the
 * same page shows every row of the report, put in place after first paint, and sorting still works; so do the
 * preview lists (Recently Qualified, Reversals & Exits).
 */
import { expect, test, type Page } from '@playwright/test';
import { signWebhook, startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe';
import { PAYWALL_STRIPE_PORT, PAYWALL_STRIPE_WEBHOOK_SECRET, PAYWALL_URL } from './servers';

test.use({ baseURL: PAYWALL_URL });
// One worker runs this file: the fake Stripe API listens on one port, in this process.
test.describe.configure({ mode: 'serial' });

let stripe: FakeStripe;
test.beforeAll(async () => {
  stripe = await startFakeStripe(PAYWALL_STRIPE_PORT);
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
}

/** Upgrades through the fake Stripe Checkout: the session is created, the customer pays, Stripe sends the signed webhook. */
async function upgrade(page: Page): Promise<void> {
  const checkout = await page.request.post('/api/account/checkout', { headers: { origin: PAYWALL_URL }, data: { annual: false } });
  expect(checkout.status()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  // The fake's checkout page answers API calls only (it wants a key), so the session is checked in the fake itself.
  expect(url).toMatch(new RegExp(`^http://127.0.0.1:${PAYWALL_STRIPE_PORT}/checkout/cs_`));
  const sessionId = url.split('/').pop()!;
  expect(stripe.checkoutSessions.get(sessionId)).toMatchObject({ mode: 'subscription' });
  const payload = JSON.stringify(stripe.completeCheckout(sessionId));
  // Stripe calls the webhook with no cookie: a plain request from this process, not the signed-in page's.
  const webhook = await fetch(`${PAYWALL_URL}/api/auth/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, PAYWALL_STRIPE_WEBHOOK_SECRET) },
    body: payload,
  });
  expect(webhook.status).toBe(200);
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
});
