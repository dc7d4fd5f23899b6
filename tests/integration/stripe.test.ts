/**
 * Billing against a fake Stripe API on loopback, on SQLite and PostgreSQL: the first checkout makes
 * the customer (sign-up does not, so it takes as long as for a known address), checkout gives Stripe's URL, the signed `checkout.session.completed` webhook makes the user Pro, a
 * cancelled subscription takes it away; an unsigned or wrongly signed webhook gets 400 and changes nothing. Without
 * Stripe keys the upgrade answers 409 saying how to get Pro.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../src/server/accounts';
import { NO_BILLING_MESSAGE } from '../../src/server/routes/account';
import { type AccountServer, DATABASES, postJson, SITE, signUp, startAccountServer } from '../fixtures/account-server';
import { type FakeStripe, PRICES, signWebhook, startFakeStripe } from '../fixtures/fake-stripe';

const WEBHOOK_SECRET = 'whsec_test_secret';

describe.each(DATABASES)('Stripe billing on $name', ({ url }) => {
  let server: AccountServer;
  let stripe: FakeStripe;

  beforeAll(async () => {
    // The hosted checkout's Pay button sends the signed webhook to this server, whose port is known only once it runs.
    const webhook = { url: '', secret: WEBHOOK_SECRET };
    stripe = await startFakeStripe(0, { webhook });
    server = await startAccountServer(await url(), {
      stripe: { client: stripeClient('sk_test_fake', stripe.origin), webhookSecret: WEBHOOK_SECRET, priceMonthly: PRICES.monthly, priceAnnual: PRICES.annual },
    });
    webhook.url = `${server.origin}/api/auth/stripe/webhook`;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const isPremium = async (cookie: string) =>
    ((await (await server.request('/api/auth/user', { headers: { cookie } })).json()) as { user: { isPremium: boolean } }).user.isPremium;
  const sendWebhook = (payload: string, signature?: string) =>
    server.request('/api/auth/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: payload });

  it('sends the plain upgrade form to Checkout, where paying makes the account Pro and returns to /account', async () => {
    const cookie = await signUp(server, 'form-payer@example.com');
    const form = await server.request('/api/forms/upgrade', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, cookie },
      body: 'plan=monthly',
    });
    expect(form.status).toBe(303);
    const checkoutUrl = form.headers.get('location')!;
    expect(checkoutUrl).toMatch(new RegExp(`^${stripe.origin}/checkout/cs_test_`));
    const page = await fetch(checkoutUrl);
    expect(await page.text()).toContain('Pay $20.00');
    const paid = await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(new URL(paid.headers.get('location')!).pathname).toBe('/api/auth/subscription/success');
    expect(stripe.webhookAnswers.at(-1)).toBe(200);
    expect(await isPremium(cookie)).toBe(true);
  });

  it('upgrades through Checkout and the signed webhook, and a cancelled subscription ends Pro', async () => {
    const cookie = await signUp(server, 'payer@example.com');
    expect([...stripe.customers.values()].some((customer) => customer.email === 'payer@example.com')).toBe(false);
    expect(await isPremium(cookie)).toBe(false);

    const checkout = await postJson(server, '/api/account/checkout', { annual: true }, cookie);
    expect(checkout.status).toBe(200);
    expect([...stripe.customers.values()].some((customer) => customer.email === 'payer@example.com')).toBe(true);
    const { url: checkoutUrl } = (await checkout.json()) as { url: string };
    expect(checkoutUrl).toMatch(new RegExp(`^${stripe.origin}/checkout/cs_test_`));
    const sessionId = checkoutUrl.split('/').pop()!;
    expect(stripe.checkoutSessions.get(sessionId)).toMatchObject({ mode: 'subscription', line_items_requested: [{ price: PRICES.annual, quantity: '1' }] });

    const completed = JSON.stringify(stripe.completeCheckout(sessionId));
    // Unsigned, then signed with another secret: 400, and nothing changes.
    expect((await sendWebhook(completed)).status).toBe(400);
    expect((await sendWebhook(completed, signWebhook(completed, 'whsec_someone_else'))).status).toBe(400);
    expect(await isPremium(cookie)).toBe(false);

    const accepted = await sendWebhook(completed, signWebhook(completed, WEBHOOK_SECRET));
    expect(accepted.status).toBe(200);
    expect(await isPremium(cookie)).toBe(true);
    expect(await (await server.request('/api/account', { headers: { cookie } })).json()).toMatchObject({ plan: 'pro', billing: true });

    const portal = await postJson(server, '/api/account/billing-portal', {}, cookie);
    expect(portal.status).toBe(200);
    expect(((await portal.json()) as { url: string }).url).toMatch(new RegExp(`^${stripe.origin}/portal/cus_`));

    const subscriptionId = String(stripe.checkoutSessions.get(sessionId)!.subscription);
    const deleted = JSON.stringify(stripe.subscriptionEvent(subscriptionId, 'canceled', 'customer.subscription.deleted'));
    expect((await sendWebhook(deleted, signWebhook(deleted, WEBHOOK_SECRET))).status).toBe(200);
    expect(await isPremium(cookie)).toBe(false);
  });
});

describe('without Stripe keys', () => {
  let server: AccountServer;
  beforeAll(async () => {
    server = await startAccountServer(null);
  });
  afterAll(() => server?.close());

  it('answers the upgrade and the billing portal with 409 saying how to get Pro', async () => {
    const cookie = await signUp(server, 'free@example.com');
    for (const path of ['/api/account/checkout', '/api/account/billing-portal']) {
      const response = await postJson(server, path, {}, cookie);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: NO_BILLING_MESSAGE, billing: false });
    }
    expect(NO_BILLING_MESSAGE).toContain('npm run admin -- grant-pro');
  });
});
