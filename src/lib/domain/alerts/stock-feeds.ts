/**
 * A feed per stock: every signal event of one ticker over the whole history the build holds (the events of each
 * report date, by the same rule the daily job stores them with), newest first, at `/feeds/signal/{T}.xml` (Atom) and
 * `.json` (JSON Feed). Item ids are the events' stable addresses, so a feed reader never sees an item twice.
 */
import { publicEvents, type SignalEvent, signalEvents } from './alerts';
import { signalFeed } from './feeds';
import type { SignalHistory, SignalRecord } from '../report/schemas';

/** The feed addresses of one ticker on the site. */
export function stockFeedPaths(ticker: string): { atom: string; json: string } {
  const name = encodeURIComponent(ticker);
  return { atom: `/feeds/signal/${name}.xml`, json: `/feeds/signal/${name}.json` };
}

/** Items a stock's feed lists at most (its latest events). */
export const STOCK_FEED_ITEMS = 50;

/**
 * Each ticker's public events over every report date of the history (never the borderline ones), newest first. The
 * events of date i are the latest-report events of the history cut at i, with that date's scores as its records.
 */
export function eventsByTicker(history: SignalHistory): Map<string, SignalEvent[]> {
  const byTicker = new Map<string, SignalEvent[]>();
  const tickers = Object.keys(history.scores);
  for (let i = history.dates.length - 1; i >= 1; i -= 1) {
    const latest =
      i === history.dates.length - 1
        ? history.latest
        : tickers.flatMap((ticker) => {
            const score = history.scores[ticker]?.[i];
            // signalEvents reads only a record's ticker and C-Score.
            return typeof score === 'number' ? [{ ticker, cScore: score } as SignalRecord] : [];
          });
    const cut: SignalHistory = { dates: history.dates.slice(0, i + 1), latest, scores: history.scores };
    for (const event of publicEvents(signalEvents(cut))) {
      const list = byTicker.get(event.ticker) ?? [];
      if (list.length < STOCK_FEED_ITEMS) list.push(event);
      byTicker.set(event.ticker, list);
    }
  }
  return byTicker;
}

/** JSON Feed 1.1 from the feed package's version 1 text: the version's address, the language, `authors` for `author`. */
export function jsonFeed11(json1: string): string {
  const { author, ...feed } = JSON.parse(json1) as Record<string, unknown>;
  return JSON.stringify({ ...feed, version: 'https://jsonfeed.org/version/1.1', language: 'en', ...(author === undefined ? {} : { authors: [author] }) }, null, 4);
}

/**
 * One ticker's feed: its events newest first; when `locked` (PAYWALL=on, a locked top ticker) no item shows scores
 * and the latest report's items say only that it is a top signal, as its page does.
 */
export function stockFeed(input: { siteUrl: string; siteName: string; ticker: string; events: readonly SignalEvent[]; locked: boolean; reportDate: string; firstDate: string }) {
  const { siteUrl, siteName, ticker } = input;
  const paths = stockFeedPaths(ticker);
  const feed = signalFeed({
    siteUrl,
    title: `${siteName}: ${ticker} signal changes`,
    description: `When ${ticker} starts, stops or reverses a bullish or bearish signal, report by report.`,
    links: { atom: new URL(paths.atom, siteUrl).href, json: new URL(paths.json, siteUrl).href },
    events: input.events,
    // The newest event's report: the feed changes only when an event is added.
    updated: new Date(`${input.events[0]?.reportDate ?? input.firstDate}T00:00:00Z`),
    showScores: () => !input.locked,
    lockedSignal: (event) => input.locked && event.reportDate === input.reportDate,
  });
  // Atom needs an author on the feed or on every entry: the site.
  feed.options.author = { name: siteName, link: siteUrl };
  return feed;
}
