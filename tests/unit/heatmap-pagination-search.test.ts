import { describe, expect, it } from 'vitest';
import { heatmapColor, heatmapLayout, tileSize, UNCLASSIFIED } from '../../src/lib/domain/signals/heatmap';
import { archivePageHref, pageCount, pageItems, pagerNumbers } from '../../src/lib/domain/report/pagination';
import { searchTickers, type SearchEntry } from '../../src/lib/domain/signals/search';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';
import { signalRecord } from '../fixtures/records';

describe('heatmapColor', () => {
  it.each([
    [-100, '#7f1d1d'],
    [-150, '#7f1d1d'],
    [-65, '#b91c1c'],
    [0, '#e5e7eb'],
    [65, '#15803d'],
    [100, '#14532d'],
    [250, '#14532d'],
    [null, '#e5e7eb'],
    [Number.NaN, '#e5e7eb'],
  ] as [number | null, string][])('%s -> %s', (score, colour) => {
    expect(heatmapColor(score)).toBe(colour);
  });

  it('deepens within a band: light tints below the threshold, deep colours from it', () => {
    // neutral (229,231,235) toward light green (134,239,172) at 32.5 of 65: (182,235,204); deep green at 65 (21,128,61).
    expect(heatmapColor(32.5)).toBe('#b6ebcc');
    expect(heatmapColor(64.99)).not.toBe(heatmapColor(65));
  });
});

describe('tileSize', () => {
  it.each([
    [undefined, 100, 1],
    [0, 100, 1],
    [100, 100, 3],
    [25, 100, 2],
    [50, 0, 1],
  ] as [number | undefined, number, number][])('%s of %s', (cap, largest, size) => {
    expect(tileSize(cap, largest)).toBe(size);
  });
});

describe('heatmapLayout', () => {
  const record = (ticker: string, cScore: number, sector?: string, subIndustry?: string): SignalRecord =>
    signalRecord(ticker, { cScore, ...(sector === undefined ? {} : { sector }), ...(subIndustry === undefined ? {} : { subIndustry }) });
  it('groups by sector then sub-industry, Unclassified last, tiles by C-Score descending', () => {
    const layout = heatmapLayout([
      record('B', 10, 'Energy', 'Oil'),
      record('A', 70, 'Energy', 'Oil'),
      record('C', -80, 'Energy', 'Gas'),
      record('D', 0),
      record('E', 5, 'Consumer Staples', 'Food'),
    ], { A: 100 });
    expect(layout.map((s) => [s.sector, s.count])).toEqual([['Consumer Staples', 1], ['Energy', 3], [UNCLASSIFIED, 1]]);
    expect(layout[1]!.groups.map((g) => [g.subIndustry, g.tiles.map((t) => t.ticker)])).toEqual([['Gas', ['C']], ['Oil', ['A', 'B']]]);
    expect(layout[1]!.groups[1]!.tiles.map((t) => t.size)).toEqual([3, 1]);
  });
});

describe('archive pagination', () => {
  it.each([
    [0, 1],
    [7, 1],
    [8, 2],
    [60, 9],
  ])('%i files fill %i pages', (total, pages) => {
    expect(pageCount(total)).toBe(pages);
  });

  it('slices 7 a page', () => {
    const items = Array.from({ length: 16 }, (_, i) => i);
    expect(pageItems(items, 1)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pageItems(items, 3)).toEqual([14, 15]);
  });

  it.each([
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 9, [1, 2, 'gap', 9]],
    [5, 9, [1, 'gap', 4, 5, 6, 'gap', 9]],
    [9, 9, [1, 'gap', 8, 9]],
  ] as [number, number, (number | 'gap')[]][])('page %i of %i', (current, count, expected) => {
    expect(pagerNumbers(current, count)).toEqual(expected);
  });

  it.each([[1, '/archives'], [2, '/archives/2']])('page %i is at %s', (page, href) => {
    expect(archivePageHref(page)).toBe(href);
  });
});

describe('searchTickers', () => {
  const index: SearchEntry[] = [['AAPL', 'Apple Inc.', 1], ['A', 'Agilent Technologies', 2], ['PAYX', 'Paychex', 3], ['APA', 'APA Corporation', 4], ['MSFT', 'Microsoft', 5]];
  it.each([
    ['', []],
    ['a', ['A', 'AAPL', 'APA', 'PAYX']],
    ['aapl', ['AAPL']],
    ['apple', ['AAPL']],
    ['tech', ['A']],
    ['soft', ['MSFT']],
    ['zzz', []],
  ] as [string, string[]][])('%s', (query, tickers) => {
    expect(searchTickers(index, query).map((e) => e[0])).toEqual(tickers);
  });
});

describe('archive view', async () => {
  const { archiveOrder, archiveDate, downloadHref, formatUploadTime } = await import('../../src/lib/domain/report/archive-view');
  const file = (id: string, reportDates: string[], archivedAt: string) =>
    ({ id, reportDates, archivedAt, sheets: [], fileName: `${id}.csv`, kind: 'csv', rowCount: 1, bytes: 1, sha256: '' }) as never;
  it('orders newest report first, then newest upload', () => {
    const files = [file('a', ['2026-11-18'], '2026-11-18T08:00:00Z'), file('b', ['2026-11-20'], '2026-11-20T08:00:00Z'), file('c', ['2026-11-18'], '2026-11-19T08:00:00Z')];
    expect(archiveOrder(files).map((f: { id: string }) => f.id)).toEqual(['b', 'c', 'a']);
    expect(archiveDate(file('d', ['2026-11-02', '2026-11-03'], ''))).toBe('2026-11-03');
    expect(archiveDate(file('e', [], ''))).toBeNull();
  });
  it('links to the download routes of spec section 7', () => {
    const f = file('0123456789abcdef', [], '');
    expect(downloadHref.raw(f)).toBe('/api/download-excel/0123456789abcdef');
    expect(downloadHref.csv(f)).toBe('/api/download-csv/0123456789abcdef');
    expect(downloadHref.sheet(f, 2)).toBe('/api/download-csv/0123456789abcdef?sheetId=2');
  });
  it.each([
    ['2026-11-20T13:05:00.000Z', 'Nov 20, 2026, 1:05 PM UTC'],
    ['not a date', 'N/A'],
  ])('upload time %s', (value, text) => {
    expect(formatUploadTime(value)).toBe(text);
  });
});
