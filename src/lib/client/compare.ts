/**
 * What /compare fetches for each stock: its record (or that it is locked or unknown), its ledger's hit rate. The
 * files' schemas load beside the first request (dynamic imports), so the page's script evaluates no schema library.
 */
import type { SignalRecord } from '../domain/report/schemas';
import { compareHitRate } from '../domain/signals/compare-data';
import { answer, api } from './api-client';
import { ApiError } from './http';
import { staticJson } from './static-files';

/** A stock of the comparison: its record, locked (a Pro-only top signal for this viewer), or not in the report. */
export type CompareStock = { kind: 'record'; record: SignalRecord } | { kind: 'locked'; companyName: string } | { kind: 'unknown' };

/** GET /api/stock/{T}; a locked top ticker's record from /api/pro when the session is Pro. */
export async function fetchCompareStock(ticker: string): Promise<CompareStock> {
  let file;
  try {
    file = await staticJson(`/api/stock/${encodeURIComponent(ticker)}`, () => import('../domain/site/api-responses').then((m) => m.StockFileSchema));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: 'unknown' };
    throw error;
  }
  const { LockedTickerSchema } = await import('../domain/accounts/locked-ticker');
  const locked = LockedTickerSchema.safeParse(file);
  if (!locked.success) return { kind: 'record', record: file as SignalRecord };
  try {
    return { kind: 'record', record: await answer(api.pro.stock[':ticker'].$get({ param: { ticker: encodeURIComponent(ticker) } })) };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'locked', companyName: locked.data.companyName };
    throw error;
  }
}

/** GET /api/track-record/{T}: the hit rate the comparison shows; null when the file is missing. */
export async function fetchCompareHitRate(ticker: string): Promise<ReturnType<typeof compareHitRate> | null> {
  try {
    return compareHitRate((await staticJson(`/api/track-record/${encodeURIComponent(ticker)}`, () => import('../domain/track-record/ledger-schema').then((m) => m.TickerTrackFileSchema))).ledger);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
