/** Operator grants of Pro (`npm run admin -- grant-pro EMAIL | revoke-pro EMAIL`), beside any Stripe subscription. */
import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { type Database, nowText } from './db';

export type GrantOutcome = 'granted' | 'already-granted' | 'revoked' | 'not-granted' | 'unknown-email';

/** What each outcome tells the operator (`npm run admin` and /admin say the same). */
export const GRANT_MESSAGES: Record<GrantOutcome, (email: string) => string> = {
  granted: (email) => `${email} now has Pro (granted by an operator).`,
  'already-granted': (email) => `${email} already had Pro granted: nothing changed.`,
  revoked: (email) => `The Pro grant of ${email} is revoked (a Stripe subscription, if any, still counts).`,
  'not-granted': (email) => `${email} had no Pro grant: nothing changed.`,
  'unknown-email': (email) => `No account has the email ${email}: the person must sign up first (check the spelling).`,
};

async function userIdOf(db: Kysely<Database>, email: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

/** `grantedBy`: the operator's user id (null from the shell), so a grant made by an unproven account can be revoked. */
export async function grantPro(db: Kysely<Database>, email: string, now = Date.now(), grantedBy: string | null = null): Promise<GrantOutcome> {
  const id = await userIdOf(db, email);
  if (id === null) return 'unknown-email';
  const existing = await db.selectFrom('plan_grant').select('user_id').where('user_id', '=', id).executeTakeFirst();
  if (existing !== undefined) return 'already-granted';
  await db.insertInto('plan_grant').values({ user_id: id, plan: 'pro', granted_at: nowText(now), granted_by: grantedBy }).execute();
  return 'granted';
}

export async function revokePro(db: Kysely<Database>, email: string): Promise<GrantOutcome> {
  const id = await userIdOf(db, email);
  if (id === null) return 'unknown-email';
  const result = await db.deleteFrom('plan_grant').where('user_id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0 ? 'revoked' : 'not-granted';
}

/**
 * SQL that is true when the user whose id is `userId` has Pro: an operator's grant, or a live Stripe subscription
 * (its table exists only with Stripe), for statements that decide by plan inside the database.
 */
export async function hasPro(db: Kysely<Database>, userId: Expression<unknown>): Promise<RawBuilder<boolean>> {
  const granted = sql<boolean>`exists (select 1 from plan_grant g where g.user_id = ${userId})`;
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === 'subscription')) return granted;
  return sql<boolean>`(${granted} or exists (select 1 from ${sql.table('subscription')} s where s.${sql.ref('referenceId')} = ${userId} and s.status in ('active', 'trialing')))`;
}
