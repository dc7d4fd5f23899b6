/**
 * The ledger's shapes: a recorded entry, a measured row and the per-ticker ledger file (/api/track-record/{T}). One
 * schema for the track record, its writer and the browser code that reads the file (/compare, the permalinks'
 * not-found screen). It imports zod only, never the CSV writer: browser code may import it.
 */
import { z } from '../zod';
import { TRACK_HORIZONS, type LedgerRow } from './track-record';

/** A date as yyyy-mm-dd. */
export const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as yyyy-mm-dd');

/** The supporting scores of the report an entry qualified on. */
export const SupportingScoresSchema = z.object({ delta: z.number(), market: z.number(), accuracy: z.number(), relevance: z.number() });

/** A recorded ledger entry (what the report history says, kept once recorded). */
export const LedgerEntrySchema = z.object({
  ticker: z.string(),
  date: IsoDay,
  direction: z.enum(['bullish', 'bearish']),
  cScore: z.number(),
  exitDate: IsoDay.nullable(),
  scores: SupportingScoresSchema.nullable().optional(),
});

/** One horizon's outcome of a measured row: every figure present, null when it has none. */
export const HorizonOutcomeSchema = z.object({
  horizon: z.literal(TRACK_HORIZONS),
  status: z.enum(['closed', 'open', 'stopped', 'no-price']),
  date: IsoDay.nullable(),
  close: z.number().nullable(),
  priceReturn: z.number().nullable(),
  signalReturn: z.number().nullable(),
  hit: z.boolean().nullable(),
  benchmarkReturn: z.number().nullable(),
  excessReturn: z.number().nullable(),
});

/** A measured ledger row as the per-ticker file carries it: an open row's exit date and exit return are null, never absent. */
export const LedgerRowSchema = LedgerEntrySchema.extend({
  entryClose: z.number().nullable(),
  outcomes: z.array(HorizonOutcomeSchema),
  exitReturn: z.number().nullable(),
});
export type PublishedLedgerRow = z.infer<typeof LedgerRowSchema>;

/** /api/track-record/{T}: the ticker and its ledger, newest first (the file's other fields pass unread). */
export const TickerTrackFileSchema = z.object({ ticker: z.string(), ledger: z.array(LedgerRowSchema) });

/**
 * A row as the writer publishes it: every field of LedgerRowSchema, the nullable ones null when the row has none (a
 * row measured by an older build may lack its exit return). Written field by field: parsing 130,000 rows would cost
 * seconds of the daily job.
 */
export function publishedLedgerRow(row: LedgerRow): PublishedLedgerRow {
  return {
    ticker: row.ticker,
    date: row.date,
    direction: row.direction,
    cScore: row.cScore,
    exitDate: row.exitDate ?? null,
    ...(row.scores === undefined ? {} : { scores: row.scores }),
    entryClose: row.entryClose ?? null,
    outcomes: row.outcomes.map((o) => ({
      horizon: o.horizon,
      status: o.status,
      date: o.date ?? null,
      close: o.close ?? null,
      priceReturn: o.priceReturn ?? null,
      signalReturn: o.signalReturn ?? null,
      hit: o.hit ?? null,
      benchmarkReturn: o.benchmarkReturn ?? null,
      excessReturn: o.excessReturn ?? null,
    })),
    exitReturn: row.exitReturn ?? null,
  };
}
