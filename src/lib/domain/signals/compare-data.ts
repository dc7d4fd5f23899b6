/**
 * What /compare reads of each stock's track record: apart from ./compare, which the list pages' scripts import
 * without zod.
 */
import { summarize, type LedgerRow } from '../track-record/track-record';

/** The horizon whose hit rate the comparison shows, in trading days. */
export const COMPARE_HIT_HORIZON = 30;

/** A ledger's hit rate at COMPARE_HIT_HORIZON and how many resolved signals it rests on. */
export function compareHitRate(ledger: readonly LedgerRow[]): { hitRate: number | null; resolved: number } {
  const h = summarize(ledger).find((s) => s.horizon === COMPARE_HIT_HORIZON)!;
  return { hitRate: h.hitRate, resolved: h.resolved };
}
