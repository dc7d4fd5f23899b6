/** The Pro data (/api/pro) for the locked parts of a page: an answer, or null when the route refuses (signed out meanwhile, or not Pro). */
import type { PRO_LISTS } from '../../server/routes/pro';
import { answer, api } from './api-client';
import { ApiError } from './http';

/** A Pro list, by the page address it completes. */
export type ProListName = (typeof PRO_LISTS)[number];

async function refusedAsNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** GET /api/pro/lists/{list}. */
export function proList(list: ProListName) {
  return refusedAsNull(answer(api.pro.lists[':list'].$get({ param: { list } })));
}

/** GET /api/pro/stock/{ticker}: a locked top ticker's signal record. */
export function proStockRecord(ticker: string) {
  return refusedAsNull(answer(api.pro.stock[':ticker'].$get({ param: { ticker: encodeURIComponent(ticker) } })));
}

/** GET /api/pro/screener: every stock's screen row (packed as the static data is) and row HTML, in the table's order. */
export function proScreener() {
  return refusedAsNull(answer(api.pro.screener.$get()));
}
