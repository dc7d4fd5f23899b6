import { siteData } from './site-data';
import { reportDay, sessionOpensAfter, type ReportDay } from './domain/market-data/report-day';
import { formatDate, formatShortDate } from './domain/text/format';

export interface SiteDay extends ReportDay {
  /** The opening bells after the report, for the page's script to count against the visitor's clock. */
  opens: number[];
}

let cached: SiteDay | undefined;

/** The report's day as the build sees it: one moment for every page, so a build across the opening bell agrees with itself. */
export function siteDay(): SiteDay {
  if (cached) return cached;
  const { reportDate } = siteData();
  cached = { ...reportDay(reportDate, Date.now()), opens: sessionOpensAfter(reportDate) };
  return cached;
}

/**
 * A phrase that says "today" only for the latest trading day's report: both wordings go into the page, the build's
 * choice is the text, and the report-day script picks again against the visitor's clock.
 */
export function dayPhrase(today: string, dated: (date: { long: string; short: string }) => string): { today: string; dated: string; text: string } {
  const day = siteDay();
  const words = dated({ long: formatDate(day.reportDate), short: formatShortDate(day.reportDate) });
  return { today, dated: words, text: day.current ? today : words };
}
