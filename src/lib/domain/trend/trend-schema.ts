/**
 * The C-Score trend's schemas: the answer of /api/c-score-trend/{ticker} for the API's contract and the files' checks.
 * Apart from trend.ts, so the live chart, which reads a trend with validateTrend, loads no schema library.
 */
import { z } from '../zod';

/** One point of a trend response, as the API sends it (a score may come as a numeric string; validateTrend reads it). */
export const TrendPointSchema = z.object({
  date: z.string(),
  cScore: z.union([z.number(), z.string()]),
  isCurrentDay: z.boolean().optional(),
  isYesterday: z.boolean().optional(),
  is7DayAvg: z.boolean().optional(),
  is14DayAvg: z.boolean().optional(),
});
export type TrendPoint = z.infer<typeof TrendPointSchema>;

/** Answer of GET /api/c-score-trend/{ticker}. */
export const TrendResponseSchema = z.object({ ticker: z.string(), reportDate: z.string(), trend: z.array(TrendPointSchema) });
export type TrendResponse = z.infer<typeof TrendResponseSchema>;
