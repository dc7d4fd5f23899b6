/**
 * What other sites embed, without a key: the badge (/badge/{T}.svg) and the card (/embed/{T}). Both are written by
 * the build from the day's report and follow the entitlement rule: a locked ticker says "Top signal" and shows no
 * score, no direction and no trend.
 */
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD, classifySignal, signalDirection, type SignalDirection } from '../signals/signal';
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
