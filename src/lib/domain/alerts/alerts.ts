/**
 * Alerts: the signal events of one report, computed from the signal history, and the texts of the email
 * digest and the feeds. Pure: the daily job stores the events, the build writes the public feeds, the server the
 * private one, all from these rules.
 */
import { formatDate, formatScore } from '../text/format';
import type { SignalHistory } from '../report/schemas';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD, signalDirection, THRESHOLD_WORDS, type SignalDirection } from '../signals/signal';
import { escapeHtml } from '../text/text';

/** The kinds of event, in the order a digest lists them. */
export const ALERT_KINDS = ['entered', 'exited', 'reversed', 'crossed'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A crossing of a threshold is borderline when every qualifying score around it is less than this past the threshold... */
export const BORDERLINE_MARGIN = 1;
/** ...and the ticker crossed back within this many reports (the latest included). */
export const BORDERLINE_REPORTS = 3;

/** What each kind is called on /account and in the watch button's section. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  entered: 'New signals (a stock qualifies, bullish or bearish)',
  exited: 'Exits (a signal falls back to neutral)',
  reversed: 'Reversals (bullish to bearish, or the reverse)',
  crossed: `Borderline crossings (within ${BORDERLINE_MARGIN} point of ${THRESHOLD_WORDS.either} and back)`,
};

/** The kinds a user gets until they choose: borderline crossings are opt-in, they are what the rule keeps quiet. */
export const DEFAULT_ALERT_KINDS: readonly AlertKind[] = ['entered', 'exited', 'reversed'];

/** A qualified direction. */
export type EventDirection = Exclude<SignalDirection, 'neutral'>;

/** One change of a ticker's signal on one report. */
export interface SignalEvent {
  ticker: string;
  /** The report the change happened on. */
  reportDate: string;
  kind: AlertKind;
  /** entered, reversed: the new direction; exited: the direction it left; crossed: the direction of the threshold. */
  direction: EventDirection;
  /** The C-Score on the report before (null when the ticker was not in it). */
  scoreBefore: number | null;
  scoreAfter: number;
  /** A flicker around a threshold: stored as `crossed`, never sent as entered or exited. */
  borderline: boolean;
}

/** A ticker's C-Score on every report date, null where it was not in the report; on the latest its record's own. */
function scoresOf(history: SignalHistory, ticker: string, latest: number): (number | null)[] {
  const scores = history.scores[ticker] ?? [];
  const last = history.dates.length - 1;
  return history.dates.map((_, i) => (i === last ? latest : (scores[i] ?? null)));
}

/** True when the qualifying scores of the window are all less than BORDERLINE_MARGIN past the threshold. */
function nearThreshold(window: readonly number[], direction: EventDirection): boolean {
  const past = (score: number) => (direction === 'bullish' ? score - BULLISH_THRESHOLD : BEARISH_THRESHOLD - score);
  return window.filter((score) => signalDirection(score) === direction).every((score) => past(score) < BORDERLINE_MARGIN);
}

/**
 * A change between neutral and `direction` on the latest report is a borderline flicker when, over the last 3
 * reports, the ticker went neutral -> direction -> neutral or direction -> neutral -> direction (it crossed the same
 * threshold and back) and no qualifying score of those reports got BORDERLINE_MARGIN or more past it.
 */
function isFlicker(scores: readonly (number | null)[], direction: EventDirection): boolean {
  const window = scores.slice(-BORDERLINE_REPORTS);
  if (window.length < BORDERLINE_REPORTS || window.some((score) => score === null)) return false;
  const known = window as number[];
  const states = known.map((score) => signalDirection(score));
  if (states.some((state) => state !== 'neutral' && state !== direction)) return false;
  const alternates = states.every((state, i) => i === 0 || state !== states[i - 1]);
  return alternates && nearThreshold(known, direction);
}

/**
 * The events of the latest report (docs/alerts.md): entered (qualified now, not on the report before; absent
 * counts as not qualified), exited (qualified before, scored and neutral now; a ticker missing from the report has
 * no score and no event, as on Reversals & Exits), reversed (bullish to bearish or the reverse), and crossed (an
 * entry or exit that is a borderline flicker). Tickers in order.
 */
export function signalEvents(history: SignalHistory): SignalEvent[] {
  const reportDate = history.dates.at(-1);
  if (reportDate === undefined || history.dates.length < 2) return [];
  const events: SignalEvent[] = [];
  for (const record of history.latest) {
    const scores = scoresOf(history, record.ticker, record.cScore);
    const before = scores.at(-2) ?? null;
    const after = record.cScore;
    const from = signalDirection(before);
    const to = signalDirection(after);
    if (from === to) continue;
    const base = { ticker: record.ticker, reportDate, scoreBefore: before, scoreAfter: after };
    if (from !== 'neutral' && to !== 'neutral') {
      events.push({ ...base, kind: 'reversed', direction: to, borderline: false });
      continue;
    }
    const direction = (to === 'neutral' ? from : to) as EventDirection;
    if (isFlicker(scores, direction)) events.push({ ...base, kind: 'crossed', direction, borderline: true });
    else events.push({ ...base, kind: to === 'neutral' ? 'exited' : 'entered', direction, borderline: false });
  }
  return events.sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : ALERT_KINDS.indexOf(a.kind) - ALERT_KINDS.indexOf(b.kind)));
}

/** A user's alert settings. */
export interface AlertSettings {
  enabled: boolean;
  kinds: AlertKind[];
  /** Where the digest goes; null: the account's email. */
  address: string | null;
}

/** The settings of a user who never changed them: alerts off until they turn them on. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = { enabled: false, kinds: [...DEFAULT_ALERT_KINDS], address: null };

/** A digest address's confirmation link works this long after it is sent (24 hours). */
export const ADDRESS_LINK_MS = 24 * 60 * 60 * 1000;
/** At most one confirmation mail a minute per account, so a typed address cannot be flooded. */
export const ADDRESS_LINK_INTERVAL_MS = 60 * 1000;

/**
 * Where a user's digest may go: the settings' own address once its owner opened the confirmation link, else (no own
 * address) the account's email once the account is confirmed; null: nowhere until one is confirmed.
 */
export function digestDestination(settings: { address: string | null; addressConfirmed: boolean; accountEmail: string; accountEmailConfirmed: boolean }): string | null {
  if (settings.address !== null) return settings.addressConfirmed ? settings.address : null;
  return settings.accountEmailConfirmed ? settings.accountEmail : null;
}

/** The kinds in ALERT_KINDS order, each once; unknown names are a problem to fix. */
export function cleanKinds(values: readonly string[]): { kinds: AlertKind[] } | { problem: string } {
  const unknown = values.filter((value) => !(ALERT_KINDS as readonly string[]).includes(value));
  if (unknown.length > 0) return { problem: `Unknown alert kind ${unknown.map((k) => `"${k}"`).join(', ')}: use ${ALERT_KINDS.join(', ')}.` };
  return { kinds: ALERT_KINDS.filter((kind) => values.includes(kind)) };
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One event in words, e.g. "AAPL is a new bullish signal: C-Score 62.00 to 70.50". */
export function eventText(event: Pick<SignalEvent, 'ticker' | 'kind' | 'direction' | 'scoreBefore' | 'scoreAfter'>, withScores = true): string {
  const scores = withScores ? `: C-Score ${formatScore(event.scoreBefore)} to ${formatScore(event.scoreAfter)}` : '';
  switch (event.kind) {
    case 'entered':
      return `${event.ticker} is a new ${event.direction} signal${scores}`;
    case 'exited':
      return `${event.ticker} is no longer a ${event.direction} signal${scores}`;
    case 'reversed':
      return `${event.ticker} reversed to ${event.direction}${scores}`;
    case 'crossed':
      return `${event.ticker} crossed ${event.direction === 'bullish' ? `+${BULLISH_THRESHOLD}` : BEARISH_THRESHOLD} again, borderline${scores}`;
  }
}

/** The stock page of a ticker on the site. */
export function stockUrl(siteUrl: string, ticker: string): string {
  return new URL(`/signal/${encodeURIComponent(ticker)}`, siteUrl).href;
}

/**
 * Where an event links: a signal that opened on the report (new, reversed, crossed again) to its permalink
 * (/signal/{T}/{date}, the ledger's entry of that day), an exit to the stock page.
 */
export function eventUrl(siteUrl: string, event: Pick<SignalEvent, 'ticker' | 'reportDate' | 'kind'>): string {
  return event.kind === 'exited' ? stockUrl(siteUrl, event.ticker) : new URL(`/signal/${encodeURIComponent(event.ticker)}/${event.reportDate}`, siteUrl).href;
}

/** A stable address naming one event (the feeds' item ids): the stock page with the event in its fragment. */
export function eventId(siteUrl: string, event: Pick<SignalEvent, 'ticker' | 'reportDate' | 'kind'>): string {
  return `${stockUrl(siteUrl, event.ticker)}#${event.reportDate}-${event.kind}`;
}

/** The events the public feeds list: the day's new, exited and reversed signals (never the borderline ones). */
export function publicEvents(events: readonly SignalEvent[]): SignalEvent[] {
  return events.filter((event) => !event.borderline && event.kind !== 'crossed');
}

/** One digest mail, composed. */
export interface DigestMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe address (List-Unsubscribe). */
  unsubscribeUrl: string;
}


/** A saved screen's stocks that are new in it on the report: the digest lists them under the screen's name. */
export interface ScreenEntry {
  name: string;
  /** The screen's query: its link opens /screener with it. */
  query: string;
  tickers: readonly string[];
}

/**
 * The digest of one user's events of one report, and the stocks new in their alerting saved screens, in plain text and
 * HTML, with the links to the stock pages and the screens.
 */
export function composeDigest(input: {
  to: string;
  siteName: string;
  siteUrl: string;
  reportDate: string;
  events: readonly SignalEvent[];
  screens?: readonly ScreenEntry[];
  /** The user's own rules that fired, in words (src/lib/domain/alerts/rules.ts ruleEventText). */
  own?: readonly string[];
  unsubscribeUrl: string;
}): DigestMail {
  const { siteName, siteUrl, reportDate, events, unsubscribeUrl } = input;
  const screens = input.screens ?? [];
  const own = input.own ?? [];
  const total = events.length + own.length + screens.reduce((n, s) => n + s.tickers.length, 0);
  const count = total === 1 ? '1 signal alert' : `${total} signal alerts`;
  const subject = `${siteName}: ${count} for ${formatDate(reportDate)}`;
  const settingsUrl = new URL('/account#alerts', siteUrl).href;
  const intro = `Your watched stocks on the report of ${formatDate(reportDate)}:`;
  const lines = [...events.map((event) => `- ${capital(eventText(event))}\n  ${eventUrl(siteUrl, event)}`), ...own.map((line) => `- ${line}`)];
  const screenUrl = (screen: ScreenEntry) => new URL(`/screener?${screen.query}`, siteUrl).href;
  const screenLines = screens.flatMap((screen) => [
    `New in your screen "${screen.name}" (${screenUrl(screen)}):`,
    ...screen.tickers.map((ticker) => `- ${ticker}\n  ${stockUrl(siteUrl, ticker)}`),
    '',
  ]);
  const footer = [`Change your alerts: ${settingsUrl}`, `Unsubscribe from these emails: ${unsubscribeUrl}`];
  const text = [...(lines.length ? [intro, '', ...lines, ''] : []), ...screenLines, ...footer, ''].join('\n');
  const items =
    events.map((event) => `<li><a href="${escapeHtml(eventUrl(siteUrl, event))}">${escapeHtml(event.ticker)}</a>: ${escapeHtml(eventText(event).slice(event.ticker.length + 1))}</li>`).join('') +
    own.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
  const screenHtml = screens
    .map(
      (screen) =>
        `<p>New in your screen <a href="${escapeHtml(screenUrl(screen))}">${escapeHtml(screen.name)}</a>:</p><ul>${screen.tickers
          .map((ticker) => `<li><a href="${escapeHtml(stockUrl(siteUrl, ticker))}">${escapeHtml(ticker)}</a></li>`)
          .join('')}</ul>`,
    )
    .join('');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>` +
    (lines.length ? `<p>${escapeHtml(intro)}</p><ul>${items}</ul>` : '') +
    screenHtml +
    `<p><a href="${escapeHtml(settingsUrl)}">Change your alerts</a> · <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from these emails</a></p>` +
    '</body></html>';
  return { to: input.to, subject, text, html, unsubscribeUrl };
}
