/**
 * API tokens for automation: `POST /api/admin/exports` with `Authorization: Bearer TOKEN`. A token is
 * shown once when it is made; only its SHA-256 is stored, so the database alone never lets anyone in. A token acts
 * for its creator: it works only while the creator holds the operator role, and only if it was made after the
 * creator's email was proven (./email-proof.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type ApiTokenEntry, holdsOperatorRole } from '../lib/domain/operator/operator';
import { asBoolean, type Database, nowText } from './db';

/** Every token starts with this, so a leaked one is easy to recognise in a log or a scanner. */
export const API_TOKEN_PREFIX = 'css_';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Makes a token for its creator (an operator); the answer is the only time its text exists outside the caller. */
export async function createApiToken(
  db: Kysely<Database>,
  label: string,
  creator: { id: string; email: string },
  now = Date.now(),
): Promise<{ token: string; entry: ApiTokenEntry }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const entry: ApiTokenEntry = { id: randomUUID(), label, createdBy: creator.email, createdAt: nowText(now), lastUsedAt: null, revokedAt: null };
  await db
    .insertInto('api_token')
    .values({
      id: entry.id,
      token_hash: hashOf(token),
      label,
      created_by: creator.email,
      created_by_id: creator.id,
      created_at: entry.createdAt,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { token, entry };
}

/** Every token, newest first. */
export async function listApiTokens(db: Kysely<Database>): Promise<ApiTokenEntry[]> {
  const rows = await db.selectFrom('api_token').selectAll().orderBy('created_at', 'desc').execute();
  return rows.map((row) => ({ id: row.id, label: row.label, createdBy: row.created_by, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at }));
}

/** Revokes a token; false when there is no such token or it was already revoked. */
export async function revokeApiToken(db: Kysely<Database>, id: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_token').set({ revoked_at: nowText(now) }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The live token with this text (its use recorded), or null for an unknown or revoked one, or one whose creator is
 * gone, no longer an operator (`operators`: ADMIN_EMAILS), or made it before proving the email.
 */
export async function verifyApiToken(db: Kysely<Database>, token: string, operators: ReadonlySet<string>, now = Date.now()): Promise<ApiTokenEntry | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db
    .selectFrom('api_token')
    .innerJoin('user', 'user.id', 'api_token.created_by_id')
    .leftJoin('email_proof', 'email_proof.user_id', 'api_token.created_by_id')
    .selectAll('api_token')
    .select(['user.email as creatorEmail', 'user.emailVerified as creatorVerified', 'email_proof.proven_at as provenAt'])
    .where('api_token.token_hash', '=', hashOf(token))
    .where('api_token.revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) return null;
  const verified = asBoolean(row.creatorVerified);
  const madeAfterProof = row.provenAt !== null && row.created_at >= row.provenAt;
  if (!madeAfterProof || !holdsOperatorRole(row.creatorEmail, verified, operators)) return null;
  const lastUsedAt = nowText(now);
  await db.updateTable('api_token').set({ last_used_at: lastUsedAt }).where('id', '=', row.id).execute();
  return { id: row.id, label: row.label, createdBy: row.created_by, createdAt: row.created_at, lastUsedAt, revokedAt: null };
}
