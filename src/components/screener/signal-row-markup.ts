/**
 * One row of the lists' table (components/SignalTable.astro, the full variant without extra columns) as an HTML
 * string, for the rows the static page cannot carry: a Pro account's screen with PAYWALL=on, rendered by the server
 * and sent to the page script. A test holds it to the build's own rows, character for character.
 */
import type { SignalRecord } from '../../lib/domain/report/schemas';
import { rowMarkers } from '../../lib/domain/signals/lists';
import type { listPriceCell } from '../../lib/domain/signals/list-price';
import { classifySignal, scoreChange, signalDirection, trendDirection } from '../../lib/domain/signals/signal';
import { formatScore, formatSignedScore } from '../../lib/domain/text/format';
import { escapeHtml } from '../../lib/domain/text/text';
import { TREND_ARROW } from '../tone';

/** An attribute as Astro writes one: & and " escaped, an empty value as the bare name, none for null. */
function attr(name: string, value: string | null): string {
  if (value === null) return '';
  if (value === '') return ` ${name}`;
  return ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
}

/** The row of `r`, with its price cell as the page's Close column shows it. */
export function signalRowHtml(r: SignalRecord, price: ReturnType<typeof listPriceCell>): string {
  const trend = TREND_ARROW[trendDirection(r.cScore, r.yesterdayCScore)];
  const markers = rowMarkers(r)
    .map((m) => `<span${attr('class', `mk mk-${m.kind}`)}${attr('title', m.title)}>${escapeHtml(m.text)}<span class="sr-only">${escapeHtml(m.spoken)}</span></span>`)
    .join('');
  const cell = (key: string, text: string) => `<td class="c-${key}">${escapeHtml(text)}</td>`;
  return (
    `<tr${attr('data-t', r.ticker)}${attr('data-s', r.sector ?? '')}>` +
    `<td class="c-watch"><button class="star" aria-pressed="false"${attr('aria-label', `Watch ${r.ticker}`)}>☆</button></td>` +
    `<td class="c-ticker"><a${attr('href', `/signal/${r.ticker}`)} data-detail-link${attr('data-top', String(r.isTopTicker))}>${escapeHtml(r.ticker)}</a>${markers}<span class="co">${escapeHtml(r.companyName)}</span></td>` +
    `<td class="c-cScore">${escapeHtml(formatScore(r.cScore))} <span${attr('class', `badge badge-${signalDirection(r.cScore)}`)}>${escapeHtml(classifySignal(r.cScore))}</span> ` +
    `<span class="chg"><span role="img"${attr('aria-label', trend.label)}>${escapeHtml(trend.mark)}</span><span class="chg-v"> ${escapeHtml(formatSignedScore(scoreChange(r.cScore, r.yesterdayCScore)))}</span></span></td>` +
    `<td class="c-price"${attr('data-v', price.sortValue)}${attr('title', price.title)}>${escapeHtml(price.close)} <span class="pc-sub"><span class="pc">${escapeHtml(price.change)}</span>` +
    `${price.date ? `<span class="muted"> ${escapeHtml(price.date)}</span>` : ''}${price.demo ? '<span class="muted" title="Demo prices"> demo</span>' : ''}</span></td>` +
    cell('delta', formatScore(r.deltaScore)) +
    cell('market', formatScore(r.marketScore)) +
    cell('accuracy', formatScore(r.accuracyScore)) +
    cell('relevance', formatScore(r.relevanceScore)) +
    cell('avg7', formatScore(r.avgCScoreL7D)) +
    cell('avg14', formatScore(r.avgCScoreL14D)) +
    cell('days7', `${r.countL7DWithSignal} of 7`) +
    cell('days14', `${r.countL14DWithSignal} of 14`) +
    `</tr>`
  );
}
