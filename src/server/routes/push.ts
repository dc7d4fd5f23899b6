/**
 * /api/push: Web Push. GET /public-key answers the application server key (base64url) the browser subscribes
 * with; POST /subscriptions stores the browser's PushSubscription JSON for the signed-in user, DELETE removes it by
 * endpoint. Both pass the origin check; in production an endpoint must be https and resolve to public addresses only.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { MAX_ENDPOINT_LENGTH, MAX_PUSH_SUBSCRIPTIONS } from '../../lib/domain/alerts/push';
import { PushStore } from '../../storage/push';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { endpointProblem } from '../push';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const KEY = (bytes: number) => z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'expected base64url').refine((value) => Buffer.from(value, 'base64url').length === bytes, `expected ${bytes} bytes in base64url`);
const Subscription = z.object({
  endpoint: z.string().max(MAX_ENDPOINT_LENGTH, `at most ${MAX_ENDPOINT_LENGTH} characters`),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: KEY(65), auth: KEY(16) }),
});
const Endpoint = z.object({ endpoint: z.string().max(MAX_ENDPOINT_LENGTH, `at most ${MAX_ENDPOINT_LENGTH} characters`) });
const EXAMPLE = '{"endpoint": "https://push.example/...", "keys": {"p256dh": "...", "auth": "..."}} (PushSubscription.toJSON())';

/** Whether push is on (its public key) and whether endpoints get production's rule. */
export interface PushRouteOptions {
  publicKey: string | null;
  production: boolean;
}

/** Mounted at /api/push. */
export function pushRoutes(context: ApiContext, options: PushRouteOptions) {
  const { accounts } = context;
  const store = new PushStore(accounts.database.db, context.now);
  const requirePush = () => {
    if (options.publicKey === null) throw refusal(503, 'Push notifications are off on this server: the operator sets VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.');
  };
  return new Hono<SessionEnv>()
    .get('/public-key', (c) => {
      requirePush();
      return c.json({ publicKey: options.publicKey! }, 200, { 'Cache-Control': 'public, max-age=300' });
    })
    .use('/subscriptions', trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .post('/subscriptions', validate('json', Subscription, EXAMPLE), async (c) => {
      requirePush();
      const body = c.req.valid('json');
      const problem = await endpointProblem(body.endpoint, options.production);
      if (problem !== null) return c.json({ error: problem, field: 'endpoint' }, 400, NO_STORE);
      const saved = await store.save(c.var.user!.id, { endpoint: body.endpoint, keys: { p256dh: body.keys.p256dh, auth: body.keys.auth } });
      if (saved === 'limit') throw refusal(400, `An account keeps at most ${MAX_PUSH_SUBSCRIPTIONS} push subscriptions: turn push off on a device you no longer use.`);
      return c.json({ subscribed: true, endpoint: body.endpoint }, saved === 'added' ? 201 : 200, NO_STORE);
    })
    .delete('/subscriptions', validate('json', Endpoint, '{"endpoint": "https://push.example/..."}'), async (c) => {
      const removed = await store.remove(c.var.user!.id, c.req.valid('json').endpoint);
      if (!removed) throw refusal(404, 'This account has no push subscription at that endpoint.');
      return c.json({ subscribed: false }, 200, NO_STORE);
    });
}
