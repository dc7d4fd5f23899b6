/** The embeddable badge and card: what they say, for an open and a locked ticker, and the one policy that lets them be framed. */
import { describe, expect, it } from 'vitest';
import { badgeSvg, badgeValue, embedCardHtml, embedSnippets, embedTitle, sparkOf } from '../../src/lib/domain/site/embed';
import { findBrokenText } from '../../src/ingest/smoke';
import { framablePolicy, SECURITY_HEADERS } from '../../src/server/security';
import { parseXml } from '../fixtures/xml';

const AAPL = { ticker: 'AAPL', reportDate: '2026-11-20', cScore: 81.2 };

describe('the badge', () => {
  it('says ticker, C-Score, signal word and date, with a title for screen readers', () => {
    expect(badgeValue(AAPL)).toBe('81.20 Bullish');
    expect(badgeValue({ ...AAPL, cScore: -72.6 })).toBe('-72.60 Bearish');
    expect(badgeValue({ ...AAPL, cScore: 64.99 })).toBe('64.99 Neutral');
    const svg = badgeSvg(AAPL, 'C-Score Signals');
    expect(svg).toContain('<title id="t">AAPL C-Score 81.20, Bullish, on Nov 20, 2026 (C-Score Signals)</title>');
    expect(svg).toContain('>AAPL C-Score</text>');
    expect(svg).toContain('>81.20 Bullish · Nov 20, 2026</text>');
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="t">/);
  });

  it('is well-formed SVG whose width fits its words', () => {
    const root = parseXml(badgeSvg({ ...AAPL, ticker: 'BRK.B' }, 'C-Score Signals'));
    expect(root.name).toBe('svg');
    const width = Number(root.attributes.width);
    // 'BRK.B C-Score' and '81.20 Bullish · Nov 20, 2026' at 6.6 px a character, 6 px padding each side of each.
    expect(width).toBe(Math.ceil(13 * 6.6 + 12) + Math.ceil(28 * 6.6 + 12));
  });

  it('a locked ticker says "Top signal", with no score and no direction', () => {
    const locked = { ...AAPL, cScore: null };
    const svg = badgeSvg(locked, 'C-Score Signals');
    expect(svg).toContain('>Top signal · Nov 20, 2026</text>');
    expect(svg).not.toMatch(/81|Bullish|Bearish/);
    expect(embedTitle(locked, 'C-Score Signals')).toBe('AAPL is a top signal on Nov 20, 2026 (C-Score Signals; its C-Score is for Pro)');
  });

  it('escapes what it did not write', () => {
    expect(badgeSvg(AAPL, 'A & <B>')).toContain('(A &amp; &lt;B&gt;)');
  });
});

describe("the card's trend spark", () => {
  it('draws the last 7 scores over -100..100 with the thresholds at 65 and -65', () => {
    const spark = sparkOf([0, 10, 100, -100, 0, 50, -50, 65, 80], 120, 36)!;
    // The last seven: 100, -100, 0, 50, -50, 65, 80; x every 20 px; y = (100 - score) / 200 * 36.
    expect(spark.points).toBe('0,0 20,36 40,18 60,9 80,27 100,6.3 120,3.6');
    expect([spark.bullishY, spark.bearishY]).toEqual([6.3, 29.7]);
  });

  it('needs two scores', () => {
    expect(sparkOf([70])).toBeNull();
  });
});

describe('the card', () => {
  const card = (cScore: number | null, companyName = 'Apple Inc.') =>
    embedCardHtml({ facts: { ...AAPL, cScore }, companyName, recentScores: [10, 70, 81.2], stockPage: 'https://signals.example/signal/AAPL', siteName: 'C-Score Signals' });

  it('says ticker, company, score and signal word, the thresholds and the report date, and links to the stock page', () => {
    const html = card(81.2);
    expect(html).toContain('<title>AAPL C-Score 81.20, Bullish, on Nov 20, 2026 (C-Score Signals)</title>');
    expect(html).toContain('<h1 title="Apple Inc. (AAPL)">AAPL<span class="muted"> Apple Inc.</span></h1>');
    expect(html).toContain('<p class="score bullish">81.20 <span>Bullish</span></p>');
    expect(html).toContain('aria-label="C-Score over the last 7 reports"');
    expect(html).toContain('Bullish at 65 or more, bearish at -65 or less. Report of <time datetime="2026-11-20">Nov 20, 2026</time>.');
    expect(html).toContain('<a href="https://signals.example/signal/AAPL" target="_blank" rel="noopener">C-Score Signals: AAPL <span aria-hidden="true">→</span></a>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    // No script: the card is a document other sites frame.
    expect(html).not.toContain('<script');
    expect(findBrokenText(html)).toBeNull();
  });

  it('a locked ticker says "Top signal" with no score, word or spark', () => {
    const html = card(null);
    expect(html).toContain('<p class="score locked">Top signal</p>');
    expect(html).toContain('Its C-Score is for Pro members.');
    expect(html).not.toMatch(/81|Bullish at|<svg|<polyline/);
  });

  it('a report without a company name shows the ticker alone; text it did not write is escaped', () => {
    expect(card(81.2, '  ')).toContain('<h1 title="AAPL">AAPL</h1>');
    expect(card(81.2, 'A & <B>')).toContain('<span class="muted"> A &amp; &lt;B&gt;</span>');
  });
});

describe('the snippets and the policy', () => {
  it('link the badge to the stock page and frame the card, at the site address', () => {
    const { badge, card } = embedSnippets('BRK.B', 'https://signals.example/', 'C-Score Signals');
    expect(badge).toBe('<a href="https://signals.example/signal/BRK.B"><img src="https://signals.example/badge/BRK.B.svg" alt="BRK.B C-Score on C-Score Signals" height="20"></a>');
    expect(card).toContain('<iframe src="https://signals.example/embed/BRK.B" title="BRK.B C-Score on C-Score Signals"');
  });

  it('only the embeddable pages may be framed: every other answer says frame-ancestors none', () => {
    const general = SECURITY_HEADERS['content-security-policy']!;
    expect(general).toContain("frame-ancestors 'none'");
    expect(framablePolicy(general)).toContain('frame-ancestors *');
    expect(framablePolicy(general)).not.toContain("'none'; base-uri");
    expect(framablePolicy(general).replace('frame-ancestors *', "frame-ancestors 'none'")).toBe(general);
  });
});
