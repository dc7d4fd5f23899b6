/**
 * /compare's view, plain DOM over the page's build markup (compare.astro): reads `t` from the address, has each
 * stock's static JSON (record, trend, track record) and daily bars loaded in a worker (./loader), and fills the
 * legend, the chart (./chart, which loads lightweight-charts itself) and the table. Adding or removing a stock
 * rewrites the address, so the view stays shareable. No UI framework: the page's load runs only this.
 */
import { fetchSearchIndex } from '../../lib/client/static-files';
import { PRO_FEATURES } from '../../lib/domain/accounts/entitlements';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import {
  COMPARE_MAX,
  COMPARE_PARAM,
  COMPARE_STYLES,
  compareHref,
  compareRow,
  compareWindow,
  firstSharedDay,
  parseCompareTickers,
  rebaseTo100,
  selectionNotice,
  withoutTicker,
  withTicker,
  type CompareSelection,
  type CompareStyle,
} from '../../lib/domain/signals/compare';
import type { CompareChartLine } from '../../lib/domain/signals/compare-chart';
import { searchTickers, type SearchEntry } from '../../lib/domain/signals/search';
import { formatHitRate } from '../../lib/domain/track-record/track-record';
import { formatDate, formatScore, formatSignedScore } from '../../lib/domain/text/format';
import { openPaywall } from '../../stores/paywall';
import { element } from '../dom';
import { createCompareChart } from './chart';
import type { Loaded } from './load';
import { compareLoader } from './loader';

type Ready = Extract<Loaded, { state: 'ready' }>;

const SVG = 'http://www.w3.org/2000/svg';

/** A stock's line as the legend and the table show it: a short stroke in its dash, and its marker. */
function marker(style: CompareStyle): HTMLElement {
  const box = element('span', '', { class: 'cmp-marker', 'aria-hidden': 'true' });
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ width: '28', height: '10', viewBox: '0 0 28 10' })) svg.setAttribute(name, value);
  const line = document.createElementNS(SVG, 'line');
  for (const [name, value] of Object.entries({ x1: '1', y1: '5', x2: '27', y2: '5', stroke: style.color, 'stroke-width': '2.5' })) line.setAttribute(name, value);
  if (style.dash) line.setAttribute('stroke-dasharray', style.dash);
  svg.append(line);
  const sign = element('span', style.marker);
  sign.style.color = style.color;
  box.append(svg, sign);
  return box;
}

/** Puts `nodes` in `parent` in this order, moving or replacing only the children that differ. */
function syncChildren(parent: HTMLElement, nodes: readonly Node[]): void {
  nodes.forEach((node, i) => {
    if (parent.childNodes[i] !== node) parent.insertBefore(node, parent.childNodes[i] ?? null);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild!.remove();
}

/** The node cached for `ticker` while its `key` is the same, else a new one from `build`. */
function reuse(cache: Map<string, { key: string; node: HTMLElement }>, ticker: string, key: string, build: () => HTMLElement): HTMLElement {
  const hit = cache.get(ticker);
  if (hit?.key === key) return hit.node;
  const node = build();
  cache.set(ticker, { key, node });
  return node;
}

function stockLink(ticker: string, className: string): HTMLElement {
  return element('a', ticker, { class: className, href: `/signal/${ticker}` });
}

/** The table's cells of a stock whose record came. */
function rowCells(record: SignalRecord, hit: Ready['hit']): HTMLElement[] {
  const row = compareRow(record);
  const num = (text: string) => element('td', text, { class: 'num' });
  const score = element('td', `${formatScore(row.cScore)} `, { class: 'num', 'data-testid': 'compare-cscore' });
  score.append(element('span', row.signal, { class: `badge badge-${row.direction}` }));
  return [
    score,
    num(formatSignedScore(row.change)),
    num(formatScore(row.delta)),
    num(formatScore(row.market)),
    num(formatScore(row.accuracy)),
    num(formatScore(row.relevance)),
    num(formatScore(row.avg7)),
    num(formatScore(row.avg14)),
    num(`${row.days7} of 7, ${row.days14} of 14`),
    element('td', row.sector ?? '—'),
    num(hit === null || hit.resolved === 0 ? '—' : `${formatHitRate(hit.hitRate)} of ${hit.resolved}`),
  ];
}

/** The cell that stands for the eleven figures of a stock that is not ready. */
function pendingCell(ticker: string, data: Exclude<Loaded, Ready>): HTMLElement {
  const cell = element('td', '', { colspan: '11' });
  if (data.state === 'loading') cell.append(element('span', `Loading ${ticker}...`, { class: 'muted' }));
  else if (data.state === 'unknown') cell.append(element('span', `${ticker} is not in the latest report.`));
  else if (data.state === 'error') cell.append(element('span', `Could not load ${ticker}: ${data.message}`));
  else {
    const text = element('span', '🔒 A top signal: its scores are part of Pro. ');
    const upgrade = element('button', 'Upgrade to Pro', { type: 'button', class: 'btn btn-primary' });
    upgrade.addEventListener('click', () => openPaywall(PRO_FEATURES.topStockDetails));
    text.append(upgrade);
    cell.append(text);
  }
  return cell;
}

/** Brings the comparison in `root` (the page's `.cmp` markup) to life for the address's tickers. */
export function mountCompare(root: HTMLElement, { reportDate }: { reportDate: string }): void {
  const part = <T extends HTMLElement>(name: string) => root.querySelector<T>(`[data-part="${name}"]`)!;
  const chartTitle = part('chart-title');
  const figure = part('figure');
  const stocksTitle = part('stocks-title');
  const stocksCard = part('stocks');
  const legend = part<HTMLUListElement>('legend');
  const form = part<HTMLFormElement>('add');
  const input = form.querySelector('input')!;
  const body = part('table').querySelector('tbody')!;
  const loadStock = compareLoader();
  const chart = createCompareChart(figure);
  const empty = element('p', '', { class: 'muted', 'data-testid': 'compare-chart-empty' });
  const notice = element('p', '', { class: 'cmp-notice', role: 'status', 'data-testid': 'compare-notice' });
  const noneYet = element('p', `No stocks chosen yet: add up to ${COMPARE_MAX} with the search below.`, { class: 'muted text-sm' });
  const full = element('p', `${COMPARE_MAX} stocks is the most a comparison shows: remove one to add another.`, { class: 'muted text-sm' });
  // Each stock's legend line and table row are built again only when its place, state or name changes: a settling
  // stock redraws its own row, not the whole table.
  const legendItems = new Map<string, { key: string; node: HTMLElement }>();
  const tableRows = new Map<string, { key: string; node: HTMLElement }>();
  const markers = COMPARE_STYLES.map(marker);
  const matchList = element('ul', '', { class: 'cmp-matches', 'aria-label': 'Matching stocks' });
  const noMatch = element('p', '', { class: 'muted text-sm' });

  const span = compareWindow(reportDate, new Date().toISOString().slice(0, 10));
  chartTitle.textContent = `C-Score and price, ${formatDate(span.from)} to ${formatDate(span.to)}`;
  let selection: CompareSelection = parseCompareTickers(new URLSearchParams(location.search).get(COMPARE_PARAM));
  const loaded = new Map<string, Loaded>();
  let index: SearchEntry[] | null = null;
  let chartTimer: ReturnType<typeof setTimeout> | undefined;

  const tickers = () => selection.tickers;
  const dataOf = (ticker: string): Loaded => loaded.get(ticker) ?? { state: 'loading' };
  const names = () => new Map((index ?? []).map(([t, name]) => [t, name]));
  const nameOf = (ticker: string, data: Loaded) => (data.state === 'ready' ? data.record.companyName : data.state === 'locked' ? data.companyName : (names().get(ticker) ?? ''));
  const matchesIn = (list: readonly SearchEntry[]) => (input.value.trim() !== '' ? searchTickers(list, input.value).filter(([t]) => !tickers().includes(t)) : []);

  const change = (next: string[]) => {
    selection = { tickers: next, malformed: selection.malformed, dropped: [] };
    history.replaceState(history.state, '', compareHref(next));
    input.value = '';
    loadMissing();
    render();
  };

  const renderMatches = () => {
    const matches = index ? matchesIn(index) : [];
    matchList.replaceChildren(
      ...matches.map(([t, name]) => {
        const item = element('li');
        const add = element('button', 'Add ', { type: 'button', class: 'cmp-match' });
        add.append(element('strong', t), ' ', element('span', name, { class: 'muted' }));
        add.addEventListener('click', () => change(withTicker(tickers(), t)));
        item.append(add);
        return item;
      }),
    );
    if (matches.length > 0) form.append(matchList);
    else matchList.remove();
    noMatch.textContent = `No stock matches "${input.value.trim()}".`;
    if (index && input.value.trim() !== '' && matches.length === 0) form.append(noMatch);
    else noMatch.remove();
  };

  const render = () => {
    const shown = tickers().map((ticker, i) => ({ ticker, style: COMPARE_STYLES[i]!, data: dataOf(ticker) }));
    const ready = shown.filter((s): s is typeof s & { data: Ready } => s.data.state === 'ready');
    const allSettled = shown.every((s) => s.data.state !== 'loading');
    root.setAttribute('data-state', allSettled ? 'ready' : 'loading');

    const lines: CompareChartLine[] = ready.map((s) => ({ ticker: s.ticker, style: s.style, scores: s.data.scores, closes: s.data.closes }));
    // Every line's price starts at 100 on the first day all of them have a close.
    const firstDay = firstSharedDay(lines.map((l) => l.closes.filter((c) => c.date >= span.from))) ?? span.from;
    const rebased = lines.map((l) => ({ ...l, closes: rebaseTo100(l.closes, firstDay) }));
    if (allSettled && lines.length === 0) {
      empty.textContent = tickers().length === 0 ? 'Add a stock to draw its C-Score and price.' : 'None of these stocks has data to draw: see the notes above and the table.';
      clearTimeout(chartTimer);
      figure.hidden = true;
      figure.before(empty);
    } else {
      empty.remove();
      figure.hidden = false;
      // The drawing is built in a task of its own: with the table's rows in the same task it would make one long task.
      const demo = ready.some((s) => s.data.isDemo);
      clearTimeout(chartTimer);
      chartTimer = setTimeout(() => chart.update(rebased, allSettled, demo), 0);
    }

    const unknown = tickers().filter((t) => dataOf(t).state === 'unknown');
    const message = selectionNotice(selection, unknown);
    if (message) {
      notice.textContent = message;
      stocksCard.before(notice);
    } else notice.remove();

    stocksTitle.textContent = `Stocks (${tickers().length} of ${COMPARE_MAX})`;
    if (tickers().length === 0) legend.before(noneYet);
    else noneYet.remove();
    const keyOf = (i: number, ticker: string, data: Loaded) => `${i}|${data.state}|${nameOf(ticker, data)}`;
    syncChildren(
      legend,
      shown.map(({ ticker, style, data }, i) =>
        reuse(legendItems, ticker, keyOf(i, ticker, data), () => {
          const item = element('li', '', { 'data-t': ticker });
          item.append(markers[i]!.cloneNode(true), data.state === 'unknown' ? element('span', ticker, { class: 'font-semibold' }) : stockLink(ticker, 'link font-semibold'), ' ', element('span', nameOf(ticker, data), { class: 'muted' }));
          if (data.state === 'unknown') item.append(element('span', ' not in the latest report', { class: 'cmp-flag' }));
          if (data.state === 'locked') item.append(element('span', ' locked: Pro', { class: 'cmp-flag' }));
          item.append(element('span', `, ${style.markerName} marker`, { class: 'sr-only' }));
          const remove = element('button', '×', { type: 'button', class: 'cmp-remove', 'aria-label': `Remove ${ticker}` });
          remove.addEventListener('click', () => change(withoutTicker(tickers(), ticker)));
          item.append(remove);
          return item;
        }),
      ),
    );
    if (tickers().length < COMPARE_MAX) {
      full.remove();
      stocksCard.append(form);
      renderMatches();
    } else {
      form.remove();
      stocksCard.append(full);
    }

    syncChildren(
      body,
      shown.map(({ ticker, data }, i) =>
        reuse(tableRows, ticker, keyOf(i, ticker, data), () => {
          const row = element('tr', '', { 'data-t': ticker, 'data-state': data.state });
          const head = element('th', '', { scope: 'row' });
          head.append(markers[i]!.cloneNode(true), ' ', data.state === 'unknown' ? ticker : stockLink(ticker, 'link'), element('span', nameOf(ticker, data), { class: 'cmp-co muted' }));
          row.append(head, ...(data.state === 'ready' ? rowCells(data.record, data.hit) : [pendingCell(ticker, data)]));
          return row;
        }),
      ),
    );
  };

  const loadMissing = () => {
    for (const ticker of tickers()) {
      if (loaded.has(ticker)) continue;
      loaded.set(ticker, { state: 'loading' });
      void loadStock(ticker, span).then((result) => {
        loaded.set(ticker, result);
        render();
      });
    }
  };

  // The search index loads when the search box is first used: the comparison itself never needs it.
  input.addEventListener('focus', () => {
    if (index === null)
      fetchSearchIndex().then(
        (list) => ((index = list), renderMatches()),
        () => ((index = []), renderMatches()),
      );
  });
  input.addEventListener('input', renderMatches);
  // Enter adds the first match, also when it comes before the index has loaded.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const list = index ?? (await fetchSearchIndex().catch(() => []));
      index ??= list;
      const first = matchesIn(list)[0];
      if (first) change(withTicker(tickers(), first[0]));
    })();
  });

  // The requests first; the first rendering in a task of its own, so the island's start is no long task.
  loadMissing();
  setTimeout(render, 0);
}
