/**
 * /api/account/keys (signed in, trusted origin): the account's API keys. A key is shown once, in the answer that makes
 * it; the list shows only its first characters, its name and today's count; revoking takes effect on the key's next
 * request in every process.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { keyAllowance, MAX_KEYS_PER_ACCOUNT, NewKeySchema } from '../../lib/domain/accounts/api-keys';
import { createApiKey, listApiKeys, revokeApiKey, TooManyKeysError } from '../../storage/api-keys';
import type { KeyedRequests } from '../api-keys';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };

const KeyParams = z.object({ id: z.uuid('expected a key id from GET /api/account/keys') });

/** Mounted at /api/account/keys. */
export function apiKeyRoutes(context: ApiContext, keyed: KeyedRequests) {
  const { accounts } = context;
  const { db } = accounts.database;
  return new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/', async (c) => {
      const user = c.var.user!;
      const keys = await listApiKeys(db, user.id, keyed.countsToday);
      return c.json({ keys, allowance: keyAllowance(user.isPremium, accounts.paywall), maxKeys: MAX_KEYS_PER_ACCOUNT }, 200, NO_STORE);
    })
    .post('/', validate('json', NewKeySchema, '{"label": "my script"}'), async (c) => {
      try {
        const { key, entry } = await createApiKey(db, c.var.user!.id, c.req.valid('json').label, context.now());
        return c.json({ key, entry }, 201, NO_STORE);
      } catch (error) {
        if (error instanceof TooManyKeysError) throw refusal(409, error.message);
        throw error;
      }
    })
    .post('/:id/revoke', validate('param', KeyParams), async (c) => {
      const { id } = c.req.valid('param');
      if (!(await revokeApiKey(db, c.var.user!.id, id, context.now()))) throw refusal(404, `No live key of this account has the id ${id}: take one from GET /api/account/keys.`);
      await keyed.revoked(id);
      return c.json({ revoked: true }, 200, NO_STORE);
    });
}
