/**
 * The stock detail view (spec section 2 "Stock detail"): route tickers, the texts of the signal explanation,
 * the back button's label, the page's meta description and structured data, and the compact form in which a
 * page embeds its trend for the chart's first paint.
 */
import { canonicalUrl } from '../site/canonical';
import { breadcrumbJsonLd, HOME_CRUMB, type Crumb } from '../site/breadcrumbs';
import { LOCKED_SIGNAL_LABEL } from '../accounts/entitlements';
import { formatDate, formatScore } from '../text/format';
import { classifySignal, signalDirection, THRESHOLD_WORDS } from './signal';
import { SAMPLE_NOTICE } from '../report/report-source';
import { asciiUpper } from '../text/text';
import { isTicker } from '../report/ticker';
import type { TrendPoint, TrendResponse } from '../trend/trend';

/** Texts of the not-found screen of the detail route (spec section 2). */
export const STOCK_NOT_FOUND = {
  title: 'Stock Not Found',
  message: 'Please select a valid ticker.',
  action: 'Back to Dashboard',
} as const;


/** Spec section 2: on /signal/{ticker} the title is the tool name plus the ticker (its JSON-LD and the dialog; the page leads with stockHeadline). */
export function stockPageTitle(siteName: string, ticker: string): string {
  return `${siteName} ${ticker}`;
}

/** The route ticker upper-cased and trimmed, or null when it is not a well-formed ticker (DESIGN.md security rules). */
export function routeTicker(raw: string | null | undefined): string | null {
  const ticker = asciiUpper(decodeURIComponentSafe(raw ?? '').trim());
  return isTicker(ticker) ? ticker : null;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One paragraph of the Signal Information card: a heading and its text. */
export interface SignalExplanation {
  tone: 'top' | 'bullish' | 'bearish' | 'neutral';
  heading: string;
  text: string;
}

/** The Signal Information paragraphs of a ticker: 'Top Signal' first for a top ticker, then its classification's. */
export function signalExplanations(ticker: string, cScore: number | null | undefined, isTopTicker: boolean): SignalExplanation[] {
  const out: SignalExplanation[] = [];
  if (isTopTicker) {
    out.push({
      tone: 'top',
      heading: 'Top Signal',
      text: `${ticker} is among the strongest signals in the latest report: one of the Top Signals with the highest conviction.`,
    });
  }
  const direction = signalDirection(cScore);
  if (direction === 'bullish') {
    out.push({
      tone: 'bullish',
      heading: 'Bullish Signal',
      text: `${ticker} shows strong positive momentum, with a C-Score of ${THRESHOLD_WORDS.bullish}.`,
    });
  } else if (direction === 'bearish') {
    out.push({
      tone: 'bearish',
      heading: 'Bearish Signal',
      text: `${ticker} shows strong negative momentum, with a C-Score of ${THRESHOLD_WORDS.bearish}.`,
    });
  } else {
    out.push({
      tone: 'neutral',
      heading: 'Neutral Signal',
      text: `${ticker} has a C-Score ${THRESHOLD_WORDS.neutral}: no strong signal in either direction in the latest report.`,
    });
  }
  return out;
}

/** The full disclaimer of the detail page's footer. */
export function disclaimer(siteName: string): string {
  return `Disclaimer: ${siteName} and every score, signal, chart and text on this page are for informational purposes only and are not investment, financial, legal or tax advice, nor an offer or a solicitation to buy or sell any security. Signals are derived from aggregated consumer-spending data and market expectations; they may be incomplete, delayed or wrong, and past signals do not guarantee future results. Prices and company data come from third parties and may be delayed or inaccurate. Investing involves risk, including the loss of principal. Do your own research and consult a licensed financial adviser before making any investment decision. You alone are responsible for your investment decisions.`;
}

/**
 * What a stock page's title and description lead with: company, ticker, signal, C-Score and report date,
 * e.g. "Apple Inc. (AAPL): Neutral, C-Score −23.74 on Nov 20, 2026" (a typographic minus, as in print). Without a
 * company name, the ticker alone.
 */
export function stockHeadline(ticker: string, companyName: string, cScore: number, reportDate: string): string {
  const who = companyName ? `${companyName} (${ticker})` : ticker;
  return `${who}: ${classifySignal(cScore)}, C-Score ${formatScore(cScore).replace('-', '\u2212')} on ${formatDate(reportDate)}`;
}

/** The static stock page's title: its headline, then the tool name (spec section 2: the tool name and the ticker). */
export function stockPageHeadTitle(siteName: string, headline: string): string {
  return `${headline} | ${siteName}`;
}

/** Detail page meta description: the headline (company, ticker, signal, C-Score, report date), then what the page holds. */
export function detailDescription(ticker: string, companyName: string, cScore: number, reportDate: string): string {
  return `${stockHeadline(ticker, companyName, cScore, reportDate)}. Daily consumer-spending signal with its 7- and 14-day history.`;
}

/** What the structured data of a detail page says. */
export interface DetailJsonLdInput {
  siteName: string;
  siteUrl: string;
  ticker: string;
  companyName: string;
  description: string;
  reportDate: string;
  website: string | null;
  /** The page's breadcrumb trail, from the home page to the ticker; default Home › {ticker}. */
  trail?: readonly Crumb[];
}

/** JSON-LD of a detail page: the WebPage, the Corporation with its tickerSymbol, and the BreadcrumbList. */
export function detailJsonLd(input: DetailJsonLdInput): Record<string, unknown> {
  // The same addresses as the page's canonical link and the sitemap.
  const pageUrl = canonicalUrl(`/signal/${input.ticker}`, input.siteUrl);
  const home = canonicalUrl('/', input.siteUrl);
  const corporation: Record<string, unknown> = {
    '@type': 'Corporation',
    '@id': `${pageUrl}#corporation`,
    name: input.companyName,
    tickerSymbol: input.ticker,
  };
  if (input.website) corporation.url = input.website;
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'WebPage',
        '@id': pageUrl,
        url: pageUrl,
        name: stockPageTitle(input.siteName, input.ticker),
        description: input.description,
        dateModified: input.reportDate,
        isPartOf: { '@type': 'WebSite', name: input.siteName, url: home },
        about: { '@id': `${pageUrl}#corporation` },
      },
      corporation,
      breadcrumbJsonLd(input.trail ?? [HOME_CRUMB, { name: input.ticker, path: `/signal/${input.ticker}` }], input.siteUrl),
    ],
  };
}

/** JSON for a <script> element: '<' escaped so no text in the data can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * A trend response in the compact text a page embeds: 'reportDate|date,score,flags;...' where flags is any of
 * c (current day), y (yesterday), 7 and 14 (the averages). The first point's date is written whole, each later one as
 * the days since the point before ('3' for a Friday to a Monday). About a fifth of the JSON's size.
 */
export function encodeTrend(trend: TrendResponse): string {
  const points = trend.trend.map((p, i) => {
    const flags = `${p.isCurrentDay ? 'c' : ''}${p.isYesterday ? 'y' : ''}${p.is7DayAvg ? '7' : ''}${p.is14DayAvg ? '14' : ''}`;
    const date = i === 0 ? p.date : String(Math.round((Date.parse(p.date) - Date.parse(trend.trend[i - 1]!.date)) / DAY_MS));
    return `${date},${p.cScore},${flags}`;
  });
  return `${trend.reportDate}|${points.join(';')}`;
}

const DAY_MS = 86_400_000;
const WHOLE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The trend response back from `encodeTrend`'s text. */
export function decodeTrend(ticker: string, text: string): TrendResponse {
  const [reportDate = '', body = ''] = text.split('|');
  // The previous point's time, kept as a number rather than parsed again from its date at every point.
  let previous = Number.NaN;
  const trend: TrendPoint[] = body === ''
    ? []
    : body.split(';').map((entry) => {
        const [written = '', score = '', flags = ''] = entry.split(',');
        const whole = WHOLE_DATE.test(written);
        previous = whole ? Date.parse(written) : previous + Number(written) * DAY_MS;
        const date = whole ? written : new Date(previous).toISOString().slice(0, 10);
        const point: TrendPoint = { date, cScore: Number(score) };
        if (flags.includes('c')) point.isCurrentDay = true;
        if (flags.includes('y')) point.isYesterday = true;
        if (flags.includes('14')) point.is14DayAvg = true;
        else if (flags.includes('7')) point.is7DayAvg = true;
        return point;
      });
  return { ticker, reportDate, trend };
}

/** The inputs of a ticker's share image: what it shows, so an unchanged text keeps the image. */
export interface ShareImageInput {
  ticker: string;
  companyName: string;
  /** Null for a top ticker whose scores are Pro only (PAYWALL=on): the image shows no score. */
  cScore: number | null;
  reportDate: string;
  /** The report is the generated sample data: the image says so above the ticker. */
  sample?: boolean;
}

/** The lines a share image shows: the sample notice (or null), ticker, company, C-Score, classification and date. */
export function shareImageText(input: ShareImageInput, siteName: string): {
  ticker: string;
  company: string;
  score: string;
  classification: string;
  footer: string;
  tone: 'bullish' | 'bearish' | 'neutral';
  notice: string | null;
} {
  const notice = input.sample ? SAMPLE_NOTICE : null;
  if (input.cScore === null) {
    return { notice, ticker: input.ticker, company: input.companyName, score: '★', classification: `${LOCKED_SIGNAL_LABEL} · Pro`, footer: `C-Score report of ${formatDate(input.reportDate)} · ${siteName}`, tone: 'neutral' };
  }
  return {
    notice,
    ticker: input.ticker,
    company: input.companyName,
    score: formatScore(input.cScore),
    classification: classifySignal(input.cScore),
    footer: `C-Score report of ${formatDate(input.reportDate)} · ${siteName}`,
    tone: signalDirection(input.cScore),
  };
}

/** Earnings badge text of the page: 'Earnings: Jan 5, 2025', or null when no next date is known. */
export function earningsBadgeText(date: string | null | undefined, format: (d: string) => string): string | null {
  if (!date) return null;
  const text = format(date);
  return text === 'N/A' ? null : `Earnings: ${text}`;
}
