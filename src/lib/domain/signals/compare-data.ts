/**
 * What /compare reads of each stock's track record: apart from ./compare, which the list pages' scripts import
 * without zod.
 */
import { z } from '../zod';
import { summarize, type LedgerRow } from '../track-record/track-record';

/** The part of /api/track-record/{T} the comparison reads: the ticker's ledger rows with their outcomes. */
export const TickerTrackFileSchema = z.object({
  ticker: z.string(),
  ledger: z.array(
    z.object({
      ticker: z.string(),
      date: z.string(),
      direction: z.enum(['bullish', 'bearish']),
      cScore: z.number(),
      entryClose: z.number().nullable(),
      exitDate: z.string().nullable(),
      // Absent from a row the published ledger has not closed yet.
      exitReturn: z.number().nullish().transform((value) => value ?? null),
      outcomes: z.array(
        z.object({
          horizon: z.union([z.literal(5), z.literal(30), z.literal(90)]),
          status: z.enum(['closed', 'open', 'stopped', 'no-price']),
          date: z.string().nullable(),
          close: z.number().nullable(),
          priceReturn: z.number().nullable(),
          signalReturn: z.number().nullable(),
          hit: z.boolean().nullable(),
          benchmarkReturn: z.number().nullable(),
          excessReturn: z.number().nullable(),
        }),
      ),
    }),
  ),
});

/** The horizon whose hit rate the comparison shows, in trading days. */
export const COMPARE_HIT_HORIZON = 30;

/** A ledger's hit rate at COMPARE_HIT_HORIZON and how many resolved signals it rests on. */
export function compareHitRate(ledger: readonly LedgerRow[]): { hitRate: number | null; resolved: number } {
  const h = summarize(ledger).find((s) => s.horizon === COMPARE_HIT_HORIZON)!;
  return { hitRate: h.hitRate, resolved: h.resolved };
}
