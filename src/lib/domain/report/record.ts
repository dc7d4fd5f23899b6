/**
 * The signal record and the fields it is made of, apart from the report's other schemas: the browser parses the
 * build's static JSON with them, and they import nothing that needs Node (the report's schemas reach csv-stringify).
 */
import { z } from '../zod';
import { TICKER_PATTERN, TICKER_RULE } from './ticker';

/** ISO calendar date, yyyy-mm-dd. */
export const IsoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as yyyy-mm-dd');

/** A ticker as routes and exports use it: upper case letters, digits, dot and dash, 1 to 10 characters. */
export const TickerSchema = z.string().regex(TICKER_PATTERN, `expected ${TICKER_RULE}`);

/** A score of the report: -100 to 100. */
export const ScoreSchema = z.number().min(-100).max(100);

/** One ticker on one report date, with the field names of spec section 3. */
export const SignalRecordSchema = z.object({
  ticker: TickerSchema,
  companyName: z.string(),
  cScore: ScoreSchema,
  yesterdayCScore: ScoreSchema,
  reportDate: IsoDateSchema,
  isTopTicker: z.boolean(),
  deltaScore: ScoreSchema,
  accuracyScore: z.number(),
  marketScore: ScoreSchema,
  relevanceScore: z.number(),
  avgCScoreL7D: ScoreSchema,
  avgCScoreL14D: ScoreSchema,
  countL7DWithSignal: z.number().int().min(0).max(7),
  countL14DWithSignal: z.number().int().min(0).max(14),
  /** 'new' marks a ticker that qualified on this report and not on the one before. */
  _signalChangeType: z.enum(['new']).optional(),
  /** From the universe file when the ticker is in it. */
  sector: z.string().optional(),
  subIndustry: z.string().optional(),
});
export type SignalRecord = z.infer<typeof SignalRecordSchema>;
