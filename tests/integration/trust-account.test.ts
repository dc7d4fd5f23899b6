/**
 * The account menu's Upgrade to Premium follows whether the site takes payments: GET /api/auth/user says `billing`
 * (Stripe configured) for a signed-in account, over real HTTP, with the fake Stripe API on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stripeClient } from '../../src/server/accounts';
import { type AccountServer, signUp, startAccountServer } from '../fixtures/account-server';
import { type FakeStripe, PRICES, startFakeStripe } from '../fixtures/fake-stripe';

let server: AccountServer | undefined;
let stripe: FakeStripe | undefined;
afterEach(async () => {
  await server?.close();
  await stripe?.close();
  server = stripe = undefined;
});

const me = async (cookie: string) => (await (await server!.request('/api/auth/user', { headers: { cookie } })).json()) as { user: { billing: boolean; isPremium: boolean } };

describe('GET /api/auth/user says whether the site takes payments', () => {
  it('billing false without Stripe: the menu offers no upgrade', async () => {
    server = await startAccountServer(null);
    expect((await me(await signUp(server, 'free@example.com'))).user).toMatchObject({ isPremium: false, billing: false });
  });

  it('billing true with Stripe: a Free account is offered Upgrade to Premium', async () => {
    stripe = await startFakeStripe(0);
    server = await startAccountServer(null, {
      stripe: { client: stripeClient('sk_test_fake', stripe.origin), webhookSecret: 'whsec_test', priceMonthly: PRICES.monthly, priceAnnual: PRICES.annual },
    });
    expect((await me(await signUp(server, 'payer@example.com'))).user).toMatchObject({ isPremium: false, billing: true });
  });
});
