/**
 * Detail data sourcing (spec section 4): the direct stock fetch first; when it fails or yields no data, the
 * record is found in the all-signals list by ticker, case-insensitively.
 */
import { request } from '../../lib/client/http';
import type { SignalRecord } from '../../lib/domain/schemas';

function isRecord(value: unknown): value is SignalRecord {
  return typeof value === 'object' && value !== null && typeof (value as SignalRecord).ticker === 'string' && typeof (value as SignalRecord).cScore === 'number';
}

/** The signal record of a ticker from /api/stock/{T}, else from /api/all-signals; null when neither has it. */
export async function fetchStockRecord(ticker: string, signal?: AbortSignal): Promise<SignalRecord | null> {
  try {
    const direct = await request<unknown>(`/api/stock/${encodeURIComponent(ticker)}`, { signal });
    if (isRecord(direct)) return direct;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn(`Error fetching stock data for ${ticker}: ${(error as Error).message}`);
  }
  const list = await request<unknown>('/api/all-signals', { signal });
  const rows: unknown[] = Array.isArray(list) ? list : Array.isArray((list as { data?: unknown[] })?.data) ? (list as { data: unknown[] }).data : [];
  const wanted = ticker.toUpperCase();
  return rows.filter(isRecord).find((r) => r.ticker.toUpperCase() === wanted) ?? null;
}
