/**
 * The locked part of a page with PAYWALL=on. Its upgrade buttons open the paywall with the feature's name (skipped
 * for a signed-in Pro user, stores/paywall.ts). For a signed-in Pro user, once the shell has loaded the user (after first paint), the full list
 * comes from /api/pro/lists/{list} and its rows replace the free slice in the page's table; the table code
 * (./table.ts) reads them again, so sorting, filtering and the row window keep working. Loaded only by pages that
 * have something locked.
 */
import { formatDate, formatScore, formatSignedScore } from '../../lib/domain/text/format';
import { recentlyQualifiedCells, rowMarkers, type SignalExit, type SignalReversal } from '../../lib/domain/signals/lists';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import { classifySignal, scoreChange, signalDirection, trendDirection, type SignalDirection } from '../../lib/domain/signals/signal';
import { TREND_ARROW } from '../../components/tone';
import { openPaywall } from '../../stores/paywall';
import { $user } from '../../stores/user';
import { showRowStar } from './stars';
import { heatmapLayout } from '../../lib/domain/signals/heatmap';
import { heatmapIndexHtml, heatmapSectorsHtml } from '../../components/heatmap-markup';
import { listCloseDate, listPriceCell, type ListPrice, type PriceSource } from '../../lib/domain/signals/list-price';
import { proList, proStockRecord, type ProListName } from '../../lib/client/pro';

/** The event the table code listens for: the table's body rows were replaced. */
export const ROWS_REPLACED = 'table-rows-replaced';

/** An extra cell after the ticker, as components/SignalTable.astro renders it. */
interface ExtraCell {
  text: string;
  sortValue?: string;
  badge?: SignalDirection;
}
interface Row {
  record: SignalRecord;
  extra?: ExtraCell[];
}
/** The rows of one table of the page: its id, its rows, and whether it shows the C-Score column only. */
interface TableRows {
  id: string;
  rows: Row[];
  compact?: boolean;
}

const LABEL: Record<SignalDirection, string> = { bullish: 'Bullish', bearish: 'Bearish', neutral: 'Neutral' };

function eventRows(events: (SignalExit | SignalReversal)[], records: Map<string, SignalRecord>): Row[] {
  return events.flatMap((e) => {
    const record = records.get(e.ticker);
    return record
      ? [{ record, extra: [{ text: LABEL[e.from], badge: e.from }, { text: LABEL[e.to], badge: e.to }, { text: formatDate(e.date), sortValue: e.date }] }]
      : [];
  });
}

/** A Pro list's answer, as the server types it: one of the lists' shapes. */
type ProAnswer = NonNullable<Awaited<ReturnType<typeof proList>>>;
/** The list's shape among them, by the fields only it has (a field renamed on the server fails the type check here). */
type ListAnswer<K extends string> = Extract<ProAnswer, Record<K, unknown>>;

/** Each Pro list's answer (/api/pro/lists/{list}) as the rows of the page's tables. */
const PRO_TABLES: Partial<Record<ProListName, (body: ProAnswer) => TableRows[]>> = {
  'all-signals': (body) => [{ id: 'all-signals', rows: (body as ListAnswer<'rows' | 'prices'>).rows.map((record) => ({ record })) }],
  'currently-qualified': (body) => [{ id: 'currently-qualified', rows: (body as ListAnswer<'rows' | 'prices'>).rows.map((record) => ({ record })) }],
  'recently-qualified': (body) => {
    const { newToday, recent } = body as ListAnswer<'newToday' | 'recent'>;
    const isNew = new Set(newToday.map((r) => r.ticker));
    return [{ id: 'recent', rows: recent.map((signal) => ({ record: signal.record, extra: recentlyQualifiedCells(signal, isNew.has(signal.record.ticker)) })) }];
  },
  'reversals-exits': (body) => {
    const { reversals, exits, records } = body as ListAnswer<'reversals' | 'exits' | 'records'>;
    const byTicker = new Map(records.map((r) => [r.ticker, r]));
    return [
      { id: 'reversals-table', rows: eventRows(reversals, byTicker), compact: true },
      { id: 'exits-table', rows: eventRows(exits, byTicker), compact: true },
    ];
  },
};

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/** The prices of the Pro answer's rows, as the build puts them in the free rows. */
let listPrices: { prices: Record<string, ListPrice>; pricesSource: PriceSource; closeDate: string | null } = { prices: {}, pricesSource: 'none', closeDate: null };

/** The price cell of components/SignalTable.astro. */
function priceCell(ticker: string): HTMLTableCellElement {
  const price = listPriceCell(listPrices.prices[ticker], listPrices.pricesSource, listPrices.closeDate);
  const td = document.createElement('td');
  td.dataset.v = price.sortValue;
  if (price.title !== null) td.title = price.title;
  const change = document.createElement('span');
  change.className = 'pc';
  change.textContent = price.change;
  // The change, the day and "demo" under the close, as components/SignalTable.astro has them.
  const sub = document.createElement('span');
  sub.className = 'pc-sub';
  sub.append(change);
  td.append(`${price.close} `, sub);
  if (price.date !== null) {
    const day = document.createElement('span');
    day.className = 'muted';
    day.textContent = ` ${price.date}`;
    sub.append(day);
  }
  if (price.demo) {
    const demo = document.createElement('span');
    demo.className = 'muted';
    demo.title = 'Demo prices';
    demo.textContent = ' demo';
    sub.append(demo);
  }
  return td;
}

/** One row as components/SignalTable.astro renders it. */
export function signalRow({ record: r, extra = [] }: Row, compact = false): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.t = r.ticker;
  row.dataset.s = r.sector ?? '';
  const starCell = document.createElement('td');
  const star = document.createElement('button');
  star.className = 'star';
  star.setAttribute('aria-pressed', 'false');
  star.setAttribute('aria-label', `Watch ${r.ticker}`);
  star.textContent = '☆';
  starCell.append(star);
  const tickerCell = document.createElement('td');
  const link = document.createElement('a');
  link.href = `/signal/${r.ticker}`;
  link.dataset.detailLink = '';
  link.dataset.top = String(r.isTopTicker);
  link.textContent = r.ticker;
  const company = document.createElement('span');
  company.className = 'co';
  company.textContent = r.companyName;
  const markers = rowMarkers(r).map((m) => {
    const mark = document.createElement('span');
    mark.className = `mk mk-${m.kind}`;
    mark.title = m.title;
    const spoken = document.createElement('span');
    spoken.className = 'sr-only';
    spoken.textContent = m.spoken;
    mark.append(m.text, spoken);
    return mark;
  });
  tickerCell.append(link, ...markers, company);
  const score = document.createElement('td');
  const badge = document.createElement('span');
  badge.className = `badge badge-${signalDirection(r.cScore)}`;
  badge.textContent = classifySignal(r.cScore);
  const trend = TREND_ARROW[trendDirection(r.cScore, r.yesterdayCScore)];
  const arrow = document.createElement('span');
  arrow.setAttribute('role', 'img');
  arrow.setAttribute('aria-label', trend.label);
  arrow.textContent = trend.mark;
  // The change since yesterday shows in the phone card; the table shows its arrow (as SignalTable.astro).
  const change = document.createElement('span');
  change.className = 'chg';
  const changeValue = document.createElement('span');
  changeValue.className = 'chg-v';
  changeValue.textContent = ` ${formatSignedScore(scoreChange(r.cScore, r.yesterdayCScore))}`;
  change.append(arrow, changeValue);
  score.append(`${formatScore(r.cScore)} `, badge, ' ', change);
  const extraCells = extra.map((e) => {
    const td = document.createElement('td');
    if (e.sortValue !== undefined) td.dataset.v = e.sortValue;
    if (e.badge) {
      const span = document.createElement('span');
      span.className = `badge badge-${e.badge}`;
      span.textContent = e.text;
      td.append(span);
    } else td.textContent = e.text;
    return td;
  });
  row.append(starCell, tickerCell, ...extraCells, score, priceCell(r.ticker));
  if (compact) return row;
  row.append(
    ...[r.deltaScore, r.marketScore, r.accuracyScore, r.relevanceScore, r.avgCScoreL7D, r.avgCScoreL14D].map((n) => cell(formatScore(n))),
    cell(`${r.countL7DWithSignal} of 7`),
    cell(`${r.countL14DWithSignal} of 14`),
  );
  return row;
}

const TABLE_OWN_COLUMNS = new Set(['watch', 'ticker', 'cScore', 'price', 'delta', 'market', 'accuracy', 'relevance', 'avg7', 'avg14', 'days7', 'days14']);

/** Gives each cell its column's class (`c-KEY`, and `c-extra` with its label for a list's own columns), from the header, as the build does: the phone cards and the column chooser place cells by them. */
function classifyCells(row: HTMLTableRowElement, table: HTMLTableElement): void {
  const heads = table.tHead?.rows[0]?.cells ?? [];
  [...row.cells].forEach((cell, i) => {
    const head = heads[i];
    const key = head?.dataset.key ?? (head?.classList.contains('c-watch') ? 'watch' : undefined);
    if (key === undefined) return;
    cell.classList.add(`c-${key}`);
    if (!TABLE_OWN_COLUMNS.has(key)) {
      cell.classList.add('c-extra');
      cell.dataset.label = head!.textContent?.trim() ?? '';
    }
  });
}

async function showProRows(list: ProListName, gate: HTMLElement): Promise<void> {
  const body = await proList(list);
  if (body === null) return;
  const priced = body as Partial<typeof listPrices>;
  const prices = priced.prices ?? {};
  listPrices = { prices, pricesSource: priced.pricesSource ?? 'none', closeDate: listCloseDate(Object.values(prices)) };
  for (const { id, rows, compact } of PRO_TABLES[list]!(body)) {
    const table = document.getElementById(id);
    if (!(table instanceof HTMLTableElement)) continue;
    const fresh = rows.map((row) => signalRow(row, compact));
    // A fragment, not replaceChildren(...fresh): a call with one argument per row overflows the stack at large reports.
    const rowsFragment = document.createDocumentFragment();
    for (const row of fresh) rowsFragment.append(row);
    table.tBodies[0]!.replaceChildren(rowsFragment);
    fresh.forEach((row) => classifyCells(row, table));
    fresh.forEach(showRowStar);
    const empty = table.parentElement?.querySelector<HTMLElement>('.table-empty:not([data-no-match])');
    if (empty) empty.hidden = fresh.length > 0;
    table.dispatchEvent(new CustomEvent(ROWS_REPLACED, { bubbles: true }));
  }
  gate.hidden = true;
}

/** The whole market's tiles in place of the heatmap's preview, sized by market cap as the build sizes them. */
async function showProHeatmap(gate: HTMLElement): Promise<void> {
  const body = (await proList('heatmap')) as ListAnswer<'rows' | 'caps'> | null;
  const index = document.querySelector<HTMLElement>('[data-heat-index]');
  const tiles = document.querySelector<HTMLElement>('[data-heat-sectors]');
  if (body === null || !index || !tiles) return;
  const sectors = heatmapLayout(body.rows, body.caps);
  index.innerHTML = heatmapIndexHtml(sectors);
  tiles.innerHTML = heatmapSectorsHtml(sectors);
  gate.hidden = true;
}

/** Renders a locked top ticker's cards in place of `gate` (islands/detail/mount-pro-stock.ts, loaded with React on demand). */
export type MountProStock = (record: SignalRecord, gate: HTMLElement) => Promise<void>;

/** A locked top ticker's stock page: its cards (scores, trend, metrics) in place of the locked card. */
async function showProStock(ticker: string, gate: HTMLElement, mount: MountProStock): Promise<void> {
  const record = await proStockRecord(ticker);
  if (record !== null) await mount(record, gate);
}

/** What replaces the locked part of each page for a Pro user, or null when nothing does. */
function proContent(gate: HTMLElement, mountStock: MountProStock): (() => Promise<void>) | null {
  const list = gate.dataset.proList as ProListName | undefined;
  const ticker = gate.dataset.proStock;
  if (ticker) return () => showProStock(ticker, gate, mountStock);
  if (list === 'heatmap') return () => showProHeatmap(gate);
  if (list && PRO_TABLES[list]) return () => showProRows(list, gate);
  return null;
}

/** Wires the upgrade buttons, and puts the Pro content in place for a signed-in Pro user (`mountStock`: the stock page's cards). */
export function startProGate(mountStock: MountProStock): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-paywall-feature]')) {
    button.addEventListener('click', () => openPaywall(button.dataset.paywallFeature ?? 'Pro'));
  }
  const gate = document.querySelector<HTMLElement>('[data-pro-gate]');
  const show = gate ? proContent(gate, mountStock) : null;
  if (!show) return;
  let asked = false;
  const unsubscribe = $user.subscribe((user) => {
    if (asked || user.status !== 'signed-in' || !user.isPremium) return;
    asked = true;
    queueMicrotask(() => unsubscribe());
    void show();
  });
}
