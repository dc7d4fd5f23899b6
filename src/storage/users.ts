/** The operators' view of the accounts (/admin "Users"): counts, and one user found by email with their plan. */
import { type Kysely, sql } from 'kysely';
import { RECENT_SIGN_IN_DAYS, type UserCounts, type UserOverview } from '../lib/domain/operator/operator';
import { asDate, type Database } from './db';

const DAY_MS = 24 * 60 * 60 * 1000;

async function subscribedIds(db: Kysely<Database>, stripe: boolean): Promise<Set<string>> {
  if (!stripe) return new Set();
  const rows = await db.selectFrom('subscription').select('referenceId').where('status', 'in', ['active', 'trialing']).execute();
  return new Set(rows.map((r) => r.referenceId));
}

/** Total users, users with Pro (a grant or, with Stripe, a live subscription), and users signed in within 7 days. */
export async function userCounts(db: Kysely<Database>, stripe: boolean, now = Date.now()): Promise<UserCounts> {
  const total = await db.selectFrom('user').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const pro = new Set((await db.selectFrom('plan_grant').select('user_id').execute()).map((r) => r.user_id));
  for (const id of await subscribedIds(db, stripe)) pro.add(id);
  // Dates are stored differently by the two databases (Better Auth's text or milliseconds on SQLite): compared here.
  const since = now - RECENT_SIGN_IN_DAYS * DAY_MS;
  const sessions = await db.selectFrom('session').select(['userId', 'createdAt']).execute();
  const recent = new Set(sessions.filter((s) => (asDate(s.createdAt)?.getTime() ?? 0) >= since).map((s) => s.userId));
  return { total: Number(total.n), pro: pro.size, signedInLately: recent.size };
}

/** The user with this email (any case), or null. */
export async function findUser(db: Kysely<Database>, email: string, stripe: boolean): Promise<UserOverview | null> {
  const user = await db.selectFrom('user').select(['id', 'email', 'name', 'createdAt']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (user === undefined) return null;
  const grant = await db.selectFrom('plan_grant').select('user_id').where('user_id', '=', user.id).executeTakeFirst();
  const subscribed =
    stripe && (await db.selectFrom('subscription').select('id').where('referenceId', '=', user.id).where('status', 'in', ['active', 'trialing']).executeTakeFirst()) !== undefined;
  const sessions = await db.selectFrom('session').select('createdAt').where('userId', '=', user.id).execute();
  const last = sessions.map((s) => asDate(s.createdAt)).filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  return {
    email: user.email,
    name: user.name,
    createdAt: asDate(user.createdAt)?.toISOString() ?? null,
    plan: grant !== undefined || subscribed ? 'pro' : 'free',
    grantedPro: grant !== undefined,
    subscribed,
    lastSignInAt: last?.toISOString() ?? null,
  };
}
