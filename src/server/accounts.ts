/**
 * Everything the account layer needs, opened once per process: the database (migrated), Better Auth, the mailer
 * and the session reader. `openAccounts` is what `apiOptions(config)` and the tests call.
 */
import Stripe from 'stripe';
import type { Config } from '../config';
import { listenOrigins } from '../lib/domain/accounts/trusted-origins';
import { type AppDatabase, checkDatabase, openDatabase } from '../storage/db';
import { type Auth, createAuth, DEVELOPMENT_SECRET, migrate, type AuthSettings, type StripeSettings } from './auth';
import { SessionReader } from './auth/session';
import { BackgroundMail, createMailer, type Mailer } from './mail';

export interface AccountSettings {
  /** DATABASE_URL (PostgreSQL) or the SQLite file. */
  database: { url: string | null; file: string };
  siteUrl: string;
  siteName: string;
  /** BETTER_AUTH_SECRET, or null outside production (the development secret is used). */
  secret: string | null;
  /** SMTP settings, or a ready mailer (tests). */
  mail: { smtpUrl: string | null; from: string } | Mailer;
  adminEmails: readonly string[];
  paywall: boolean;
  rateLimit: boolean;
  /** Where the sign-in limits count: Redis when REDIS_URL is set (shared by every process), else memory. */
  rateLimitStore?: AuthSettings['rateLimitStore'];
  stripe: StripeSettings | null;
  trustedOrigins?: string[];
  log?: (line: string) => void;
}

/** The open account layer. */
export interface Accounts {
  database: AppDatabase;
  auth: Auth;
  session: SessionReader;
  mailer: Mailer;
  adminEmails: readonly string[];
  paywall: boolean;
  stripe: StripeSettings | null;
  siteUrl: string;
  close(): Promise<void>;
}

/** The settings of this process's Config. */
export function accountSettings(config: Config): AccountSettings {
  return {
    database: config.database,
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    secret: config.authSecret,
    mail: config.mail,
    adminEmails: config.adminEmails,
    paywall: config.paywall,
    rateLimit: config.production,
    // Outside production the address the server listens on is trusted too, so sign-up works with SITE_URL unset.
    trustedOrigins: config.production ? [] : listenOrigins(config.host, config.port),
    stripe:
      config.stripe === null
        ? null
        : {
            client: stripeClient(config.stripe.secretKey, config.stripe.apiUrl),
            webhookSecret: config.stripe.webhookSecret,
            priceMonthly: config.stripe.priceMonthly,
            priceAnnual: config.stripe.priceAnnual,
          },
  };
}

/**
 * Opens, checks (storage/db.ts checkDatabase: a damaged or unreachable database throws DatabaseCheckError) and migrates
 * the database (Better Auth's tables, then ours), and builds Better Auth and the session reader.
 */
export async function openAccounts(settings: AccountSettings): Promise<Accounts> {
  const database = openDatabase(settings.database);
  const mailer = 'send' in settings.mail ? settings.mail : createMailer(settings.mail, settings.log);
  const secret = settings.secret ?? DEVELOPMENT_SECRET;
  const mail = new BackgroundMail(mailer, settings.log);
  const authSettings: AuthSettings = {
    database,
    siteUrl: settings.siteUrl,
    siteName: settings.siteName,
    secret,
    mail,
    rateLimit: settings.rateLimit,
    rateLimitStore: settings.rateLimitStore,
    stripe: settings.stripe,
    trustedOrigins: settings.trustedOrigins,
  };
  try {
    await checkDatabase(database);
    await migrate(authSettings);
  } catch (error) {
    await database.close();
    throw error;
  }
  const session = new SessionReader({ database, secret, siteUrl: settings.siteUrl, adminEmails: settings.adminEmails, stripe: settings.stripe !== null });
  return {
    database,
    auth: createAuth(authSettings),
    session,
    mailer,
    adminEmails: settings.adminEmails,
    paywall: settings.paywall,
    stripe: settings.stripe,
    siteUrl: settings.siteUrl,
    // Mail still being sent (its rows are already written) goes out before the database closes.
    close: async () => {
      await mail.settled();
      await database.close();
    },
  };
}

/** The Stripe client; `apiUrl` (STRIPE_API_URL) points it elsewhere than api.stripe.com, e.g. at the tests' fake. */
export function stripeClient(secretKey: string, apiUrl: string | null = null): Stripe {
  if (apiUrl === null) return new Stripe(secretKey);
  const url = new URL(apiUrl);
  return new Stripe(secretKey, { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol === 'https:' ? 'https' : 'http' });
}
