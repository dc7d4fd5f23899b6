/** Operator grants of Pro (`npm run admin -- grant-pro EMAIL | revoke-pro EMAIL`), beside any Stripe subscription. */
import type { Kysely } from 'kysely';
import { type Database, nowText } from './db';

export type GrantOutcome = 'granted' | 'already-granted' | 'revoked' | 'not-granted' | 'unknown-email';

async function userIdOf(db: Kysely<Database>, email: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return row?.id ?? null;
}

export async function grantPro(db: Kysely<Database>, email: string, now = Date.now()): Promise<GrantOutcome> {
  const id = await userIdOf(db, email);
  if (id === null) return 'unknown-email';
  const existing = await db.selectFrom('plan_grant').select('user_id').where('user_id', '=', id).executeTakeFirst();
  if (existing !== undefined) return 'already-granted';
  await db.insertInto('plan_grant').values({ user_id: id, plan: 'pro', granted_at: nowText(now) }).execute();
  return 'granted';
}

export async function revokePro(db: Kysely<Database>, email: string): Promise<GrantOutcome> {
  const id = await userIdOf(db, email);
  if (id === null) return 'unknown-email';
  const result = await db.deleteFrom('plan_grant').where('user_id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0 ? 'revoked' : 'not-granted';
}
