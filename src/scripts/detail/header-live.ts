/**
 * The live part of the detail header: price and change, earnings badge, copy-link and watch buttons. Plain DOM code,
 * without React, so the stock page's first screen loads no framework at all: the page renders `HEADER_LIVE_HTML` at
 * build time and its page script calls `mountHeaderLive` after the first paint; the detail modal (React) mounts the
 * same code into an empty element, with `modal` for its earnings forms.
 */
import type { FetcherValue } from '@nanostores/query';
import { earningsStore, isLoading, quoteStore, stockRecordStore } from '../../lib/client/query';
import { earningsBadgeText } from '../../lib/domain/signals/detail';
import { formatChange, formatDate, formatPercent, formatPrice, formatShortDate } from '../../lib/domain/text/format';
import type { Earnings, Quote } from '../../lib/domain/market-data/market';
import { escapeHtml } from '../../lib/domain/text/text';
import { element } from '../dom';
import { showToast } from '../../stores/toast';
import { $watchedSet, toggleWatch } from '../../stores/watchlist';
import { $user } from '../../stores/user';
import { $alertSettings, loadAlertSettings, setAlertsEnabled } from '../../stores/alerts';

/** The own-rules part of the Alerts panel: loaded the first time the panel opens, not with the page. */
let rulesPart: typeof import('../alert-rules') | null = null;

/** The rules' nodes once their module is here; until then a line saying they load. */
function alertRuleNodes(ticker: string): Node[] {
  return rulesPart ? rulesPart.alertRuleNodes(ticker) : [element('p', 'Loading your alert rules…')];
}

/** Spec section 9: the URL-copied toast shows for about 2 s. */
const COPIED_TOAST_MS = 2000;

const LOADING_PRICE = '<span class="skeleton inline-block h-6 w-36" aria-label="Loading price"></span>';
const UP = 'text-green-700 dark:text-green-400';
const DOWN = 'text-red-700 dark:text-red-400';

const EARNINGS_BADGE_CLASS = 'badge bg-blue-100 text-blue-900 dark:bg-blue-900/40 dark:text-blue-200';

const HEADER_BUTTONS =
  '<button type="button" class="btn whitespace-nowrap" data-part="copy" aria-label="Copy link to this page">Copy link</button>' +
  '<button type="button" class="btn whitespace-nowrap" aria-pressed="false" data-part="watch" data-testid="watch-toggle"><span aria-hidden="true">☆</span> Watch</button>' +
  '<button type="button" class="btn whitespace-nowrap" aria-expanded="false" data-part="alerts-toggle" data-testid="alerts-toggle">Alerts</button>' +
  '<div class="alerts-panel" role="region" aria-label="Alerts" aria-live="polite" data-part="alerts" data-testid="alerts-panel" hidden></div>' +
  '</div></div>';

/**
 * The header's markup while its data loads. Below 640 px the price takes a row of its own (28 px, the loaded price
 * line) and the buttons the next (a button that does not fit moves whole to a further line, its label never breaks), whether the quote is loading or shown, so loading it shifts nothing. The stock page
 * passes the earnings badge's text from the build (the daily job's calendar), so the badge is there at first paint.
 */
export function headerLiveHtml(earnings: string | null = null): string {
  return (
    '<div class="flex min-h-19 flex-wrap items-center gap-x-4 gap-y-2 sm:min-h-9">' +
    `<div class="flex min-h-7 min-w-40 basis-full items-baseline gap-2 sm:basis-auto" aria-live="polite" data-part="price">${LOADING_PRICE}</div>` +
    '<div class="relative ml-auto flex flex-wrap items-center justify-end gap-2">' +
    (earnings === null ? '' : `<span class="${EARNINGS_BADGE_CLASS}" data-testid="earnings-badge">${escapeHtml(earnings)}</span>`) +
    HEADER_BUTTONS
  );
}

function span(className: string, text: string, testId?: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  if (testId) element.dataset.testid = testId;
  return element;
}

/** The price line's nodes for a quote: price, coloured change with an arrow (colour is never the only signal), demo badge. */
function priceNodes(quote: Quote): Node[] {
  if (quote.regularMarketPrice === undefined) return [];
  const change = quote.regularMarketChange;
  const tone = change === undefined || change === 0 ? 'muted' : change > 0 ? UP : DOWN;
  const arrow = change === undefined || change === 0 ? '' : change > 0 ? '▲ ' : '▼ ';
  const nodes: Node[] = [
    span('text-xl font-semibold tabular-nums', formatPrice(quote.regularMarketPrice), 'header-price'),
    span(`text-sm tabular-nums ${tone}`, `${arrow}${formatChange(change)} (${formatPercent(quote.regularMarketChangePercent)})`, 'header-change'),
  ];
  if (quote.sessionDate !== undefined) {
    // The price card below shows the session's date; here it is told without widening the line the header sized for it.
    const session = `as of ${formatDate(quote.sessionDate)}`;
    (nodes[0] as HTMLElement).title = session;
    nodes.splice(1, 0, span('sr-only', session, 'header-session'));
  }
  if (quote.isDemo) nodes.push(span('badge bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200', 'Demo price'));
  return nodes;
}

/**
 * Spec section 2: the page shows 'Earnings: Jan 5, 2025' only when a date exists; the modal shows the short date,
 * 'No Earnings Scheduled' or 'Earnings: Loading'.
 */
function earningsText(earnings: FetcherValue<Earnings>, modal: boolean): string | null {
  const date = earnings.data?.earningsAvailable ? (earnings.data.earningsDate ?? earnings.data.nextEarningsDate) : null;
  if (!modal) return earningsBadgeText(date, formatDate);
  if (isLoading(earnings)) return 'Earnings: Loading';
  return earningsBadgeText(date, formatShortDate) ?? 'No Earnings Scheduled';
}

/**
 * The watch button's Alerts section: signed out, an offer to sign in; signed in, whether the email alerts
 * of the watchlist are on, with the button that turns them on or off and the link to the settings on /account.
 */
function alertNodes(ticker: string, watched: boolean, onToggle: (enabled: boolean) => void): Node[] {
  const user = $user.get();
  const settingsLink = () => element('a', 'Alert settings', { href: '/account#alerts', class: 'link' });
  const about = `Get an email when ${ticker} starts, stops or reverses a signal.`;
  if (user.status === 'loading') return [element('p', 'Checking your account…')];
  if (user.status === 'signed-out') {
    const returnTo = encodeURIComponent(location.pathname);
    return [element('p', about), element('a', 'Sign in for email alerts', { href: `/login?returnTo=${returnTo}`, class: 'btn btn-primary' })];
  }
  const state = $alertSettings.get();
  if (state.status === 'idle' || state.status === 'loading') return [element('p', 'Loading your alert settings…')];
  if (state.status === 'failed') return [element('p', `Error: ${state.message}`)];
  if (state.status !== 'ready') return [];
  const { settings } = state;
  if (settings.proOnly && !settings.isPremium) return [element('p', `Email alerts are part of Pro. ${about}`), element('a', 'See the Pro plan', { href: '/account', class: 'btn' }), ...alertRuleNodes(ticker)];
  const nodes: Node[] = [];
  if (!watched) nodes.push(element('p', `Alerts cover the stocks you watch: press Watch to add ${ticker}.`));
  if (settings.enabled) {
    nodes.push(element('p', `Email alerts are on for your watchlist${watched ? `, ${ticker} included` : ''}.`));
    const off = element('button', 'Turn off email alerts', { type: 'button', class: 'btn' });
    off.addEventListener('click', () => onToggle(false));
    nodes.push(off);
  } else {
    nodes.push(element('p', `${about} Email alerts are off.`));
    const on = element('button', 'Turn on email alerts', { type: 'button', class: 'btn btn-primary' });
    on.addEventListener('click', () => onToggle(true));
    nodes.push(on);
  }
  nodes.push(settingsLink());
  return [...nodes, ...alertRuleNodes(ticker)];
}

async function copyLink(): Promise<void> {
  try {
    await navigator.clipboard.writeText(location.href);
    showToast({ title: 'URL copied', durationMs: COPIED_TOAST_MS });
  } catch {
    showToast({ title: 'Could not copy the URL', description: 'Copy it from the address bar instead.', variant: 'destructive', durationMs: COPIED_TOAST_MS });
  }
}

/** Copies an embed snippet, saying whether it worked. */
export async function copySnippet(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ title: 'Snippet copied', durationMs: COPIED_TOAST_MS });
  } catch {
    showToast({ title: 'Could not copy the snippet', description: 'Select it and copy it instead.', variant: 'destructive', durationMs: COPIED_TOAST_MS });
  }
}

type Stop = () => void;

/** The header's parts in `root`, the alerts panel named for its toggle. */
function headerParts(root: HTMLElement, ticker: string, modal: boolean) {
  const part = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[data-part="${name}"]`)!;
  const parts = {
    priceLine: part('price'),
    copy: part<HTMLButtonElement>('copy'),
    watch: part<HTMLButtonElement>('watch'),
    alertsToggle: part<HTMLButtonElement>('alerts-toggle'),
    alertsPanel: part<HTMLDivElement>('alerts'),
    // The earnings badge is in the header only while it has something to say.
    badge: root.querySelector<HTMLSpanElement>('[data-testid="earnings-badge"]') ?? span(EARNINGS_BADGE_CLASS, '', 'earnings-badge'),
  };
  parts.alertsPanel.id ||= `alerts-panel-${ticker}${modal ? '-dialog' : ''}`;
  parts.alertsToggle.setAttribute('aria-controls', parts.alertsPanel.id);
  return parts;
}
type HeaderParts = ReturnType<typeof headerParts>;

/** The price line, from the quote store. */
function followQuote(ticker: string, priceLine: HTMLElement): Stop {
  let shownQuote: Quote | undefined | null = null;
  return quoteStore(ticker).subscribe((quote: FetcherValue<Quote>) => {
    if (isLoading(quote)) return;
    // Only a new answer redraws the line, so a screen reader hears a price once.
    if (quote.data === shownQuote) return;
    shownQuote = quote.data;
    priceLine.replaceChildren(...(quote.data ? priceNodes(quote.data) : []));
  });
}

/** The earnings badge, from the earnings store. */
function followEarnings(ticker: string, { badge, copy }: HeaderParts, modal: boolean): Stop {
  return earningsStore(ticker).subscribe((earnings: FetcherValue<Earnings>) => {
    // The page's badge from the build stays while the live answer loads, so nothing shifts.
    if (!modal && isLoading(earnings)) return;
    const text = earningsText(earnings, modal);
    if (text === null) {
      badge.remove();
      return;
    }
    badge.textContent = text;
    // Beside the buttons, on the right: the price growing as it loads moves nothing.
    if (!badge.isConnected) copy.before(badge);
  });
}

/** The copy-link button. */
function wireCopy(copy: HTMLButtonElement): Stop {
  const onCopy = () => void copyLink();
  copy.addEventListener('click', onCopy);
  return () => copy.removeEventListener('click', onCopy);
}

/**
 * The Alerts section: its toggle, Escape and a click outside close it; it is redrawn when the watchlist, the user or
 * the alert settings change. Answers the function that opens or closes it (the watch button offers it).
 */
function wireAlerts(root: HTMLElement, { alertsPanel, alertsToggle, watch }: HeaderParts, ticker: string): { openAlerts: (open: boolean) => void; stop: Stop } {
  const showAlerts = () => {
    if (alertsPanel.hidden) return;
    const focused = alertsPanel.contains(document.activeElement);
    alertsPanel.replaceChildren(...alertNodes(ticker, $watchedSet.get().has(ticker), (enabled) => void setAlertsEnabled(enabled)));
    // A redrawn panel keeps the keyboard in it.
    if (focused) alertsPanel.querySelector<HTMLElement>('button, a')?.focus();
  };
  let rulesWatched = false;
  let stopped = false;
  const openAlerts = (open: boolean) => {
    alertsPanel.hidden = !open;
    alertsToggle.setAttribute('aria-expanded', String(open));
    if (open && $user.get().status === 'signed-in') void loadAlertSettings();
    if (open && !rulesWatched) {
      rulesWatched = true;
      void import('../alert-rules').then((part) => {
        rulesPart = part;
        if (stopped) return;
        stops.push(part.onRulesChange(showAlerts));
        showAlerts();
      });
    }
    showAlerts();
  };
  const onAlertsToggle = () => openAlerts(alertsPanel.hidden);
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || alertsPanel.hidden) return;
    openAlerts(false);
    alertsToggle.focus();
  };
  const onOutside = (event: MouseEvent) => {
    // The path as dispatched: a button the panel redrew on this click is no longer inside it.
    const path = event.composedPath();
    if (!alertsPanel.hidden && ![alertsPanel, alertsToggle, watch].some((part) => path.includes(part))) openAlerts(false);
  };
  alertsToggle.addEventListener('click', onAlertsToggle);
  root.addEventListener('keydown', onKey);
  document.addEventListener('click', onOutside);
  const stops = [$watchedSet.listen(showAlerts), $user.listen(() => openAlerts(!alertsPanel.hidden)), $alertSettings.listen(showAlerts)];
  const stop = () => {
    stopped = true;
    stops.forEach((s) => s());
    alertsToggle.removeEventListener('click', onAlertsToggle);
    root.removeEventListener('keydown', onKey);
    document.removeEventListener('click', onOutside);
  };
  return { openAlerts, stop };
}

/** The watch button, in step with the watchlist; watching a stock offers its alerts, unless they are on already. */
function wireWatch(watch: HTMLButtonElement, ticker: string, openAlerts: (open: boolean) => void): Stop {
  const onWatch = () => {
    const settings = $alertSettings.get();
    if (toggleWatch(ticker) === 'added' && !(settings.status === 'ready' && settings.settings.enabled)) openAlerts(true);
  };
  watch.addEventListener('click', onWatch);
  const stopWatching = $watchedSet.subscribe((watched) => {
    const on = watched.has(ticker);
    watch.setAttribute('aria-pressed', String(on));
    watch.firstElementChild!.textContent = on ? '★' : '☆';
    watch.lastChild!.textContent = on ? ' Watching' : ' Watch';
  });
  return () => {
    stopWatching();
    watch.removeEventListener('click', onWatch);
  };
}

/**
 * A page left open overnight: from the first time the tab shows again, the record is read (the store fetches it
 * then, and again each time the tab shows); when a newer report exists, the new day's page loads.
 */
function reloadOnNewerReport(ticker: string, reportDate: string): Stop {
  let stopRecord: Stop | null = null;
  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', onVisible);
    stopRecord = stockRecordStore(ticker).subscribe(({ data }) => {
      if (data && data.reportDate > reportDate) location.reload();
    });
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    stopRecord?.();
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * Brings the live header to life in `root` (filled with `HEADER_LIVE_HTML` first when empty): reads the quote and the
 * earnings date from their stores, keeps the watch button in step with the watchlist, and, on the page (not the
 * modal, which reads the record itself), loads the new day's page when the tab shows again and a newer report
 * exists. Returns the function that stops it all.
 */
export function mountHeaderLive(root: HTMLElement, { ticker, reportDate, modal = false }: { ticker: string; reportDate: string; modal?: boolean }): () => void {
  if (!root.firstElementChild) root.innerHTML = headerLiveHtml();
  const parts = headerParts(root, ticker, modal);
  const alerts = wireAlerts(root, parts, ticker);
  const stops = [
    followQuote(ticker, parts.priceLine),
    followEarnings(ticker, parts, modal),
    wireCopy(parts.copy),
    wireWatch(parts.watch, ticker, alerts.openAlerts),
    alerts.stop,
  ];
  if (!modal) stops.push(reloadOnNewerReport(ticker, reportDate));
  return () => stops.forEach((stop) => stop());
}
