/**
 * Fundamentals and earnings dates, fetched in bulk once a day by the daily job (ratios and the earnings calendar
 * of the market-data API, `ticker.any_of` batches) and kept with their as-of dates in FUNDAMENTALS_FILE; the build
 * copies them into its site data and the live routes serve them.
 */
import { z } from '../zod';
import type { Earnings, Quote } from './market';

/** Tickers per `ticker.any_of` call: about 600 characters of query, well inside any URL limit. */
export const FUNDAMENTALS_BATCH = 100;
/** How far back the earnings calendar is asked, so the last report is found besides the next. */
export const EARNINGS_LOOKBACK_DAYS = 120;

/** One ratios row as the API's `/stocks/financials/v1/ratios` sends it (the fields we keep). */
export const RatiosRowSchema = z.object({
  ticker: z.string(),
  date: z.string().nullish(),
  price_to_earnings: z.number().nullish(),
  earnings_per_share: z.number().nullish(),
  dividend_yield: z.number().nullish(),
  market_cap: z.number().nullish(),
});
export type RatiosRow = z.infer<typeof RatiosRowSchema>;

/** One earnings-calendar row as `/benzinga/v1/earnings` sends it (the fields we keep). */
export const EarningsRowSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  date_status: z.string().nullish(),
  actual_eps: z.number().nullish(),
  estimated_eps: z.number().nullish(),
});
export type EarningsRow = z.infer<typeof EarningsRowSchema>;

/** Where the daily job gets fundamentals: every row for a batch of tickers, page by page (each next_url followed). */
export interface FundamentalsSource {
  ratios(tickers: readonly string[]): AsyncIterable<RatiosRow[]>;
  /** Earnings events dated `from` (yyyy-mm-dd) or later. */
  earningsCalendar(tickers: readonly string[], from: string): AsyncIterable<EarningsRow[]>;
}

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** What is stored about one ticker: each figure only when the API had it, and the days it was fetched and dated. */
export const StoredFundamentalsSchema = z.object({
  /** The day the ratios were last asked for (the daily job's resume mark). */
  ratiosFetchedOn: IsoDay.optional(),
  /** The day the earnings calendar was last asked for. */
  earningsFetchedOn: IsoDay.optional(),
  /** The date the ratios were calculated for (the API's `date`). */
  ratiosAsOf: IsoDay.optional(),
  trailingPE: z.number().optional(),
  eps: z.number().optional(),
  /** A fraction: 0.0044 is 0.44%. */
  dividendYield: z.number().optional(),
  marketCap: z.number().optional(),
  nextEarningsDate: IsoDay.optional(),
  lastEarningsDate: IsoDay.optional(),
  lastActualEps: z.number().optional(),
});
export type StoredFundamentals = z.infer<typeof StoredFundamentalsSchema>;

/** The FUNDAMENTALS_FILE store. */
export const FundamentalsStoreSchema = z.object({
  version: z.literal(1),
  tickers: z.record(z.string(), StoredFundamentalsSchema),
});
export type FundamentalsStore = z.infer<typeof FundamentalsStoreSchema>;

/** A finite number, else undefined; `positive` drops zero and negatives (the API sends 0 for a figure it lacks). */
function finite(value: number | null | undefined, positive = false): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return positive && value <= 0 ? undefined : value;
}

/** The figures of a ratios row (the latest row of a ticker wins); absent figures stay absent. */
export function fromRatios(row: RatiosRow): Pick<StoredFundamentals, 'ratiosAsOf' | 'trailingPE' | 'eps' | 'dividendYield' | 'marketCap'> {
  const asOf = row.date ? IsoDay.safeParse(row.date.slice(0, 10)) : undefined;
  return {
    ratiosAsOf: asOf?.success ? asOf.data : undefined,
    trailingPE: finite(row.price_to_earnings, true),
    eps: finite(row.earnings_per_share),
    dividendYield: finite(row.dividend_yield),
    marketCap: finite(row.market_cap, true),
  };
}

/** The next earnings date (on or after `today`) and the last reported one of a ticker's calendar rows. */
export function fromEarnings(rows: readonly EarningsRow[], today: string): Pick<StoredFundamentals, 'nextEarningsDate' | 'lastEarningsDate' | 'lastActualEps'> {
  const dated = rows.filter((row) => IsoDay.safeParse(row.date).success).sort((a, b) => a.date.localeCompare(b.date));
  const next = dated.find((row) => row.date >= today);
  const last = dated.filter((row) => row.date < today).at(-1);
  return { nextEarningsDate: next?.date, lastEarningsDate: last?.date, lastActualEps: finite(last?.actual_eps) };
}

/** Drops absent fields, so a stored or served object has no `undefined` holes. */
export function withoutAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** `ticker.any_of` batches of `size` tickers. */
export function batchesOf(tickers: readonly string[], size = FUNDAMENTALS_BATCH): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < tickers.length; i += size) batches.push(tickers.slice(i, i + size));
  return batches;
}

/** The stored figures added to a live quote where the quote lacks them (beta stays absent: no source has it). */
export function quoteWithFundamentals(quote: Quote, stored: StoredFundamentals | undefined): Quote {
  if (stored === undefined) return quote;
  return withoutAbsent({
    ...quote,
    marketCap: quote.marketCap ?? stored.marketCap,
    trailingPE: quote.trailingPE ?? stored.trailingPE,
    eps: quote.eps ?? stored.eps,
    dividendYield: quote.dividendYield ?? stored.dividendYield,
  });
}

/** The earnings answer (spec section 3) from the stored calendar: available when a next date is known. */
export function earningsFromStore(stored: StoredFundamentals | undefined): Earnings | null {
  const next = stored?.nextEarningsDate;
  if (next === undefined) return null;
  return { earningsAvailable: true, earningsDate: next, nextEarningsDate: next };
}

/** yyyy-mm-dd of `days` before an ISO day. */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
