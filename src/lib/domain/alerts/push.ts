/**
 * Web Push, the pure part: which push endpoints our server may post to (a subscription is a URL the server posts
 * to, so in production it must be https and never reach the inside of the network), and the one notification per
 * user and report that sums their events.
 */
import ipaddr from 'ipaddr.js';
import { eventText, type ScreenEntry, type SignalEvent, stockUrl } from './alerts';
import { ruleEventText, type RuleEvent } from './rules';
import { formatDate } from '../text/format';

/** Subscriptions one account may keep (a phone, a laptop, a few browsers). */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/** The longest endpoint we store (the push services' are well under it). */
export const MAX_ENDPOINT_LENGTH = 2048;

/** Events a notification's body names before "and N more". */
export const PUSH_BODY_EVENTS = 4;

/** Whether an endpoint's URL may be stored and posted to: production takes https only; elsewhere http too (tests). */
export function endpointUrlProblem(endpoint: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be the absolute URL of the browser\'s push service.';
  }
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters.`;
  if (url.username !== '' || url.password !== '') return 'endpoint must not carry a user name or password.';
  if (production ? url.protocol !== 'https:' : url.protocol !== 'https:' && url.protocol !== 'http:') {
    return production ? 'endpoint must be an https URL.' : 'endpoint must be an http or https URL.';
  }
  return null;
}

/** IPv4 ranges of the public internet: every other range (loopback, private, link-local, ...) is refused. */
const PUBLIC_RANGE = 'unicast';

/**
 * True when an address is one our server must never post to: anything but a public unicast address, such as
 * loopback, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT, link-local, multicast, unspecified, IPv6
 * loopback, unique-local and link-local, and the IPv4-mapped or -translated forms of those.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.range() === 'rfc6052' || v6.range() === '6to4' || v6.range() === 'teredo') return true;
  }
  return parsed.range() !== PUBLIC_RANGE;
}

/** A push message's content: what the service worker shows and where a click goes. */
export interface PushMessage {
  title: string;
  body: string;
  /** The stock page when every event is on one ticker, else /account's alerts. */
  url: string;
  /** One notification per report: a second with the same tag replaces the first on the device. */
  tag: string;
}

/** One user's events of one report: watchlist events, fired rules and the stocks new in their alerting saved screens. */
export interface PushEvents {
  events: readonly SignalEvent[];
  rules: readonly RuleEvent[];
  screens?: readonly ScreenEntry[];
  /** False when the user may not see the scores (PAYWALL=on, Free): the body names the changes only. */
  withScores: boolean;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A saved screen's new stocks in one line, e.g. 'New in your screen "Cheap growth": AAPL, MSFT'. */
export function screenEntryText(screen: ScreenEntry): string {
  return `New in your screen "${screen.name}": ${screen.tickers.join(', ')}`;
}

/**
 * The one notification summing a user's events of a report; null when there is nothing to tell. Each stock new in a
 * saved screen counts as one alert, as in the digest; its link is the stock page when one stock is concerned, the
 * screen when only one screen's entries are, else /account's alerts.
 */
export function composePush(input: PushEvents & { siteName: string; siteUrl: string; reportDate: string }): PushMessage | null {
  const screens = (input.screens ?? []).filter((screen) => screen.tickers.length > 0);
  const lines = [...input.events.map((event) => eventText(event, input.withScores)), ...input.rules.map((event) => ruleEventText(event, input.withScores)), ...screens.map(screenEntryText)];
  if (lines.length === 0) return null;
  const total = input.events.length + input.rules.length + screens.reduce((n, screen) => n + screen.tickers.length, 0);
  const count = total === 1 ? '1 alert' : `${total} alerts`;
  const shown = lines.slice(0, PUSH_BODY_EVENTS).map(capital);
  if (lines.length > PUSH_BODY_EVENTS) shown.push(`and ${lines.length - PUSH_BODY_EVENTS} more`);
  const tickers = new Set([...input.events.map((e) => e.ticker), ...input.rules.map((e) => e.ticker), ...screens.flatMap((s) => s.tickers)]);
  const onlyScreen = input.events.length === 0 && input.rules.length === 0 && screens.length === 1 ? screens[0]! : null;
  const url =
    tickers.size === 1
      ? stockUrl(input.siteUrl, [...tickers][0]!)
      : onlyScreen !== null
        ? new URL(`/screener?${onlyScreen.query}`, input.siteUrl).href
        : new URL('/account#alerts', input.siteUrl).href;
  return { title: `${input.siteName}: ${count} on the report of ${formatDate(input.reportDate)}`, body: shown.join('\n'), url, tag: `report-${input.reportDate}` };
}
