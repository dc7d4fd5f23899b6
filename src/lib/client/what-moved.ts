/** The detail dialog's "What moved": the supporting scores of the last reports, from the ticker's static metrics file. */
import { LockedTickerSchema } from '../domain/accounts/locked-ticker';
import { TickerMetricsSchema } from '../domain/site/api-responses';
import { whatMoved, type WhatMoved } from '../domain/trend/what-moved';
import { staticJson } from './static-files';

/** GET /api/ticker-metrics/{T}: what moved, or null when the file keeps no history (or the ticker is locked). */
export async function fetchWhatMoved(ticker: string): Promise<WhatMoved | null> {
  const file = await staticJson(`/api/ticker-metrics/${encodeURIComponent(ticker)}`, TickerMetricsSchema.or(LockedTickerSchema));
  return 'moved' in file && file.moved ? whatMoved(file.moved, file.ticker) : null;
}
