/**
 * /api/screens (signed in): the account's saved screens. GET lists them with the plan's limit, POST saves one,
 * PATCH /:id renames it or turns its alert on or off, DELETE /:id deletes it. With PAYWALL=on a Free account keeps
 * 1 and a Pro account 50 (lib/domain/signals/saved-screens.ts); the server enforces it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { checkScreenName, checkScreenQuery, savedScreenLimit, screenMembers } from '../../lib/domain/signals/saved-screens';
import { screenRows, type ScreenRow } from '../../lib/domain/signals/screener';
import type { SiteIndex } from '../../storage/site-index';
import { SavedScreenStore, screenRowsFor } from '../../storage/saved-screens';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const Create = z.object({ name: z.string().max(500), query: z.string().max(5000), alert: z.boolean().optional() });
const Change = z.object({ name: z.string().max(500).optional(), alert: z.boolean().optional() });
const CREATE_EXAMPLE = '{"name": "Strong bulls", "query": "cscore=80..&signal=bullish", "alert": true}';
const CHANGE_EXAMPLE = '{"name": "Strong bulls"} or {"alert": false}';

const rowsOf = new WeakMap<SiteIndex, ScreenRow[]>();
/** The screen rows of a published report, computed once per build. */
export function siteScreenRows(site: SiteIndex): ScreenRow[] {
  let rows = rowsOf.get(site);
  if (rows === undefined) rowsOf.set(site, (rows = screenRows(site.history, Object.fromEntries(site.fundamentals))));
  return rows;
}

function checked<T>(result: T | { problem: string }): T {
  if (typeof result === 'object' && result !== null && 'problem' in result) throw refusal(400, result.problem);
  return result as T;
}

/** Mounted at /api/screens. */
export function screenRoutes(context: ApiContext) {
  const { accounts } = context;
  const store = new SavedScreenStore(accounts.database.db, context.now);
  const limitOf = (isPremium: boolean) => savedScreenLimit({ paywall: accounts.paywall, isPro: isPremium });
  return new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/', async (c) => {
      const user = c.var.user!;
      return c.json({ screens: await store.list(user.id), limit: limitOf(user.isPremium) }, 200, NO_STORE);
    })
    .post('/', validate('json', Create, CREATE_EXAMPLE), async (c) => {
      const user = c.var.user!;
      const body = c.req.valid('json');
      const { name } = checked(checkScreenName(body.name));
      const { query } = checked(checkScreenQuery(body.query));
      const limit = limitOf(user.isPremium);
      if ((await store.count(user.id)) >= limit) {
        throw refusal(403, limit === 1 ? 'screens: a Free account keeps 1 saved screen; delete it or upgrade to Pro to keep up to 50' : `screens: at most ${limit} saved screens; delete one first`);
      }
      // The stocks it holds now: only later entries alert.
      const site = await context.site.current().catch(() => null);
      let members = null;
      if (site !== null) {
        const rows = screenRowsFor(siteScreenRows(site), site.history.latest);
        const watched = new Set((await accounts.database.db.selectFrom('watchlist').select('ticker').where('user_id', '=', user.id).execute()).map((r) => r.ticker));
        members = { tickers: screenMembers(accounts.paywall && !user.isPremium ? rows.free : rows.all, query, watched), reportDate: site.reportDate };
      }
      const saved = await store.create(user.id, { name, query, alert: body.alert ?? true }, members);
      return c.json(saved, 201, NO_STORE);
    })
    .patch('/:id', validate('json', Change, CHANGE_EXAMPLE), async (c) => {
      const body = c.req.valid('json');
      if (body.name === undefined && body.alert === undefined) throw refusal(400, 'name: send a new name, or alert: true or false');
      const name = body.name === undefined ? undefined : checked(checkScreenName(body.name)).name;
      const saved = await store.update(c.var.user!.id, c.req.param('id'), { name, alert: body.alert });
      if (saved === null) throw refusal(404, 'id: no saved screen of this account has this id');
      return c.json(saved, 200, NO_STORE);
    })
    .delete('/:id', async (c) => {
      if (!(await store.remove(c.var.user!.id, c.req.param('id')))) throw refusal(404, 'id: no saved screen of this account has this id');
      return c.body(null, 204, NO_STORE);
    });
}
