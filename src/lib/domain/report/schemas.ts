import { z } from '../zod';
import { EMPTY_TRACK, PublishedTrackJsonSchema, TrackDataSchema } from '../track-record/track-data';
import { StoredFundamentalsSchema } from '../market-data/fundamentals';
import { IsoDateSchema, ScoreSchema, SignalRecordSchema, TickerSchema } from './record';
import { SubScoreHistorySchema } from '../trend/what-moved';

// The record's schemas live in ./record.ts, which the browser imports; every other reader finds them here too.
export { IsoDateSchema, SignalRecordSchema, TickerSchema, type SignalRecord } from './record';

/**
 * One company as the company-information store keeps it (filled by /api/polygon/sync-company-info from the
 * market-data provider's ticker details). Every field is optional: the provider may not know it.
 */
export const StoredCompanyInfoSchema = z.object({
  ticker: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  /** The provider's SIC description, shown as Industry. */
  industry: z.string().optional(),
  homepageUrl: z.string().optional(),
  employees: z.number().optional(),
  marketCap: z.number().optional(),
  /** The provider's logo address; it needs the API key, so browsers get it through our /api/polygon/logo route. */
  logoUrl: z.string().optional(),
  fetchedAt: z.string(),
});
export type StoredCompanyInfo = z.infer<typeof StoredCompanyInfoSchema>;

/** The store file: data/company-info/companies.json (COMPANY_INFO_FILE). */
export const CompanyInfoStoreSchema = z.object({
  version: z.literal(1),
  companies: z.record(z.string(), StoredCompanyInfoSchema),
});
export type CompanyInfoStore = z.infer<typeof CompanyInfoStoreSchema>;


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
  scores: z.record(z.string(), z.array(ScoreSchema.nullable())),
  /** The supporting scores of the last reports (trend/what-moved); absent in a history made before they were kept. */
  subScores: SubScoreHistorySchema.optional(),
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
  /** The ratios and earnings dates the daily job fetched for the latest report's tickers (none without a key). */
  fundamentals: z.record(z.string(), StoredFundamentalsSchema).default({}),
  /** `sample` when the report is the generated sample exports: every page then says so. */
  source: z.enum(['sample', 'exports']).default('exports'),
  /** The closes and the recorded ledger of the track record; empty when the job had no track step. */
  track: TrackDataSchema.default(EMPTY_TRACK),
  /**
   * The track record as published, computed by the daily job from the whole of `track`: the build's copy of the site
   * data then carries no closes (five years of 6,000 tickers are millions of them).
   */
  trackView: PublishedTrackJsonSchema.optional(),
});
export type SiteData = z.infer<typeof SiteDataSchema>;
