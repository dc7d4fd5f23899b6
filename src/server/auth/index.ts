/**
 * Better Auth for the site (DESIGN.md "Accounts and entitlements"): email and password (10 characters or more) and
 * magic links by mail, sessions in HttpOnly SameSite=Lax cookies (Secure behind https), origin checks on every
 * state-changing request and rate limits whatever NODE_ENV says, telemetry off. One options object serves the
 * handler and the migrations, so the schema always matches the plugins.
 */
import type { BetterAuthRateLimitStorage } from '@better-auth/core';
import { stripe as stripePlugin } from '@better-auth/stripe';
import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { magicLink } from 'better-auth/plugins';
import type Stripe from 'stripe';
import { type AppDatabase, migrateOwnTables } from '../../storage/db';
import { recordEmailProof, revokeUnprovenWork } from '../../storage/email-proof';
import type { BackgroundMail } from '../mail';

/** Used outside production when BETTER_AUTH_SECRET is unset (production refuses to start without it). */
export const DEVELOPMENT_SECRET = 'development-only-secret-set-BETTER_AUTH_SECRET-in-production';

/** The header the auth routes set to the socket's address for Better Auth's rate limits (never the client's own claim). */
export const CLIENT_IP_HEADER = 'x-signals-client-ip';

/** Magic links live 10 minutes and work once. */
export const MAGIC_LINK_SECONDS = 10 * 60;
export const MIN_PASSWORD_LENGTH = 10;

/** Stripe billing: the client (pointed at a fake in tests), the webhook secret and Pro's two prices. */
export interface StripeSettings {
  client: Stripe;
  webhookSecret: string;
  priceMonthly: string | null;
  priceAnnual: string | null;
}

export interface AuthSettings {
  database: AppDatabase;
  /** SITE_URL: Better Auth's baseURL and its trusted origin. */
  siteUrl: string;
  siteName: string;
  secret: string;
  /** Sign-in links, confirmations and resets leave off the request path through it. */
  mail: BackgroundMail;
  /** Rate limits on sign-in, sign-up and mail: on in production, and in the tests that check them. */
  rateLimit: boolean;
  /** Where the limits count (REDIS_URL: shared by every process, ./rate-limit.ts); absent: this process's memory. */
  rateLimitStore?: BetterAuthRateLimitStorage;
  stripe: StripeSettings | null;
  /** Extra trusted origins (tests that reach the server on a loopback port besides SITE_URL). */
  trustedOrigins?: string[];
}

/** The Better Auth options for these settings (the handler and the migrations use the same). */
export function authOptions(settings: AuthSettings) {
  const origin = new URL(settings.siteUrl).origin;
  const secure = origin.startsWith('https://');
  const { mail, siteName } = settings;
  const { db } = settings.database;
  // Mail leaves off the request path: sign-up and reset answer alike, and as fast, for addresses with and without an account.
  const send = mail.send.bind(mail);
  const plugins = [
    magicLink({
      expiresIn: MAGIC_LINK_SECONDS,
      async sendMagicLink({ email, url }) {
        send({
          to: email,
          subject: `Your ${siteName} sign-in link`,
          text: `Sign in to ${siteName} with this link. It works once, within 10 minutes:\n\n${url}\n\nIf you did not ask for it, ignore this message.`,
          link: url,
        });
      },
    }),
    ...(settings.stripe === null ? [] : [stripeBilling(settings.stripe)]),
  ];
  return {
    appName: siteName,
    baseURL: origin,
    basePath: '/api/auth',
    secret: settings.secret,
    database: { db: settings.database.db, type: settings.database.type },
    telemetry: { enabled: false },
    trustedOrigins: [origin, ...(settings.trustedOrigins ?? [])],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      // The mailbox's owner took the account back: tokens and grants made before the address was proven go too.
      async onPasswordReset({ user }) {
        await revokeUnprovenWork(db, user.id);
      },
      // Sign-up never signs in: Better Auth then answers an address that has an account exactly as a new one (same
      // status and body, the password hashed on both paths) and calls onExistingUserSignUp instead of saying so.
      autoSignIn: false,
      async onExistingUserSignUp({ user }) {
        send({
          to: user.email,
          subject: `Someone tried to sign up to ${siteName} with your address`,
          text: `Someone, perhaps you, tried to create a ${siteName} account with this address, which already has one. Nothing was changed.\n\nTo get in, sign in with your password or with an emailed link, or reset a forgotten password, here:\n\n${origin}/login\n\nIf it was not you, ignore this message.`,
          link: `${origin}/login`,
        });
      },
      async sendResetPassword({ user, url }) {
        send({
          to: user.email,
          subject: `Reset your ${siteName} password`,
          text: `Choose a new password for ${siteName} with this link (it works once, within an hour):\n\n${url}\n\nIf you did not ask for it, ignore this message.`,
          link: url,
        });
      },
    },
    // A confirmed address keeps its password: Better Auth drops a password set before the address was proven when
    // the first proof is an emailed sign-in link (its guard against an account made in someone else's name).
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      async sendVerificationEmail({ user, url }) {
        send({
          to: user.email,
          subject: `Confirm your email for ${siteName}`,
          text: `Confirm that this address is yours with this link (it works within 24 hours):\n\n${url}\n\nConfirming keeps your password when you later sign in with an emailed link. If you did not sign up, ignore this message.`,
          link: url,
        });
      },
    },
    user: { deleteUser: { enabled: true }, changeEmail: { enabled: false } },
    // The moment an address is proven (confirmation link, or the emailed sign-in link that confirms it) is recorded,
    // and what the account made before it is revoked (storage/email-proof.ts).
    databaseHooks: {
      user: {
        create: {
          async after(user) {
            if (user.emailVerified) await recordEmailProof(db, user.id);
          },
        },
        update: {
          async after(user) {
            if (user?.emailVerified) await recordEmailProof(db, user.id);
          },
        },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, freshAge: 60 * 10 },
    rateLimit: {
      enabled: settings.rateLimit,
      storage: 'memory',
      ...(settings.rateLimitStore ? { customStorage: settings.rateLimitStore } : {}),
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 5 },
        '/sign-up/email': { window: 60, max: 5 },
        '/sign-in/magic-link': { window: 60, max: 3 },
        '/request-password-reset': { window: 60, max: 3 },
        '/forget-password': { window: 60, max: 3 },
      },
    },
    advanced: {
      // Explicit, so the checks hold under NODE_ENV=test too (Better Auth skips them there by default).
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // migrate() has just brought the schema up to date.
      database: { validateSchema: false },
    },
    plugins,
  } satisfies BetterAuthOptions;
}

function stripeBilling(settings: StripeSettings) {
  const plans = [
    {
      name: 'pro',
      priceId: settings.priceMonthly ?? undefined,
      annualDiscountPriceId: settings.priceAnnual ?? undefined,
    },
  ];
  return stripePlugin({
    stripeClient: settings.client,
    stripeWebhookSecret: settings.webhookSecret,
    // The customer is made at the first upgrade: made at sign-up, its Stripe calls would make a new address's sign-up
    // slower than a known one's.
    createCustomerOnSignUp: false,
    subscription: { enabled: true, plans },
  });
}

export type AuthOptions = ReturnType<typeof authOptions>;

/** The Better Auth instance for these settings. */
export function createAuth(settings: AuthSettings) {
  return betterAuth(authOptions(settings));
}

export type Auth = ReturnType<typeof createAuth>;

/** Better Auth's migrations (plugins included, same options), then ours: run at start-up, idempotent. */
export async function migrate(settings: AuthSettings): Promise<void> {
  const { runMigrations } = await getMigrations(authOptions(settings));
  await runMigrations();
  await migrateOwnTables(settings.database.db);
}
