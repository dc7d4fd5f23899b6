/**
 * The public JSON of a top ticker whose scores are Pro only. Its own module, so the plan rules (entitlements.ts) stay
 * free of zod: every page's header script reads them, and building schemas there would run on each page's load.
 */
import { z } from '../zod';
import { IsoDateSchema, TickerSchema } from '../report/record';

/** What public JSON holds for a top ticker whose scores are Pro only: who it is, and that it is locked. */
export const LockedTickerSchema = z.object({
  ticker: TickerSchema,
  companyName: z.string(),
  reportDate: IsoDateSchema,
  isTopTicker: z.literal(true),
  locked: z.literal(true),
});
export type LockedTicker = z.infer<typeof LockedTickerSchema>;
