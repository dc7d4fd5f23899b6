/**
 * The Stock Not Found screen for one address (/signal/NVDAA) without JavaScript: the Node server fills the built
 * screen with the ticker asked for (also in its search box) and the closest tickers of the report, as the page's
 * script does in the browser (scripts/stock-not-found.ts); on a CDN the script alone does it.
 */
import { formatScore } from './format';
import type { SearchEntry } from './search';
import { classifySignal, signalDirection } from './signal';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** One suggestion as the screen's script draws it: ticker, company, C-Score and badge, a link to the stock. */
function suggestionHtml([ticker, company, cScore]: SearchEntry): string {
  const badge = cScore === null ? '' : `<span class="badge badge-${signalDirection(cScore)}">${classifySignal(cScore)}</span>`;
  return (
    `<a href="/signal/${encodeURIComponent(ticker)}"><strong>${escape(ticker)}</strong>` +
    `<span class="sr-co"> ${escape(company)}</span><span class="sr-score"> ${formatScore(cScore)} ${badge}</span></a>`
  );
}

/** The built Stock Not Found page with `ticker` repeated, in the search box, and `closest` listed. */
export function stockNotFoundHtml(html: string, ticker: string, closest: readonly SearchEntry[]): string {
  let out = html
    .replace(/(<p\b[^>]*\bdata-asked)\s+hidden(?=[\s>])/, '$1')
    .replace(/(<strong\b[^>]*\bdata-asked-ticker[^>]*>)(<\/strong>)/, `$1${escape(ticker)}$2`)
    .replace(/(<input\b[^>]*\bid="not-found-search")/, `$1 value="${escape(ticker)}"`);
  if (closest.length > 0) {
    out = out
      .replace(/(<section\b[^>]*\bdata-closest\b[^>]*?)\s+hidden(?=[\s>])/, '$1')
      .replace(/(<div\b[^>]*\bdata-closest-list[^>]*>)(<\/div>)/, `$1${closest.map(suggestionHtml).join('')}$2`);
  }
  return out;
}
