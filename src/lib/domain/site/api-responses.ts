/**
 * The answers of the daily-data API routes (spec sections 3 and 7, DESIGN.md "API routes"), derived from the
 * day's site data. The build writes them as static JSON; the live API reads the same shapes back.
 */
import { z } from '../zod';
import { companyProfile } from '../signals/company-profile';
import { LockedTickerSchema } from '../accounts/locked-ticker';
import { IsoDateSchema, SignalRecordSchema, TickerSchema, type SignalRecord } from '../report/record';
import type { ArchivedFile, UniverseCompany, StoredCompanyInfo } from '../report/schemas';
import { TrendResponseSchema } from '../trend/trend-schema';
import { SubScoreHistorySchema } from '../trend/what-moved';

/** The file of GET /api/all-signals: the report's records (spec section 4 reads an object with a data array too). */
export const AllSignalsFileSchema = z.union([z.array(SignalRecordSchema), z.object({ data: z.array(SignalRecordSchema).optional() })]);

/** The file of GET /api/stock/{ticker}: the record, or a locked top ticker's public form (PAYWALL=on). */
export const StockFileSchema = z.union([SignalRecordSchema, LockedTickerSchema]);

/** The file of GET /api/c-score-trend/{ticker}: the trend, or a locked top ticker's public form (PAYWALL=on). */
export const TrendFileSchema = z.union([TrendResponseSchema, LockedTickerSchema]);

/** Answer of GET /api/ticker-metrics/{ticker} (spec section 3 "Ticker metrics response"). */
export const TickerMetricsSchema = z.object({
  ticker: TickerSchema,
  reportDate: IsoDateSchema,
  deltaScore: z.number(),
  accuracyScore: z.number(),
  marketScore: z.number(),
  relevanceScore: z.number(),
  avgCScoreL7D: z.number(),
  avgCScoreL14D: z.number(),
  countL7D: z.number(),
  countL14D: z.number(),
  /** The supporting scores of the last reports, for "What moved" (absent when the build kept none). */
  moved: SubScoreHistorySchema.optional(),
});
export type TickerMetrics = z.infer<typeof TickerMetricsSchema>;

/** The metrics of a signal record. */
export function tickerMetrics(record: SignalRecord): TickerMetrics {
  return {
    ticker: record.ticker,
    reportDate: record.reportDate,
    deltaScore: record.deltaScore,
    accuracyScore: record.accuracyScore,
    marketScore: record.marketScore,
    relevanceScore: record.relevanceScore,
    avgCScoreL7D: record.avgCScoreL7D,
    avgCScoreL14D: record.avgCScoreL14D,
    countL7D: record.countL7DWithSignal,
    countL14D: record.countL14DWithSignal,
  };
}

/** Answer of GET /api/company-name/{ticker}, and one item of /api/company-names. */
export const CompanyNameRecordSchema = z.object({ ticker: TickerSchema, companyName: z.string() });
export type CompanyNameRecord = z.infer<typeof CompanyNameRecordSchema>;

/** Answer of GET /api/company-description/{ticker}; `source` says who wrote it (the badge's true source). */
export const CompanyDescriptionSchema = z.object({
  ticker: TickerSchema,
  description: z.string(),
  source: z.enum(['provider', 'generated']),
});
export type CompanyDescription = z.infer<typeof CompanyDescriptionSchema>;

/** Answer of GET /api/company-info/{ticker} (spec section 3 "Company info"); unknown figures are null. */
export const CompanyInfoSchema = z.object({
  ticker: TickerSchema,
  longName: z.string(),
  longBusinessSummary: z.string(),
  descriptionSource: z.enum(['provider', 'generated']),
  sector: z.string().nullable(),
  industry: z.string().nullable(),
  website: z.string().nullable(),
  marketCap: z.number().nullable(),
  employees: z.number().nullable(),
  /** Our own logo route (the provider's address needs the key), or null when there is no logo. */
  logoUrl: z.string().nullable(),
});
export type CompanyInfo = z.infer<typeof CompanyInfoSchema>;

/** Our logo route for a ticker. */
export function logoRoute(ticker: string): string {
  return `/api/polygon/logo/${encodeURIComponent(ticker)}`;
}

/** Company info of a ticker from the record's name, the universe file and the company-information store. */
export function companyInfo(
  ticker: string,
  recordName: string,
  company: UniverseCompany | undefined,
  stored: StoredCompanyInfo | undefined,
  siteName: string,
): CompanyInfo {
  const profile = companyProfile(ticker, recordName, company, stored, siteName);
  return {
    ticker,
    longName: profile.name,
    longBusinessSummary: profile.description,
    descriptionSource: profile.descriptionSource,
    sector: profile.sector,
    industry: profile.industry,
    website: profile.website,
    marketCap: profile.marketCap,
    employees: profile.employees,
    logoUrl: profile.hasLogo ? logoRoute(ticker) : null,
  };
}

/** One sheet of an archive file as /api/excel-files lists it; `csvContent` is left to the download route. */
export const ArchiveSheetListingSchema = z.object({
  id: z.number().int().min(0),
  sheetName: z.string(),
  rowCount: z.number().int().min(0),
  /** Always null: the sheet's CSV is served by `downloadUrl`, so the list stays small. */
  csvContent: z.null(),
  isActive: z.boolean(),
  downloadUrl: z.string(),
});

/** One archive file as /api/excel-files and /api/csv-files list it (spec section 3 "Archive file"). */
export const ArchiveFileListingSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  displayName: z.string(),
  fileDate: IsoDateSchema.nullable(),
  uploadedAt: z.string(),
  sheetCount: z.number().int().min(0),
  hasRawFile: z.boolean(),
  kind: z.enum(['csv', 'xlsx']),
  rawUrl: z.string(),
  csvUrl: z.string(),
  sheets: z.array(ArchiveSheetListingSchema),
});
export type ArchiveFileListing = z.infer<typeof ArchiveFileListingSchema>;

/** The archive's files, newest report first, as the archives page lists them. */
export function archiveListing(files: readonly ArchivedFile[]): ArchiveFileListing[] {
  const listed = files.map((file) => ({
    id: file.id,
    displayName: file.fileName,
    fileDate: file.reportDates.at(-1) ?? null,
    uploadedAt: file.archivedAt,
    sheetCount: file.sheets.length,
    hasRawFile: true,
    kind: file.kind,
    rawUrl: `/api/download-excel/${file.id}`,
    csvUrl: `/api/download-csv/${file.id}`,
    sheets: file.sheets.map((sheet) => ({
      id: sheet.id,
      sheetName: sheet.sheetName,
      rowCount: sheet.rowCount,
      csvContent: null,
      isActive: sheet.isActive,
      downloadUrl: `/api/download-csv/${file.id}?sheetId=${sheet.id}`,
    })),
  }));
  return listed.sort((a, b) => (b.fileDate ?? '').localeCompare(a.fileDate ?? '') || a.displayName.localeCompare(b.displayName));
}

/** Answer of GET /api/market-sentiment/{ticker} (spec: "shape not shown"): the day's signal direction. */
export const MarketSentimentSchema = z.object({
  ticker: TickerSchema,
  reportDate: IsoDateSchema,
  cScore: z.number(),
  yesterdayCScore: z.number(),
  sentiment: z.enum(['bullish', 'bearish', 'neutral']),
  trend: z.enum(['up', 'down', 'flat']),
});
export type MarketSentiment = z.infer<typeof MarketSentimentSchema>;

/** The message of a 404 for a well-formed ticker that is not in the latest report. */
export function noSignalMessage(ticker: string, reportDate: string | null): string {
  return reportDate
    ? `No signal for ${ticker} in the report of ${reportDate}: check the symbol, or pick one from /api/all-signals.`
    : `No signal for ${ticker}: no report is published yet; run the daily job.`;
}

/** A safe download file name from an archived file name: letters, digits, dot, dash, underscore; `.csv` or the raw extension. */
export function downloadFileName(fileName: string, extension: string, sheetName?: string): string {
  const base = fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const sheet = sheetName ? `-${sheetName}` : '';
  const safe = `${base}${sheet}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 100) || 'signals';
  return `${safe}.${extension}`;
}

