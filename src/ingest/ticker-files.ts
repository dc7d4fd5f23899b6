/**
 * Each ticker's badge (`/badge/{T}.svg`), feeds (`/feeds/signal/{T}.xml`, Atom, and `.json`, JSON Feed) and embeddable
 * card (`/embed/{T}/index.html`), written straight from Node beside `astro build`, as the static API is: rendered by
 * Astro, four small files per ticker took the one core it renders the stock pages with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { anonymousLockedTickers } from '../lib/domain/accounts/entitlements';
import { eventsByTicker, jsonFeed11, stockFeed } from '../lib/domain/alerts/stock-feeds';
import type { SignalHistory } from '../lib/domain/report/schemas';
import { canonicalUrl } from '../lib/domain/site/canonical';
import { badgeSvg, EMBED_PATH_PREFIX, EMBED_SPARK_POINTS, embedCardHtml } from '../lib/domain/site/embed';
import { tickerTrend } from '../lib/domain/trend/trend';
import { missingFiles, type OnWritten } from './static-api';

/** Tickers written between two turns of the event loop (the pages Astro writes meanwhile go to the compressor). */
const YIELD_EVERY = 25;

/** A ticker's files, relative to the client folder (`/`-separated). */
export function tickerFilePaths(ticker: string): { badge: string; atom: string; json: string; embed: string } {
  return { badge: `badge/${ticker}.svg`, atom: `feeds/signal/${ticker}.xml`, json: `feeds/signal/${ticker}.json`, embed: `${EMBED_PATH_PREFIX.slice(1)}${ticker}/index.html` };
}

/** What the files say: the site's address and name, and PAYWALL=on (a locked ticker's files show no score). */
export interface TickerFileSettings {
  siteUrl: string;
  siteName: string;
  paywall: boolean;
}

/**
 * Writes every ticker's badge, feeds and card of `history` (the pages' history: its dates are the feeds' span) under `root`;
 * returns how many files it wrote. `onWritten` is told of each file once it is whole, with its path under `root`.
 */
export async function writeTickerFiles(root: string, history: SignalHistory, settings: TickerFileSettings, onWritten: OnWritten = () => undefined): Promise<number> {
  await mkdir(join(root, 'badge'), { recursive: true });
  await mkdir(join(root, 'feeds', 'signal'), { recursive: true });
  const { latest } = history;
  const reportDate = history.dates.at(-1) ?? '';
  const firstDate = history.dates[0] ?? reportDate;
  const locked = anonymousLockedTickers(latest, settings.paywall);
  const events = eventsByTicker(history);
  let written = 0;
  // Synchronous writes, as the static API's: for thousands of small files they beat the thread pool's round trips.
  const write = (path: string, text: string) => {
    const bytes = Buffer.from(text);
    writeFileSync(join(root, path), bytes);
    written += 1;
    onWritten(path, bytes);
  };
  for (const [i, record] of latest.entries()) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const { ticker } = record;
    const paths = tickerFilePaths(ticker);
    const hidden = locked.has(ticker);
    const facts = { ticker, reportDate: record.reportDate, cScore: hidden ? null : record.cScore };
    write(paths.badge, badgeSvg(facts, settings.siteName));
    const feed = stockFeed({ siteUrl: settings.siteUrl, siteName: settings.siteName, ticker, events: events.get(ticker) ?? [], locked: hidden, reportDate, firstDate });
    write(paths.atom, feed.atom1());
    write(paths.json, jsonFeed11(feed.json1()));
    mkdirSync(dirname(join(root, paths.embed)), { recursive: true });
    const recentScores = hidden ? [] : tickerTrend(history, record, EMBED_SPARK_POINTS).map((point) => point.cScore);
    write(paths.embed, embedCardHtml({ facts, companyName: record.companyName, recentScores, stockPage: canonicalUrl(`/signal/${ticker}`, settings.siteUrl), siteName: settings.siteName }));
  }
  return written;
}

/** The smoke check of the ticker files under `root`: each ticker's four, none empty; returns the problems. */
export async function checkTickerFiles(root: string, tickers: readonly string[]): Promise<string[]> {
  const expected = tickers.flatMap((ticker) => Object.values(tickerFilePaths(ticker)));
  return (await missingFiles(root, expected)).map((path) => `missing file ${path}`);
}
