import { describe, expect, it } from 'vitest';
import {
  batchesOf,
  daysBefore,
  earningsFromStore,
  fromEarnings,
  fromRatios,
  quoteWithFundamentals,
} from '../../src/lib/domain/market-data/fundamentals';
import { filterListHtml } from '../../src/lib/domain/signals/list-filter';
import { recentlyQualifiedCells, rowMarkers, stockCount } from '../../src/lib/domain/signals/lists';
import { parseSampleManifest, sampleManifest, withSampleNotice } from '../../src/lib/domain/report/report-source';
import { parseTableState, stockCountText } from '../../src/lib/domain/signals/table';

describe('fundamentals', () => {
  it('keeps the ratios the API has, drops a P/E or market cap of 0 and null figures', () => {
    expect(fromRatios({ ticker: 'AAPL', date: '2024-09-19', price_to_earnings: 34.84, earnings_per_share: 6.57, dividend_yield: 0.0044, market_cap: 3479770835190 })).toEqual({
      ratiosAsOf: '2024-09-19',
      trailingPE: 34.84,
      eps: 6.57,
      dividendYield: 0.0044,
      marketCap: 3479770835190,
    });
    expect(fromRatios({ ticker: 'X', price_to_earnings: 0, earnings_per_share: -1.2, dividend_yield: null, market_cap: 0 })).toEqual({
      ratiosAsOf: undefined,
      trailingPE: undefined,
      eps: -1.2,
      dividendYield: undefined,
      marketCap: undefined,
    });
  });

  it.each([
    { name: 'last and next around today', dates: ['2026-08-01', '2026-10-28', '2027-01-28', '2027-04-30'], next: '2027-01-28', last: '2026-10-28' },
    { name: 'a report today is the next date', dates: ['2026-11-20'], next: '2026-11-20', last: undefined },
    { name: 'nothing ahead', dates: ['2026-10-28'], next: undefined, last: '2026-10-28' },
    { name: 'a malformed date is skipped', dates: ['soon', '2027-01-28'], next: '2027-01-28', last: undefined },
  ])('earnings: $name', ({ dates, next, last }) => {
    const result = fromEarnings(dates.map((date) => ({ ticker: 'T', date, actual_eps: date < '2026-11-20' ? 1.5 : null })), '2026-11-20');
    expect(result.nextEarningsDate).toBe(next);
    expect(result.lastEarningsDate).toBe(last);
    expect(result.lastActualEps).toBe(last ? 1.5 : undefined);
  });

  it('batches ticker.any_of calls and counts days back', () => {
    expect(batchesOf(['A', 'B', 'C', 'D', 'E'], 2)).toEqual([['A', 'B'], ['C', 'D'], ['E']]);
    expect(batchesOf(Array.from({ length: 503 }, (_, i) => `T${i}`))).toHaveLength(6);
    expect(daysBefore('2026-11-20', 120)).toBe('2026-07-23');
  });

  it('adds stored figures to a quote where it lacks them, never beta, and answers earnings only with a next date', () => {
    const quote = { symbol: 'AAPL', regularMarketPrice: 200, marketCap: 3e12, fetchedAt: '2026-11-20T15:00:00Z' };
    expect(quoteWithFundamentals(quote, { trailingPE: 30.5, eps: 6.5, dividendYield: 0.004, marketCap: 1e12 })).toEqual({ ...quote, trailingPE: 30.5, eps: 6.5, dividendYield: 0.004 });
    expect(quoteWithFundamentals(quote, undefined)).toBe(quote);
    expect(earningsFromStore({ nextEarningsDate: '2027-01-28' })).toEqual({ earningsAvailable: true, earningsDate: '2027-01-28', nextEarningsDate: '2027-01-28' });
    expect(earningsFromStore({ lastEarningsDate: '2026-10-28' })).toBeNull();
  });
});

describe('sample data', () => {
  it('writes and reads the manifest as sha256sum does, and puts the notice in front of a description', () => {
    const hash = 'ab'.repeat(32);
    const text = sampleManifest(new Map([['signals-2026-11-20.csv', hash]]));
    expect(text).toBe(`${hash}  signals-2026-11-20.csv\n`);
    expect(parseSampleManifest(`${text}not a line\n`)).toEqual(new Map([['signals-2026-11-20.csv', hash]]));
    expect(withSampleNotice('AAPL C-Score 12.00.', 'sample')).toBe('Sample data: scores are generated for demonstration. AAPL C-Score 12.00.');
    expect(withSampleNotice('AAPL C-Score 12.00.', 'exports')).toBe('AAPL C-Score 12.00.');
  });
});

describe('list rows', () => {
  it.each([
    [{ isTopTicker: true, _signalChangeType: 'new' as const }, ['Top', 'New']],
    [{ isTopTicker: true }, ['Top']],
    [{ isTopTicker: false, _signalChangeType: 'new' as const }, ['New']],
    [{ isTopTicker: false }, []],
  ])('markers of %j', (record, texts) => {
    const markers = rowMarkers(record);
    expect(markers.map((m) => m.text)).toEqual(texts);
    for (const m of markers) expect(`${m.text}${m.spoken}`).toMatch(/^(Top|New) signal$/);
  });

  it('counts stocks, not rows', () => {
    expect(stockCount(['EEE', 'EEE', 'FFF'])).toBe(2);
    expect(stockCountText(25, 25)).toBe('25 stocks');
    expect(stockCountText(1, 1)).toBe('1 stock');
    expect(stockCountText(3, 25)).toBe('Showing 3 of 25 stocks');
    expect(recentlyQualifiedCells({ record: {} as never, since: '2026-11-20' }, true)).toEqual([
      { text: 'Nov 20, 2026', sortValue: '2026-11-20' },
      { text: 'Yes', sortValue: '1' },
    ]);
  });

  it('filters pre-rendered rows with the table rules', () => {
    const row = (t: string) => `<tr data-t="${t}" data-s="Energy"><td>${t}</td></tr>`;
    const html = `<form method="get" class="filters" data-table-filters><input type="search" name="q"><select name="direction"><option value="">All</option><option value="bearish">Bearish</option></select><select name="sector"><option value="">All</option><option value="Energy">Energy</option></select><p class="filter-count" aria-live="polite" data-count="stocks">2 stocks</p></form><table id="a"><tbody>${row('XOM')}${row('CVX')}</tbody></table><p class="table-empty" data-no-match hidden>No stocks match these filters.</p>`;
    const rows = { XOM: { ticker: 'XOM', company: 'Exxon', direction: 'bearish' as const, sector: 'Energy' }, CVX: { ticker: 'CVX', company: 'Chevron', direction: 'bullish' as const, sector: 'Energy' } };
    const out = filterListHtml(html, parseTableState('direction=bearish&sector=Energy'), (t) => rows[t as keyof typeof rows]);
    expect(out).toContain('<tr data-t="XOM"');
    expect(out).toContain('<tr hidden data-t="CVX"');
    expect(out).toContain('<option value="bearish" selected>');
    expect(out).toContain('<option value="Energy" selected>');
    expect(out).toContain('data-count="stocks">Showing 1 of 2 stocks</p>');
    expect(out).toContain('data-no-match hidden>');
  });

  it('a direction with no sort orders the pre-rendered rows by signal strength; a chosen sort keeps the page order', () => {
    const row = (t: string, score: string) => `<tr data-t="${t}" data-s="Energy"><td class="c-ticker">${t}</td><td class="c-cScore">${score} <span class="badge">Bearish</span></td></tr>`;
    const html = `<table id="a"><tbody>${row('AAA', '-65.22')}${row('BBB', '-70')}${row('CCC', '-98.07')}</tbody></table><p class="table-empty" data-no-match hidden>`;
    const bearish = { direction: 'bearish' as const, company: '', sector: 'Energy' };
    const order = (query: string) => [...filterListHtml(html, parseTableState(query), (t) => ({ ticker: t, ...bearish })).matchAll(/data-t="(\w+)"/g)].map((m) => m[1]);
    expect(order('direction=bearish')).toEqual(['CCC', 'BBB', 'AAA']);
    expect(order('direction=bearish&sort=ticker&order=asc')).toEqual(['AAA', 'BBB', 'CCC']);
    expect(order('sector=Energy')).toEqual(['AAA', 'BBB', 'CCC']);
  });
});
