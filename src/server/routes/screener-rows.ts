/**
 * The screener's rows for a Pro account with PAYWALL=on: every stock of the published report, in the table's order,
 * with each row's data and its HTML (the static page carries the free slice only). The Pro route sends them to the
 * page script; the server's render of /screener screens them for a Pro session.
 */
import { freeSlice } from '../../lib/domain/accounts/entitlements';
import { listCloseDate, listPriceCell } from '../../lib/domain/signals/list-price';
import { screenerRecords, screenRowsOf, type ScreenRow } from '../../lib/domain/signals/screener';
import { signalRowHtml } from '../../components/screener/signal-row-markup';
import type { SiteIndex } from '../../storage/site-index';
import { siteScreenRows } from './screens';
import type { Accounts } from '../accounts';
import { storedWatchlist } from './watchlist';

export interface ProScreenRows {
  rows: ScreenRow[];
  /** Row HTML by ticker, as components/SignalTable.astro renders a row. */
  html: Map<string, string>;
}

const rowsOf = new WeakMap<SiteIndex, ProScreenRows>();

/** Every stock's screen row and row HTML, made once per published build. */
export function proScreenRows(site: SiteIndex): ProScreenRows {
  let pro = rowsOf.get(site);
  if (pro) return pro;
  const { rows: records } = screenerRecords(site.history, freeSlice(site.history.latest), { paywall: true, isPro: true });
  const closeDate = listCloseDate(records.flatMap((r) => site.prices.get(r.ticker) ?? []));
  const html = new Map(records.map((r) => [r.ticker, signalRowHtml(r, listPriceCell(site.prices.get(r.ticker), site.pricesSource, closeDate))]));
  pro = { rows: screenRowsOf(records, siteScreenRows(site)), html };
  rowsOf.set(site, pro);
  return pro;
}

/** A signed-in viewer of the screener: their plan and, when a screen asks for it, their watchlist. */
export interface ScreenerViewer {
  isPro: boolean;
  watchlist(): Promise<ReadonlySet<string>>;
}

/** Who asks for /screener on `npm start`: with them a Pro session screens every stock and `watched=1` the account's watchlist. */
export interface ScreenerViewers {
  paywall: boolean;
  /** The signed-in viewer of a request's cookie header, or null. */
  lookup(cookie: string | undefined): Promise<ScreenerViewer | null>;
}

/** The screener's viewers of an account layer: the session's plan, and the account's watchlist from the database. */
export function screenerViewers(accounts: Pick<Accounts, 'paywall' | 'session' | 'database'>): ScreenerViewers {
  return {
    paywall: accounts.paywall,
    async lookup(cookie) {
      const user = await accounts.session.lookup(cookie);
      if (user === null) return null;
      return { isPro: user.isPremium, watchlist: async () => new Set(await storedWatchlist(accounts.database.db, user.id)) };
    },
  };
}
