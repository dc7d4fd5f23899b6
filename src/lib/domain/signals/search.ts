/**
 * The ticker search: a small static index of every ticker, company name and C-Score, and its ranking. Matching
 * forgives a typo or two ("nvdia" finds NVDA, "aple" AAPL, "coca cola" KO) with a small edit-distance scorer
 * written here: a fuzzy-search library would add more to the pages than these few lines.
 */

/** One entry of the search index: ticker, company name and the C-Score of the latest report (null when locked). */
export type SearchEntry = [ticker: string, company: string, cScore: number | null];

/** Most results the search box lists. */
export const SEARCH_LIMIT = 8;

/** How many closest tickers an empty result or the Stock Not Found screen suggests. */
export const CLOSEST_LIMIT = 5;

/** Lower case, with every run of other characters than letters and digits one space: "Coca-Cola Co." -> "coca cola co". */
function normalize(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/**
 * Edit distance of `query` to `target` (whole) or to its best-matching prefix (`prefix`): insertions, deletions,
 * substitutions and swaps of two neighbours cost 1, except a letter typed once instead of twice or twice instead
 * of once ("aple" for "apple"), the commonest slip, which costs 0.5.
 */
export function typoDistance(query: string, target: string, prefix = false): number {
  const m = query.length;
  const n = prefix ? Math.min(target.length, m + 3) : target.length;
  const dropQuery = (i: number) => (query[i - 1] === query[i - 2] || query[i - 1] === query[i] ? 0.5 : 1);
  const dropTarget = (j: number) => (target[j - 1] === target[j - 2] || target[j - 1] === target[j] ? 0.5 : 1);
  // Rows i-2, i-1 and i of the optimal-string-alignment table.
  let before: number[] = [];
  let last = [0];
  for (let j = 1; j <= n; j += 1) last[j] = last[j - 1]! + dropTarget(j);
  for (let i = 1; i <= m; i += 1) {
    const row = [last[0]! + dropQuery(i)];
    for (let j = 1; j <= n; j += 1) {
      const q = query[i - 1]!;
      const t = target[j - 1]!;
      let best = Math.min(last[j - 1]! + (q === t ? 0 : 1), last[j]! + dropQuery(i), row[j - 1]! + dropTarget(j));
      if (i > 1 && j > 1 && q === target[j - 2] && query[i - 2] === t) best = Math.min(best, before[j - 2]! + 1);
      row[j] = best;
    }
    before = last;
    last = row;
  }
  return prefix ? Math.min(...last) : last[n]!;
}

/** Typos a query of this length may hold and still match: none under 4 characters, 1 up to 5, then 2. */
function typoAllowance(length: number): number {
  return length < 4 ? 0 : length < 6 ? 1 : 2;
}

/** The smallest typo distance of the query to the ticker, the company name or the start of any of its words. */
function closeness(q: string, compact: string, ticker: string, company: string): number {
  let best = typoDistance(compact, ticker);
  const words = company.split(' ');
  const companyCompact = words.join('');
  best = Math.min(best, typoDistance(compact, companyCompact, true));
  for (let w = 1; w < words.length && best > 0; w += 1) best = Math.min(best, typoDistance(compact, words.slice(w).join(''), true));
  // A query of several words also matches word by word ("cola co" -> "Coca-Cola Company").
  if (q.includes(' ')) best = Math.min(best, typoDistance(q, company, true));
  return best;
}

/** Ranks from this one on are typo matches: listed only when nothing matched as typed. */
const TYPO_TIER = 4;

/**
 * The rank of one entry for a query (lower is better), or null when it does not match: exact ticker, ticker prefix,
 * company prefix, every query word starting a company word, any substring, then within the typo allowance.
 * Within a tier the fuller match comes first: a query covering more of the ticker or of the company word it starts
 * ("appl" is most of "Apple", less of "AppLovin").
 */
function rankOf(q: string, entry: SearchEntry): number | null {
  const ticker = entry[0].toLowerCase();
  const company = normalize(entry[1]);
  const compact = q.replace(/ /g, '');
  const cover = (length: number) => 0.5 * (1 - Math.min(1, compact.length / Math.max(1, length)));
  const firstWord = company.split(' ', 1)[0] ?? '';
  if (ticker === compact) return 0;
  if (ticker.startsWith(compact)) return 1;
  if (company.startsWith(q) || company.replace(/ /g, '').startsWith(compact)) return 2 + cover(Math.max(firstWord.length, q.length));
  const words = company.split(' ');
  if (q.split(' ').every((part) => words.some((word) => word.startsWith(part)))) return 2.5 + cover(company.length);
  if (ticker.includes(compact) || company.replace(/ /g, '').includes(compact)) return 3 + cover(company.length);
  const allowance = typoAllowance(compact.length);
  if (allowance === 0) return null;
  const distance = closeness(q, compact, ticker, company);
  return distance <= allowance ? TYPO_TIER + distance + cover(company.length) : null;
}

const byTicker = (a: SearchEntry, b: SearchEntry) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * Entries matching the query, best first (see rankOf); ties by ticker. Case- and punctuation-insensitive; an empty
 * query matches nothing.
 */
export function searchTickers(index: readonly SearchEntry[], query: string, limit: number = SEARCH_LIMIT): SearchEntry[] {
  const q = normalize(query);
  if (!q) return [];
  const ranked: [number, SearchEntry][] = [];
  for (const entry of index) {
    const rank = rankOf(q, entry);
    if (rank !== null) ranked.push([rank, entry]);
  }
  ranked.sort((a, b) => a[0] - b[0] || byTicker(a[1], b[1]));
  // A query that matches as typed is not a typo: "appl" lists Apple and AppLovin, not Altria and Allstate.
  const typed = ranked.length > 0 && ranked[0]![0] < TYPO_TIER;
  return ranked
    .filter(([rank]) => !typed || rank < TYPO_TIER)
    .slice(0, limit)
    .map(([, entry]) => entry);
}

/**
 * How far a suggestion may be from the query: half the cost of typing nothing at all, so at least half of what was
 * typed must be in it ("zzzz" resembles nothing; "nvdaa" is NVDA).
 */
function closestAllowance(compact: string): number {
  return typoDistance(compact, '') / 2;
}

/**
 * The entries nearest to a query that matched nothing, within half of what was typed: the suggestions of an
 * empty search, an empty filtered list and the Stock Not Found screen (/signal/NVDAA suggests NVDA). Ties by ticker;
 * none for a query that resembles no ticker or company.
 */
export function closestTickers(index: readonly SearchEntry[], query: string, limit: number = CLOSEST_LIMIT): SearchEntry[] {
  const q = normalize(query);
  if (!q) return [];
  const compact = q.replace(/ /g, '');
  const allowance = closestAllowance(compact);
  const ranked = index
    .map((entry) => [closeness(q, compact, entry[0].toLowerCase(), normalize(entry[1])), entry] as const)
    .filter(([distance]) => distance <= allowance);
  return ranked
    .sort((a, b) => a[0] - b[0] || byTicker(a[1], b[1]))
    .slice(0, limit)
    .map(([, entry]) => entry);
}
