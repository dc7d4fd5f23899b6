/**
 * What other sites embed, without a key: the badge (/badge/{T}.svg) and the card (/embed/{T}). Both are written by
 * the build from the day's report and follow the entitlement rule: a locked ticker says "Top signal" and shows no
 * score, no direction and no trend.
 */
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD, classifySignal, signalDirection, THRESHOLD_WORDS, type SignalDirection } from '../signals/signal';
import { formatDate, formatScore } from '../text/format';
import { escapeHtml } from '../text/text';

/** How many report days the card's trend spark shows. */
export const EMBED_SPARK_POINTS = 7;

/** The path prefix of the pages other sites may frame; every other page refuses frames. */
export const EMBED_PATH_PREFIX = '/embed/';

/** What a badge or card says of one ticker on one report day. */
export interface EmbedFacts {
  ticker: string;
  reportDate: string;
  /** Null when the ticker is locked for an anonymous visitor. */
  cScore: number | null;
}

/** The badge's right-hand words: "81.20 Bullish", or "Top signal" for a locked ticker. */
export function badgeValue(facts: EmbedFacts): string {
  return facts.cScore === null ? 'Top signal' : `${formatScore(facts.cScore)} ${classifySignal(facts.cScore)}`;
}

/** The sentence a screen reader hears for a badge or card. */
export function embedTitle(facts: EmbedFacts, siteName: string): string {
  const day = formatDate(facts.reportDate);
  if (facts.cScore === null) return `${facts.ticker} is a top signal on ${day} (${siteName}; its C-Score is for Pro)`;
  return `${facts.ticker} C-Score ${formatScore(facts.cScore)}, ${classifySignal(facts.cScore)}, on ${day} (${siteName})`;
}

/** Badge colours: white text on a fill dark enough for 4.5:1 against it, the same on light and dark pages. */
const BADGE_FILL: Record<SignalDirection | 'locked', string> = {
  bullish: '#166534',
  bearish: '#b91c1c',
  neutral: '#4b5563',
  locked: '#1e40af',
};
const LABEL_FILL = '#1f2937';
/** Monospaced text keeps the badge's width a function of its length on every system. */
const CHAR_WIDTH = 6.6;
const PADDING = 6;

/**
 * The badge as an SVG document: "{T} C-Score" on the left, "{score} {signal} · {date}" on the right. Its own opaque
 * fills keep it readable on a light or a dark page; the word says the direction, so colour is never the only signal.
 */
export function badgeSvg(facts: EmbedFacts, siteName: string): string {
  const left = `${facts.ticker} C-Score`;
  const right = `${badgeValue(facts)} · ${formatDate(facts.reportDate)}`;
  const leftWidth = Math.ceil(left.length * CHAR_WIDTH + 2 * PADDING);
  const rightWidth = Math.ceil(right.length * CHAR_WIDTH + 2 * PADDING);
  const width = leftWidth + rightWidth;
  const fill = BADGE_FILL[facts.cScore === null ? 'locked' : signalDirection(facts.cScore)];
  const title = escapeHtml(embedTitle(facts, siteName));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-labelledby="t">`,
    `<title id="t">${title}</title>`,
    `<rect width="${leftWidth}" height="20" rx="3" fill="${LABEL_FILL}"/>`,
    `<rect x="${leftWidth - 3}" width="${rightWidth + 3}" height="20" rx="3" fill="${fill}"/>`,
    `<rect x="${leftWidth - 3}" width="3" height="20" fill="${fill}"/>`,
    `<g fill="#fff" font-family="DejaVu Sans Mono,Menlo,Consolas,monospace" font-size="11" aria-hidden="true">`,
    `<text x="${PADDING}" y="14">${escapeHtml(left)}</text>`,
    `<text x="${leftWidth + PADDING}" y="14">${escapeHtml(right)}</text>`,
    '</g></svg>',
    '',
  ].join('\n');
}

/** The card's trend spark: a polyline over the C-Score's -100..100 range, with the two thresholds as lines. */
export interface Spark {
  width: number;
  height: number;
  points: string;
  bullishY: number;
  bearishY: number;
}

/** The spark of the last EMBED_SPARK_POINTS scores (oldest first); null with fewer than two. */
export function sparkOf(scores: readonly number[], width = 120, height = 36): Spark | null {
  const shown = scores.slice(-EMBED_SPARK_POINTS);
  if (shown.length < 2) return null;
  const y = (score: number) => Math.round(((100 - Math.max(-100, Math.min(100, score))) / 200) * height * 10) / 10;
  const step = width / (shown.length - 1);
  const points = shown.map((score, i) => `${Math.round(i * step * 10) / 10},${y(score)}`).join(' ');
  return { width, height, points, bullishY: y(BULLISH_THRESHOLD), bearishY: y(BEARISH_THRESHOLD) };
}

/** The two snippets the stock page offers to copy: the badge linked to the page, and the card in a frame. */
export function embedSnippets(ticker: string, siteUrl: string, siteName: string): { badge: string; card: string } {
  const origin = siteUrl.replace(/\/$/, '');
  const page = `${origin}/signal/${encodeURIComponent(ticker)}`;
  const alt = escapeHtml(`${ticker} C-Score on ${siteName}`);
  return {
    badge: `<a href="${page}"><img src="${origin}/badge/${encodeURIComponent(ticker)}.svg" alt="${alt}" height="20"></a>`,
    card: `<iframe src="${origin}${EMBED_PATH_PREFIX}${encodeURIComponent(ticker)}" title="${alt}" width="320" height="200" style="border:0" loading="lazy"></iframe>`,
  };
}

/**
 * The card's own style, in the page: a frame then costs one request, and no stylesheet of the site's (nor its cache
 * name) ties a card framed elsewhere to the site's bundles. The light and dark colours keep 4.5:1 on their background.
 */
const EMBED_CARD_STYLE = [
  ':root{color-scheme:light dark;--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#d1d5db;--bullish:#166534;--bearish:#b91c1c;--neutral:#374151;--locked:#1e40af}',
  '@media (prefers-color-scheme:dark){:root{--bg:#111827;--fg:#f9fafb;--muted:#d1d5db;--line:#374151;--bullish:#4ade80;--bearish:#f87171;--neutral:#d1d5db;--locked:#93c5fd}}',
  "body{margin:0;font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;background:var(--bg);color:var(--fg)}",
  'main{box-sizing:border-box;max-width:320px;min-height:100vh;padding:12px;border:1px solid var(--line);border-radius:8px;display:flex;flex-direction:column;gap:6px}',
  'h1{margin:0;font-size:15px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}',
  '.row{display:flex;align-items:center;justify-content:space-between;gap:8px}',
  '.score{margin:0;font-size:24px;font-weight:700;font-variant-numeric:tabular-nums}',
  '.score span{font-size:14px}',
  '.bullish{color:var(--bullish)}.bearish{color:var(--bearish)}.neutral{color:var(--neutral)}.locked{color:var(--locked)}',
  '.muted{color:var(--muted);font-size:12px}p.muted{margin:0}',
  'svg polyline{fill:none;stroke:currentColor;stroke-width:2}svg line{stroke:var(--line);stroke-dasharray:3 3}',
  'a{color:inherit;font-weight:600}',
].join('');

/** What the card of one ticker shows. */
export interface EmbedCard {
  facts: EmbedFacts;
  /** The company's name as the report gives it ('' when it gives none). */
  companyName: string;
  /** The last EMBED_SPARK_POINTS C-Scores, oldest first (ignored for a locked ticker). */
  recentScores: readonly number[];
  /** The stock page's absolute address, the card's one link. */
  stockPage: string;
  siteName: string;
}

/**
 * The card other sites frame (/embed/{T}), a whole HTML document with no script: ticker and company, the C-Score with
 * its signal word, a trend spark, the badge, the report's date and a link back to the stock page. A locked ticker says
 * "Top signal", with no score, direction or spark.
 */
export function embedCardHtml({ facts, companyName, recentScores, stockPage, siteName }: EmbedCard): string {
  const { ticker, cScore } = facts;
  const name = companyName.trim();
  const title = escapeHtml(embedTitle(facts, siteName));
  const direction = cScore === null ? 'locked' : signalDirection(cScore);
  const spark = cScore === null ? null : sparkOf(recentScores);
  const page = escapeHtml(stockPage);
  const score = cScore === null ? '<p class="score locked">Top signal</p>' : `<p class="score ${direction}">${formatScore(cScore)} <span>${classifySignal(cScore)}</span></p>`;
  const sparkSvg = spark
    ? `<svg class="${direction}" width="${spark.width}" height="${spark.height}" viewBox="0 0 ${spark.width} ${spark.height}" role="img" aria-label="C-Score over the last ${EMBED_SPARK_POINTS} reports">` +
      `<line x1="0" x2="${spark.width}" y1="${spark.bullishY}" y2="${spark.bullishY}"></line><line x1="0" x2="${spark.width}" y1="${spark.bearishY}" y2="${spark.bearishY}"></line>` +
      `<polyline points="${spark.points}"></polyline></svg>`
    : '';
  const said = cScore === null ? 'Its C-Score is for Pro members.' : `Bullish at ${THRESHOLD_WORDS.bullish}, bearish at ${THRESHOLD_WORDS.bearish}.`;
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>${title}</title><link rel="canonical" href="${page}"><style>${EMBED_CARD_STYLE}</style></head>`,
    `<body><main><h1 title="${escapeHtml(name === '' ? ticker : `${name} (${ticker})`)}">${escapeHtml(ticker)}${name === '' ? '' : `<span class="muted"> ${escapeHtml(name)}</span>`}</h1>`,
    `<div class="row">${score}${sparkSvg}</div>`,
    `<img src="/badge/${encodeURIComponent(ticker)}.svg" alt="${title}" height="20">`,
    `<p class="muted">${said} Report of <time datetime="${facts.reportDate}">${formatDate(facts.reportDate)}</time>.</p>`,
    `<a href="${page}" target="_blank" rel="noopener">${escapeHtml(siteName)}: ${escapeHtml(ticker)} <span aria-hidden="true">→</span></a>`,
    '</main></body></html>',
    '',
  ].join('');
}
