/**
 * The track record's tables in the accounts database: the closes of every stored trading day (grouped
 * daily bars, one day at a time, so a backfill cut short keeps every finished day) and the recorded ledger.
 */
import type { Kysely } from 'kysely';
import type { DailyClose } from '../lib/domain/track-record/track-data';
import type { LedgerEntry } from '../lib/domain/track-record/track-record';
import { chunks, type Database, nowText } from './db';

/** Bound values per statement stay far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_INSERT = 300;
/** Report days read per query when the closes are loaded: at most about 120,000 rows of 6,000 tickers at a time. */
const DAYS_PER_READ = 20;
/** Up to this many tickers are asked for by name (an IN list); more are filtered from each day's rows. */
const FEW_TICKERS = 500;

/** A stored trading day. */
export interface StoredPriceDay {
  date: string;
  source: string;
  tickers: number;
  /** When the day was stored: a day stored again (its closes replaced) has another. */
  fetchedAt: string;
}

/** Reads and writes the closes and the ledger. */
export class TrackStore {
  constructor(
    readonly db: Kysely<Database>,
    readonly now: () => number = Date.now,
  ) {}

  /** Every stored day (from `source` only, when given), oldest first. */
  async priceDays(source?: string): Promise<StoredPriceDay[]> {
    let query = this.db.selectFrom('price_day').select(['date', 'source', 'tickers', 'fetched_at as fetchedAt']);
    if (source !== undefined) query = query.where('source', '=', source);
    return query.orderBy('date').execute();
  }

  /** Stores one day's closes (replacing what the day held), in one transaction: a day is whole or absent. */
  async saveDay(date: string, source: string, closes: readonly DailyClose[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('price_bar').where('date', '=', date).execute();
      for (const batch of chunks(closes, ROWS_PER_INSERT)) {
        await trx.insertInto('price_bar').values(batch.map((bar) => ({ date, ticker: bar.ticker, close: bar.close }))).execute();
      }
      await trx.deleteFrom('price_day').where('date', '=', date).execute();
      await trx.insertInto('price_day').values({ date, source, tickers: closes.length, fetched_at: nowText(this.now()) }).execute();
    });
  }

  /**
   * The closes of `tickers` (every ticker, when null) on `days` (ascending), one list per ticker aligned with `days`
   * (null: no close that day); a ticker without any close is left out. Read a few weeks at a time and filled straight
   * from the rows: five years of 6,000 tickers are 7.5 million closes, far too many row objects (or maps per ticker) to
   * hold at once.
   */
  async closesOn(days: readonly string[], tickers: ReadonlySet<string> | null): Promise<Record<string, (number | null)[]>> {
    const closes: Record<string, (number | null)[]> = {};
    const dayIndex = new Map(days.map((day, i) => [day, i]));
    for (const run of chunks(days, DAYS_PER_READ)) {
      let query = this.db.selectFrom('price_bar').select(['date', 'ticker', 'close']).where('date', '>=', run[0]!).where('date', '<=', run.at(-1)!);
      // A few tickers (the cache of the daily job lacks them) are picked by the database; many are filtered here.
      if (tickers !== null && tickers.size <= FEW_TICKERS) query = query.where('ticker', 'in', [...tickers]);
      const rows = await query.execute();
      for (const row of rows) {
        const i = dayIndex.get(row.date);
        if (i === undefined || (tickers !== null && !tickers.has(row.ticker))) continue;
        (closes[row.ticker] ??= new Array<number | null>(days.length).fill(null))[i] = Number(row.close);
      }
    }
    return closes;
  }

  /** The recorded ledger, oldest first. */
  async ledger(): Promise<LedgerEntry[]> {
    const rows = await this.db
      .selectFrom('ledger_entry')
      .select(['ticker', 'report_date', 'direction', 'c_score', 'exit_date', 'delta_score', 'market_score', 'accuracy_score', 'relevance_score'])
      .orderBy('report_date')
      .orderBy('ticker')
      .execute();
    return rows.map((row) => ({
      ticker: row.ticker,
      date: row.report_date,
      direction: row.direction === 'bearish' ? 'bearish' : 'bullish',
      cScore: Number(row.c_score),
      exitDate: row.exit_date,
      ...(row.delta_score === null
        ? {}
        : { scores: { delta: Number(row.delta_score), market: Number(row.market_score), accuracy: Number(row.accuracy_score), relevance: Number(row.relevance_score) } }),
    }));
  }

  /** Writes the ledger's changes: new entries, exits filled, and the rows of the re-published dates replaced. */
  async saveLedger(ledger: readonly LedgerEntry[], previous: readonly LedgerEntry[], republished: ReadonlySet<string>): Promise<void> {
    const key = (e: LedgerEntry) => `${e.ticker}|${e.date}`;
    const before = new Map(previous.filter((e) => !republished.has(e.date)).map((e) => [key(e), e]));
    const recordedAt = nowText(this.now());
    await this.db.transaction().execute(async (trx) => {
      for (const date of republished) await trx.deleteFrom('ledger_entry').where('report_date', '=', date).execute();
      const fresh = ledger.filter((e) => !before.has(key(e)));
      for (const batch of chunks(fresh, ROWS_PER_INSERT)) {
        const rows = batch.map((e) => ({
          ticker: e.ticker,
          report_date: e.date,
          direction: e.direction,
          c_score: e.cScore,
          exit_date: e.exitDate,
          recorded_at: recordedAt,
          delta_score: e.scores?.delta ?? null,
          market_score: e.scores?.market ?? null,
          accuracy_score: e.scores?.accuracy ?? null,
          relevance_score: e.scores?.relevance ?? null,
        }));
        await trx.insertInto('ledger_entry').values(rows).execute();
      }
      for (const entry of ledger) {
        const old = before.get(key(entry));
        if (old !== undefined && old.exitDate === null && entry.exitDate !== null) {
          await trx.updateTable('ledger_entry').set({ exit_date: entry.exitDate }).where('ticker', '=', entry.ticker).where('report_date', '=', entry.date).execute();
        }
        // Supporting scores found later in the entry's archived export (an entry recorded without them).
        if (old !== undefined && old.scores == null && entry.scores != null) {
          const s = entry.scores;
          await trx
            .updateTable('ledger_entry')
            .set({ delta_score: s.delta, market_score: s.market, accuracy_score: s.accuracy, relevance_score: s.relevance })
            .where('ticker', '=', entry.ticker)
            .where('report_date', '=', entry.date)
            .execute();
        }
      }
    });
  }
}
