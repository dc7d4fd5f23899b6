/** The build's feed per stock: one ticker's signal events over the history, as an anonymous visitor may see them. */
import { config } from '../config';
import type { SignalEvent } from './domain/alerts/alerts';
import { eventsByTicker, stockFeed } from './domain/alerts/stock-feeds';
import { siteLockedTickers } from './site-access';
import { siteData } from './site-data';
import { SITE_NAME } from './site-meta';

let events: Map<string, SignalEvent[]> | undefined;

/** The tickers that get a feed: every ticker of the latest report (as every stock page). */
export function stockFeedTickers(): string[] {
  return siteData().history.latest.map((record) => record.ticker);
}

/** The feed of one ticker, computed from the build's history (all tickers' events once per build). */
export function stockSignalFeed(ticker: string) {
  const data = siteData();
  events ??= eventsByTicker(data.history);
  return stockFeed({
    siteUrl: config().siteUrl,
    siteName: SITE_NAME,
    ticker,
    events: events.get(ticker) ?? [],
    locked: siteLockedTickers().has(ticker),
    reportDate: data.reportDate,
    firstDate: data.history.dates[0] ?? data.reportDate,
  });
}
