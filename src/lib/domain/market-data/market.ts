import { z } from '../zod';

/**
 * A live quote, shape B of spec section 3. A figure the provider does not have is absent, never 0.
 * `dividendYield` is a fraction (0.0123 is 1.23%). `fetchedAt` is an ISO timestamp.
 */
export const QuoteSchema = z.object({
  symbol: z.string(),
  regularMarketPrice: z.number().optional(),
  regularMarketChange: z.number().optional(),
  regularMarketChangePercent: z.number().optional(),
  regularMarketPreviousClose: z.number().optional(),
  regularMarketOpen: z.number().optional(),
  regularMarketDayLow: z.number().optional(),
  regularMarketDayHigh: z.number().optional(),
  regularMarketVolume: z.number().optional(),
  marketCap: z.number().optional(),
  trailingPE: z.number().optional(),
  eps: z.number().optional(),
  dividendYield: z.number().optional(),
  beta: z.number().optional(),
  fetchedAt: z.string(),
  /** The trading day (yyyy-mm-dd, New York) the price belongs to, so a weekend's quote says which session it shows. */
  sessionDate: z.string().optional(),
  /** True when the demo provider made the figures up: the page must say they are demo prices. */
  isDemo: z.boolean().optional(),
});
export type Quote = z.infer<typeof QuoteSchema>;

/** A news article (spec section 3). */
export const NewsArticleSchema = z.object({
  id: z.string(),
  title: z.string(),
  article_url: z.string(),
  image_url: z.string().optional(),
  published_utc: z.string(),
  publisher: z.object({ name: z.string() }),
  description: z.string().optional(),
});
export type NewsArticle = z.infer<typeof NewsArticleSchema>;

/** Earnings (spec section 3): whether a next date is known, and the date (yyyy-mm-dd). */
export const EarningsSchema = z.object({
  earningsAvailable: z.boolean(),
  earningsDate: z.string().nullable(),
  nextEarningsDate: z.string().nullable().optional(),
});
export type Earnings = z.infer<typeof EarningsSchema>;

/** One daily bar as /api/polygon/aggs and /api/polygon/price answer it (Polygon's aggregate field names; t in ms). */
export const BarSchema = z.object({
  t: z.number(),
  o: z.number(),
  h: z.number(),
  l: z.number(),
  c: z.number(),
  v: z.number(),
  vw: z.number().optional(),
  n: z.number().optional(),
});
export type Bar = z.infer<typeof BarSchema>;

/** What the provider knows about a company: the fields of Polygon's ticker details that /api/polygon/ticker-details passes on. */
export const TickerDetailsSchema = z.object({
  ticker: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  sic_description: z.string().optional(),
  homepage_url: z.string().optional(),
  total_employees: z.number().optional(),
  market_cap: z.number().optional(),
  branding: z.object({ logo_url: z.string().optional(), icon_url: z.string().optional() }).optional(),
});
export type TickerDetails = z.infer<typeof TickerDetailsSchema>;
