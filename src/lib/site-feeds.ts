/** The public signal feeds of the build: the day's new, exited and reversed signals, as an anonymous visitor may see them. */
import { config } from '../config';
import { publicEvents, signalEvents } from './domain/alerts/alerts';
import { PUBLIC_FEEDS, signalFeed } from './domain/alerts/feeds';
import { siteLockedTickers } from './site-access';
import { siteData } from './site-data';
import { SITE_NAME } from './site-meta';

/** The public feed of the published report. */
export function publicSignalFeed() {
  const data = siteData();
  const siteUrl = config().siteUrl;
  return signalFeed({
    siteUrl,
    title: `${SITE_NAME}: new, exited and reversed signals`,
    description: `The signals that qualified, exited or reversed on the report of ${data.reportDate}.`,
    links: { atom: new URL(PUBLIC_FEEDS.atom, siteUrl).href, json: new URL(PUBLIC_FEEDS.json, siteUrl).href },
    events: publicEvents(signalEvents(data.history)),
    // When the archive last changed (its newest file), not the build's clock: the same archive gives the same feed.
    updated: new Date(Math.max(Date.parse(`${data.reportDate}T00:00:00Z`), ...data.files.map((f) => Date.parse(f.archivedAt)).filter(Number.isFinite))),
    showScores: (event) => !siteLockedTickers().has(event.ticker),
    lockedSignal: (event) => event.reportDate === data.reportDate && siteLockedTickers().has(event.ticker),
  });
}
