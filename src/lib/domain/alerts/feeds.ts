/**
 * The signal feeds with the `feed` package: the public Atom and JSON feeds the build writes
 * (`/feeds/signals.xml`, `/feeds/signals.json`) and each user's private feed of their watched tickers. Every item's
 * id is the stable address of its event (the stock page, the event in the fragment).
 */
import { Feed } from 'feed';
import { eventId, eventText, eventUrl, type SignalEvent } from './alerts';
import { LOCKED_SIGNAL_LABEL } from '../accounts/entitlements';
import { formatDate } from '../text/format';

/** The public feeds' paths on the site. */
export const PUBLIC_FEEDS = { atom: '/feeds/signals.xml', json: '/feeds/signals.json' } as const;

/** What a feed is made of. */
export interface SignalFeedInput {
  siteUrl: string;
  title: string;
  description: string;
  /** The feed's own addresses (Atom and JSON); the Atom one is its id. */
  links: { atom: string; json: string };
  events: readonly SignalEvent[];
  /** When the feed last changed: the latest report's build time. */
  updated: Date;
  /** False for an event whose scores the reader may not see (PAYWALL=on, a locked top ticker). */
  showScores?: (event: SignalEvent) => boolean;
  /** True for an event that would tell a locked top ticker's state today (PAYWALL=on): it says only "a top signal". */
  lockedSignal?: (event: SignalEvent) => boolean;
}

/** An event item's text: the change, with its scores when the reader may see them; a locked one says only that it is a top signal. */
export function feedItemText(event: SignalEvent, input: Pick<SignalFeedInput, 'showScores' | 'lockedSignal'>): string {
  if (input.lockedSignal?.(event)) return `${event.ticker} is a ${LOCKED_SIGNAL_LABEL.toLowerCase()}`;
  return eventText(event, input.showScores?.(event) ?? true);
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The feed, newest report first; `.atom1()` and `.json1()` write it. */
export function signalFeed(input: SignalFeedInput): Feed {
  const feed = new Feed({
    id: input.links.atom,
    title: input.title,
    description: input.description,
    link: input.siteUrl,
    updated: input.updated,
    language: 'en',
    generator: false,
    feedLinks: { atom: input.links.atom, json: input.links.json },
    copyright: '',
  });
  const events = [...input.events].sort((a, b) => (a.reportDate < b.reportDate ? 1 : a.reportDate > b.reportDate ? -1 : 0));
  for (const event of events) {
    const text = capital(feedItemText(event, input));
    const date = new Date(`${event.reportDate}T00:00:00Z`);
    feed.addItem({
      id: eventId(input.siteUrl, event),
      title: text,
      link: eventUrl(input.siteUrl, event),
      date,
      published: date,
      description: `${text}, on the report of ${formatDate(event.reportDate)}.`,
    });
  }
  return feed;
}
