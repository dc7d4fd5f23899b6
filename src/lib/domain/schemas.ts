import { z } from 'zod';
import { StoredCompanyInfoSchema } from './company-profile';

/** ISO calendar date, yyyy-mm-dd. */
export const IsoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as yyyy-mm-dd');

/** A ticker as routes and exports use it: upper case letters, digits, dot and dash, 1 to 10 characters. */
export const TickerSchema = z.string().regex(/^[A-Z0-9.-]{1,10}$/, 'expected 1 to 10 characters of A-Z, 0-9, "." or "-"');

const score = z.number().min(-100).max(100);

/** One ticker on one report date, with the field names of spec section 3. */
export const SignalRecordSchema = z.object({
  ticker: TickerSchema,
  companyName: z.string(),
  cScore: score,
  yesterdayCScore: score,
  reportDate: IsoDateSchema,
  isTopTicker: z.boolean(),
  deltaScore: score,
  accuracyScore: z.number(),
  marketScore: score,
  relevanceScore: z.number(),
  avgCScoreL7D: score,
  avgCScoreL14D: score,
  countL7DWithSignal: z.number().int().min(0).max(7),
  countL14DWithSignal: z.number().int().min(0).max(14),
  /** 'new' marks a ticker that qualified on this report and not on the one before. */
  _signalChangeType: z.enum(['new']).optional(),
  /** From the universe file when the ticker is in it. */
  sector: z.string().optional(),
  subIndustry: z.string().optional(),
});
export type SignalRecord = z.infer<typeof SignalRecordSchema>;

/** A company of the universe file (data/universe/sp500-constituents.csv). */
export const UniverseCompanySchema = z.object({
  ticker: TickerSchema,
  name: z.string(),
  sector: z.string(),
  subIndustry: z.string(),
  headquarters: z.string(),
  founded: z.string(),
});
export type UniverseCompany = z.infer<typeof UniverseCompanySchema>;

/**
 * Every report date and every ticker's C-Score on it: what the lists, trends and similar tickers derive from.
 * `scores[ticker][i]` is the C-Score on `dates[i]`, or null when the ticker was not in that report.
 */
export const SignalHistorySchema = z.object({
  /** Report dates, ascending, without duplicates. */
  dates: z.array(IsoDateSchema),
  /** Full records of the latest report date. */
  latest: z.array(SignalRecordSchema),
  scores: z.record(z.string(), z.array(score.nullable())),
});
export type SignalHistory = z.infer<typeof SignalHistorySchema>;

/** A sheet of an archived export file (spec section 3 "Archive file"). */
export const ArchiveSheetSchema = z.object({
  id: z.number().int().min(0),
  sheetName: z.string(),
  rowCount: z.number().int().min(0),
  isActive: z.boolean(),
});

/** An accepted export file as the archive keeps it. */
export const ArchivedFileSchema = z.object({
  /** First 16 hex digits of the file's SHA-256: stable, and safe in a URL and a file name. */
  id: z.string().regex(/^[0-9a-f]{16}$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The name the file had at its source. */
  fileName: z.string(),
  kind: z.enum(['csv', 'xlsx']),
  bytes: z.number().int().min(0),
  archivedAt: z.string(),
  reportDates: z.array(IsoDateSchema),
  rowCount: z.number().int().min(0),
  sheets: z.array(ArchiveSheetSchema),
});
export type ArchivedFile = z.infer<typeof ArchivedFileSchema>;

/** What the daily job hands to the static build: everything a page may show about the day's signals. */
export const SiteDataSchema = z.object({
  builtAt: z.string(),
  /** The latest report date, D. */
  reportDate: IsoDateSchema,
  history: SignalHistorySchema,
  files: z.array(ArchivedFileSchema),
  universe: z.array(UniverseCompanySchema),
  /** What the company-information store knows about the latest report's tickers. */
  companies: z.record(z.string(), StoredCompanyInfoSchema),
});
export type SiteData = z.infer<typeof SiteDataSchema>;
