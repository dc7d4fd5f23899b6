/**
 * When each account's email was proven: by the confirmation link, or by an emailed sign-in link (which confirms too).
 * Anyone can sign up with someone else's address, so what an account made before its proof (API tokens, Pro grants
 * it gave as an operator) is not the owner's: it is revoked at the proof, and when a password reset takes the
 * account back. Better Auth's hooks call these (src/server/auth/index.ts).
 */
import type { Kysely } from 'kysely';
import { type Database, nowText } from './db';

/** What a revocation took back. */
export interface Revoked {
  tokens: number;
  grants: number;
}

/** Records the first proof of the user's email (a later call changes nothing) and revokes what was made before it. */
export async function recordEmailProof(db: Kysely<Database>, userId: string, now = Date.now()): Promise<Revoked> {
  const provenAt = nowText(now);
  const inserted = await db.insertInto('email_proof').values({ user_id: userId, proven_at: provenAt }).onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { tokens: 0, grants: 0 };
  return revokeMadeBefore(db, userId, provenAt, provenAt);
}

/** A password reset took the account back: whatever it made before its email was proven (all of it, if never) is revoked. */
export async function revokeUnprovenWork(db: Kysely<Database>, userId: string, now = Date.now()): Promise<Revoked> {
  const proof = await db.selectFrom('email_proof').select('proven_at').where('user_id', '=', userId).executeTakeFirst();
  return revokeMadeBefore(db, userId, proof?.proven_at ?? nowText(now + 1), nowText(now));
}

async function revokeMadeBefore(db: Kysely<Database>, userId: string, before: string, revokedAt: string): Promise<Revoked> {
  const tokens = await db
    .updateTable('api_token')
    .set({ revoked_at: revokedAt })
    .where('created_by_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('created_at', '<', before)
    .executeTakeFirst();
  const grants = await db.deleteFrom('plan_grant').where('granted_by', '=', userId).where('granted_at', '<', before).executeTakeFirst();
  return { tokens: Number(tokens.numUpdatedRows), grants: Number(grants.numDeletedRows) };
}
