/**
 * /api/alert-rules (signed in): the account's own alert rules. GET lists them with the plan's limit, POST adds one
 * (`{ticker, kind, value}`; a bad one is a 400 naming its field), DELETE /{id} removes one. The limit is the
 * server's: 50, or with PAYWALL=on 5 on Free and 200 on Pro; rules over it (kept after a downgrade) are listed paused.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { alertRuleLimit } from '../../lib/domain/accounts/entitlements';
import { checkRule, type AlertRule, rulePaused, ruleText } from '../../lib/domain/alerts/rules';
import { RuleStore } from '../../storage/alert-rules';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv } from '../auth/session';
import { sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const EXAMPLE = '{"ticker": "AAPL", "kind": "above", "value": 70}';
// Types are checked by checkRule, so a wrong one is answered with its field like any other bad rule.
const Body = z.object({ ticker: z.unknown(), kind: z.unknown(), value: z.unknown() }).strict();
const IdParam = z.object({ id: z.uuid('expected a rule id from GET /api/alert-rules') });

/** A rule as answered: its words, and whether it is paused (over the plan's limit, it does not fire). */
const shown = (rule: AlertRule, paused = false) => ({ ...rule, text: ruleText(rule), paused });

/** Mounted at /api/alert-rules. */
export function alertRuleRoutes(context: ApiContext) {
  const { accounts } = context;
  const store = new RuleStore(accounts.database.db, context.now);
  const limitOf = (isPremium: boolean) => alertRuleLimit({ paywall: accounts.paywall, isPro: isPremium });
  return new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/', async (c) => {
      const rules = await store.list(c.var.user!.id);
      const limit = limitOf(c.var.user!.isPremium);
      return c.json({ rules: rules.map((rule, index) => shown(rule, rulePaused(index, limit))), limit }, 200, NO_STORE);
    })
    .post('/', validate('json', Body, EXAMPLE), async (c) => {
      const user = c.var.user!;
      const site = await context.site.current();
      const checked = checkRule(c.req.valid('json'), { known: (ticker) => site?.records.has(ticker) ?? false, count: await store.count(user.id), limit: limitOf(user.isPremium) });
      if (!('rule' in checked)) return c.json({ error: checked.problem, field: checked.field }, 400, NO_STORE);
      const rule = await store.add(user.id, checked.rule);
      if (rule === null) throw refusal(409, `You have this rule already: ${ruleText(checked.rule)}.`);
      return c.json({ rule: shown(rule), limit: limitOf(user.isPremium) }, 201, NO_STORE);
    })
    .delete('/:id', validate('param', IdParam), async (c) => {
      if (!(await store.remove(c.var.user!.id, c.req.valid('param').id))) throw refusal(404, 'No such rule on this account: list them with GET /api/alert-rules.');
      return c.body(null, 204, NO_STORE);
    });
}
