/**
 * /api/watchlist (signed in): the account's watched tickers. GET reads, PUT replaces, POST /merge adds a browser's
 * local list to the stored one (the union, as on first sign-in). Tickers are upper-cased and checked; at most 200.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { cleanTickers, MAX_WATCHLIST } from '../../lib/domain/alerts/watchlist';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/db';
import { nowText } from '../../storage/db';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
const Body = z.object({ tickers: z.array(z.string().max(20, 'at most 20 characters')).max(MAX_WATCHLIST * 5, `at most ${MAX_WATCHLIST * 5} entries`) });
const EXAMPLE = '{"tickers": ["AAPL", "MSFT"]}';

/** The account's watchlist, upper-case tickers in the order they were added. */
export async function storedWatchlist(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('watchlist').select('ticker').where('user_id', '=', userId).orderBy('added_at').orderBy('ticker').execute();
  return rows.map((row) => row.ticker);
}

function checked(values: string[]): string[] {
  const clean = cleanTickers(values);
  if ('problem' in clean) throw refusal(400, clean.problem);
  return clean.tickers;
}

/** Writes `tickers` as the whole list, keeping when each already-watched one was added. */
async function replace(db: Kysely<Database>, userId: string, tickers: string[], now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const keep = new Set(tickers);
    const before = await storedWatchlist(trx, userId);
    const gone = before.filter((ticker) => !keep.has(ticker));
    if (gone.length > 0) await trx.deleteFrom('watchlist').where('user_id', '=', userId).where('ticker', 'in', gone).execute();
    const had = new Set(before);
    const added = tickers.filter((ticker) => !had.has(ticker));
    // Same time for a batch; the order within it is the ticker order, which GET's secondary sort keeps.
    if (added.length > 0) await trx.insertInto('watchlist').values(added.map((ticker) => ({ user_id: userId, ticker, added_at: nowText(now) }))).execute();
  });
}

/** Mounted at /api/watchlist. */
export function watchlistRoutes(context: ApiContext) {
  const { accounts } = context;
  const { db } = accounts.database;
  return new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/', async (c) => c.json({ tickers: await storedWatchlist(db, c.var.user!.id) }, 200, NO_STORE))
    .put('/', validate('json', Body, EXAMPLE), async (c) => {
      const user = c.var.user!;
      await replace(db, user.id, checked(c.req.valid('json').tickers), context.now());
      return c.json({ tickers: await storedWatchlist(db, user.id) }, 200, NO_STORE);
    })
    .post('/merge', validate('json', Body, EXAMPLE), async (c) => {
      const user = c.var.user!;
      const incoming = checked(c.req.valid('json').tickers);
      const union = checked([...(await storedWatchlist(db, user.id)), ...incoming]);
      await replace(db, user.id, union, context.now());
      return c.json({ tickers: await storedWatchlist(db, user.id) }, 200, NO_STORE);
    });
}
