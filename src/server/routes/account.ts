/**
 * /api/account (signed in): who I am and my plan, everything we hold on me as JSON, change my password, delete my
 * account (with my password, or a session signed in within the last 10 minutes).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../auth';
import { passAuthAnswer } from '../auth/errors';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { OUTCOMES } from '../../lib/domain/accounts/account-forms';
import { validate } from '../validate';
import type { ApiContext } from './context';
import { usernameOf } from './auth';
import type { KeyedRequests } from '../api-keys';

const NO_STORE = { 'Cache-Control': 'no-store' };
const PasswordBody = z.object({
  currentPassword: z.string().min(1, 'must not be empty').max(128, 'at most 128 characters'),
  newPassword: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(128, 'at most 128 characters'),
});
const CheckoutBody = z.object({ annual: z.boolean().optional() });
/** What the upgrade button says when the site has no Stripe keys (ACCOUNT UI shows it). */
export const NO_BILLING_MESSAGE =
  'Online payment is not set up on this site. Pro is granted by an operator: ask the site\'s operator to run "npm run admin -- grant-pro" with your email.';
const DeleteBody = z.object({ password: z.string().min(1, 'must not be empty').max(128, 'at most 128 characters').optional() });

/** Mounted at /api/account; `keys` (the API keys' check) hears of a deleted account, so its keys stop at once. */
export function accountRoutes(context: ApiContext, keys?: Pick<KeyedRequests, 'accountDeleted'>) {
  const { accounts } = context;
  const { db } = accounts.database;
  return new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/', async (c) => {
      const user = c.var.user!;
      const grant = await db.selectFrom('plan_grant').select(['plan', 'granted_at']).where('user_id', '=', user.id).executeTakeFirst();
      return c.json(
        {
          id: user.id,
          email: user.email,
          username: usernameOf(user),
          plan: user.isPremium ? 'pro' : 'free',
          isPremium: user.isPremium,
          isOperator: user.isOperator,
          grantedPro: grant === undefined ? null : { plan: grant.plan, grantedAt: grant.granted_at },
          billing: accounts.stripe !== null,
        },
        200,
        NO_STORE,
      );
    })
    .get('/export', async (c) => {
      const user = c.var.user!;
      const [profile, sessions, logins, watchlist, grant, subscriptions, aiChats, screens] = await Promise.all([
        db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified', 'createdAt', 'updatedAt']).where('id', '=', user.id).executeTakeFirst(),
        db.selectFrom('session').select(['createdAt', 'expiresAt', 'ipAddress', 'userAgent']).where('userId', '=', user.id).execute(),
        db.selectFrom('account').select(['providerId', 'createdAt']).where('userId', '=', user.id).execute(),
        db.selectFrom('watchlist').select(['ticker', 'added_at']).where('user_id', '=', user.id).orderBy('added_at').orderBy('ticker').execute(),
        db.selectFrom('plan_grant').select(['plan', 'granted_at']).where('user_id', '=', user.id).executeTakeFirst(),
        accounts.stripe === null
          ? Promise.resolve([])
          : db.selectFrom('subscription').select(['plan', 'status', 'periodStart', 'periodEnd', 'cancelAtPeriodEnd']).where('referenceId', '=', user.id).execute(),
        db.selectFrom('ai_chat').select(['id', 'title', 'messages', 'updated_at']).where('user_id', '=', user.id).orderBy('updated_at').execute(),
        db.selectFrom('saved_screen').select(['name', 'query', 'alert', 'created_at']).where('user_id', '=', user.id).orderBy('created_at').execute(),
      ]);
      const apiKeys = await db.selectFrom('api_key').select(['label', 'key_start', 'created_at', 'revoked_at']).where('user_id', '=', user.id).orderBy('created_at').execute();
      const exported = {
        exportedAt: new Date(context.now()).toISOString(),
        user: profile === undefined ? null : { ...profile, emailVerified: Boolean(profile.emailVerified) },
        plan: user.isPremium ? 'pro' : 'free',
        sessions,
        signInMethods: logins.map((login) => ({ method: login.providerId === 'credential' ? 'password' : login.providerId, createdAt: login.createdAt })),
        watchlist: watchlist.map((row) => ({ ticker: row.ticker, addedAt: row.added_at })),
        grantedPro: grant === undefined ? null : { plan: grant.plan, grantedAt: grant.granted_at },
        subscriptions,
        aiChats: aiChats.map((chat) => ({ id: chat.id, title: chat.title, updatedAt: chat.updated_at, messages: JSON.parse(chat.messages) as unknown })),
        savedScreens: screens.map((screen) => ({ name: screen.name, query: screen.query, alert: Number(screen.alert) === 1, createdAt: screen.created_at })),
        // The keys' names and first characters, never their fingerprints.
        apiKeys: apiKeys.map((key) => ({ label: key.label, start: key.key_start, createdAt: key.created_at, revokedAt: key.revoked_at })),
      };
      return c.json(exported, 200, { ...NO_STORE, 'Content-Disposition': 'attachment; filename="my-account.json"' });
    })
    .post('/password', validate('json', PasswordBody, `{"currentPassword": "...", "newPassword": "at least ${MIN_PASSWORD_LENGTH} characters"}`), async (c) => {
      const body = c.req.valid('json');
      const answer = await accounts.auth.api.changePassword({ headers: c.req.raw.headers, body: { ...body, revokeOtherSessions: true }, asResponse: true });
      return passAuthAnswer(c, answer, { changed: true }, { CREDENTIAL_ACCOUNT_NOT_FOUND: OUTCOMES['change-password']['no-password'].text });
    })
    // Stripe Checkout for Pro (monthly, or annual billing); answers {url} to send the browser to.
    .post('/checkout', validate('json', CheckoutBody, '{"annual": false}'), async (c) => {
      if (accounts.stripe === null) return c.json({ error: NO_BILLING_MESSAGE, billing: false }, 409, NO_STORE);
      if (c.var.user!.isPremium) return c.json({ error: 'You already have Pro: manage it from the billing portal.' }, 409, NO_STORE);
      const origin = new URL(accounts.siteUrl).origin;
      const answer = await accounts.auth.api.upgradeSubscription({
        headers: c.req.raw.headers,
        body: { plan: 'pro', annual: c.req.valid('json').annual ?? false, successUrl: `${origin}/account?upgraded=1`, cancelUrl: `${origin}/account`, disableRedirect: true },
        asResponse: true,
      });
      const body = answer.ok ? ((await answer.clone().json()) as { url?: string }) : {};
      return passAuthAnswer(c, answer, { url: body.url });
    })
    // Stripe's billing portal for a subscriber.
    .post('/billing-portal', async (c) => {
      if (accounts.stripe === null) return c.json({ error: NO_BILLING_MESSAGE, billing: false }, 409, NO_STORE);
      const answer = await accounts.auth.api.createBillingPortal({
        headers: c.req.raw.headers,
        body: { returnUrl: `${new URL(accounts.siteUrl).origin}/account`, disableRedirect: true },
        asResponse: true,
      });
      const body = answer.ok ? ((await answer.clone().json()) as { url?: string }) : {};
      return passAuthAnswer(c, answer, { url: body.url });
    })
    .post('/delete', validate('json', DeleteBody, '{"password": "your password"}'), async (c) => {
      const user = c.var.user!;
      const { password } = c.req.valid('json');
      const keyIds = (await db.selectFrom('api_key').select('id').where('user_id', '=', user.id).execute()).map((row) => row.id);
      const answer = await accounts.auth.api.deleteUser({ headers: c.req.raw.headers, body: password === undefined ? {} : { password }, asResponse: true });
      if (answer.ok) {
        await keys?.accountDeleted(user.id, keyIds);
        await db.deleteFrom('watchlist').where('user_id', '=', user.id).execute();
        await db.deleteFrom('plan_grant').where('user_id', '=', user.id).execute();
        await db.deleteFrom('ai_chat').where('user_id', '=', user.id).execute();
        await db.deleteFrom('saved_screen').where('user_id', '=', user.id).execute();
        if (accounts.stripe !== null) await db.deleteFrom('subscription').where('referenceId', '=', user.id).execute();
      }
      return passAuthAnswer(c, answer, { deleted: true });
    });
}
