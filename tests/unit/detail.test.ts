import { describe, expect, it } from 'vitest';
import { backTarget } from '../../src/lib/domain/site/back-section';
import { canonicalUrl } from '../../src/lib/domain/site/canonical';
import {
  decodeTrend,
  detailDescription,
  detailJsonLd,
  earningsBadgeText,
  encodeTrend,
  routeTicker,
  scriptJson,
  shareImageText,
  signalExplanations,
  stockHeadline,
  stockPageHeadTitle,
} from '../../src/lib/domain/signals/detail';
import { formatDate, formatShortDate } from '../../src/lib/domain/text/format';
import type { TrendResponse } from '../../src/lib/domain/trend/trend';

describe('routeTicker: the route ticker is upper-cased, a malformed one is refused', () => {
  it.each([
    ['aapl', 'AAPL'],
    [' brk.b ', 'BRK.B'],
    ['BF-B', 'BF-B'],
    ['brk%2Eb', 'BRK.B'],
    ['', null],
    ['TOO-LONG-TICKER', null],
    ['<script>', null],
    ['A/B', null],
    ['%E0%A4%A', null],
  ])('%j -> %j', (raw, expected) => {
    expect(routeTicker(raw)).toBe(expected);
  });
});

describe('backTarget: Back to {previous section}, returning to the previous path or /', () => {
  it.each([
    ['/recently-qualified', 'Back to Recently Qualified', '/recently-qualified'],
    ['/currently-qualified?sort=cScore', 'Back to Currently Qualified', '/currently-qualified?sort=cScore'],
    ['/reversals-exits', 'Back to Reversals & Exits', '/reversals-exits'],
    ['/heatmap', 'Back to Heatmap', '/heatmap'],
    ['/explore', 'Back to Explore', '/explore'],
    ['/all-signals', 'Back to Dashboard', '/all-signals'],
    ['/', 'Back to Dashboard', '/'],
    ['/signal/AAPL', 'Back to Dashboard', '/'],
    ['//evil.example.com', 'Back to Dashboard', '/'],
    [null, 'Back to Dashboard', '/'],
  ])('%j', (previous, label, href) => {
    expect(backTarget(previous)).toEqual({ label, href });
  });
});

describe('signalExplanations: Top Signal for top tickers, then the text of the classification', () => {
  it.each([
    [65, false, ['bullish']],
    [99.36, true, ['top', 'bullish']],
    [-65, false, ['bearish']],
    [-64.99, false, ['neutral']],
    [64.99, true, ['top', 'neutral']],
    [0, false, ['neutral']],
  ])('C-Score %d, top %s -> %j', (score, top, tones) => {
    expect(signalExplanations('AAPL', score, top).map((e) => e.tone)).toEqual(tones);
  });

  it('says the spec\'s facts in each text', () => {
    expect(signalExplanations('AAPL', 70, true)[0]).toMatchObject({ heading: 'Top Signal', text: expect.stringContaining('among the strongest signals') });
    expect(signalExplanations('AAPL', 70, false)[0]!.text).toContain('strong positive momentum, with a C-Score of 65 or more');
    expect(signalExplanations('AAPL', -70, false)[0]!.text).toContain('C-Score of -65 or less');
    expect(signalExplanations('AAPL', 10, false)[0]!.text).toContain('C-Score between -65 and 65');
  });
});

describe('canonicalUrl: one address per page, as every link writes it', () => {
  it.each([
    ['/signal/AAPL/', 'https://signals.example.com', 'https://signals.example.com/signal/AAPL'],
    ['/signal/AAPL', 'https://signals.example.com/', 'https://signals.example.com/signal/AAPL'],
    ['/signal/BRK.B/', 'http://localhost:4321/', 'http://localhost:4321/signal/BRK.B'],
    ['/all-signals/', 'http://localhost:4321', 'http://localhost:4321/all-signals'],
    ['/archives/2/', 'http://localhost:4321', 'http://localhost:4321/archives/2'],
    ['/', 'https://signals.example.com', 'https://signals.example.com/'],
    ['', 'https://signals.example.com', 'https://signals.example.com/'],
    ['https://signals.example.com/signal/AAPL/', 'http://ignored.example', 'https://signals.example.com/signal/AAPL'],
    ['/signal/AAPL/?tab=news#top', 'https://signals.example.com', 'https://signals.example.com/signal/AAPL'],
  ])('%s on %s is %s', (path, site, expected) => {
    expect(canonicalUrl(path, site)).toBe(expected);
  });
});

describe('meta: description and structured data', () => {
  it.each([
    ['AAPL', 'Apple Inc.', -23.74, 'Apple Inc. (AAPL): Neutral, C-Score \u221223.74 on Nov 20, 2026'],
    ['NVDA', 'NVIDIA Corporation', 72.456, 'NVIDIA Corporation (NVDA): Bullish, C-Score 72.46 on Nov 20, 2026'],
    ['T', '', -100, 'T: Bearish, C-Score \u2212100 on Nov 20, 2026'],
  ])('the headline of %s names company, ticker, signal, C-Score and date', (ticker, company, score, headline) => {
    expect(stockHeadline(ticker, company, score, '2026-11-20')).toBe(headline);
    expect(stockPageHeadTitle('C-Score Signals', headline)).toBe(`${headline} | C-Score Signals`);
    expect(detailDescription(ticker, company, score, '2026-11-20')).toBe(`${headline}. Daily consumer-spending signal with its 7- and 14-day history.`);
  });

  it('JSON-LD holds a WebPage, a Corporation with its tickerSymbol and a BreadcrumbList', () => {
    const ld = detailJsonLd({ siteName: 'C-Score Signals', siteUrl: 'https://signals.example.com/', ticker: 'AAPL', companyName: 'Apple Inc.', description: 'd', reportDate: '2026-11-20', website: 'https://www.apple.com/' });
    const graph = ld['@graph'] as Record<string, unknown>[];
    expect(graph.map((n) => n['@type'])).toEqual(['WebPage', 'Corporation', 'BreadcrumbList']);
    expect(graph[0]).toMatchObject({ url: 'https://signals.example.com/signal/AAPL', name: 'C-Score Signals AAPL' });
    expect(graph[1]).toMatchObject({ tickerSymbol: 'AAPL', name: 'Apple Inc.', url: 'https://www.apple.com/' });
  });

  it.each([
    ['https://signals.example.com/', 'https://signals.example.com/signal/AAPL/'],
    ['https://signals.example.com', '/signal/AAPL'],
    ['http://localhost:4321/', '/signal/AAPL/'],
  ])('JSON-LD (site %s) names the page at the address of its canonical link and sitemap entry (built path %s)', (siteUrl, builtPath) => {
    const canonical = canonicalUrl(builtPath, siteUrl);
    expect(canonical).toBe(`${new URL(siteUrl).origin}/signal/AAPL`);
    const ld = detailJsonLd({ siteName: 'C-Score Signals', siteUrl, ticker: 'AAPL', companyName: 'Apple Inc.', description: 'd', reportDate: '2026-11-20', website: null });
    const [page, corporation, breadcrumbs] = ld['@graph'] as Record<string, unknown>[];
    expect(page).toMatchObject({ '@id': canonical, url: canonical, isPartOf: { url: canonicalUrl('/', siteUrl) } });
    expect(corporation!['@id']).toBe(`${canonical}#corporation`);
    const items = (breadcrumbs!.itemListElement as { item: string }[]).map((i) => i.item);
    expect(items).toEqual([canonicalUrl('/', siteUrl), canonical]);
  });

  it('scriptJson cannot close its script element', () => {
    expect(scriptJson({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
    expect(JSON.parse(scriptJson({ name: '</script>' }))).toEqual({ name: '</script>' });
  });
});

describe('encodeTrend / decodeTrend: the embedded trend round-trips', () => {
  const trend: TrendResponse = {
    ticker: 'AAPL',
    reportDate: '2026-11-20',
    trend: [
      { date: '2026-11-06', cScore: 68.2, is14DayAvg: true },
      { date: '2026-11-12', cScore: 70.1, is7DayAvg: true },
      { date: '2026-11-18', cScore: 66 },
      { date: '2026-11-19', cScore: -12.5, isYesterday: true },
      { date: '2026-11-20', cScore: 72.5, isCurrentDay: true },
    ],
  };
  it('keeps every date, score and flag', () => {
    expect(decodeTrend('AAPL', encodeTrend(trend))).toEqual(trend);
  });
  it('writes the first date whole and each later one as days since the point before, across months and years', () => {
    const long: TrendResponse = {
      ticker: 'AAPL',
      reportDate: '2027-01-04',
      trend: [
        { date: '2026-12-30', cScore: 1 },
        { date: '2026-12-31', cScore: 2, is14DayAvg: true },
        { date: '2026-12-30', cScore: 3 },
        { date: '2027-01-04', cScore: 4, isCurrentDay: true },
      ],
    };
    expect(encodeTrend(long)).toBe('2027-01-04|2026-12-30,1,;1,2,14;-1,3,;5,4,c');
    expect(decodeTrend('AAPL', encodeTrend(long))).toEqual(long);
  });
  it('an empty trend stays empty', () => {
    expect(decodeTrend('AAPL', encodeTrend({ ...trend, trend: [] }))).toEqual({ ...trend, trend: [] });
    expect(decodeTrend('AAPL', '').trend).toEqual([]);
  });
});

describe('share image text and earnings badge', () => {
  it('shows ticker, company, C-Score, classification and date', () => {
    expect(shareImageText({ ticker: 'AAPL', companyName: 'Apple Inc.', cScore: -65, reportDate: '2026-11-20' }, 'C-Score Signals')).toEqual({
      ticker: 'AAPL',
      company: 'Apple Inc.',
      score: '-65.00',
      classification: 'Bearish',
      footer: 'C-Score report of Nov 20, 2026 · C-Score Signals',
      tone: 'bearish',
      notice: null,
    });
  });
  it('says a sample report is sample data', () => {
    const text = shareImageText({ ticker: 'AAPL', companyName: 'Apple Inc.', cScore: -23.74, reportDate: '2026-11-20', sample: true }, 'C-Score Signals');
    expect(text.notice).toBe('Sample data: scores are generated for demonstration');
  });
  it.each([
    ['2025-01-05', formatDate, 'Earnings: Jan 5, 2025'],
    ['2025-01-05', formatShortDate, 'Earnings: Jan 5'],
    [null, formatDate, null],
    ['not a date', formatDate, null],
  ])('%j', (date, format, expected) => {
    expect(earningsBadgeText(date, format)).toBe(expected);
  });
});
