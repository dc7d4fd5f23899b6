import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { closestTickers, searchTickers, typoDistance, type SearchEntry } from '../../src/lib/domain/signals/search';

// The S&P 500 of the bundled universe file: the names a reader types.
const rows = parse(readFileSync('data/universe/sp500-constituents.csv'), { columns: true }) as { Symbol: string; Security: string }[];
const index: SearchEntry[] = rows.map((r, i) => [r.Symbol, r.Security, i % 2 ? 70 : -20]);

describe('typoDistance', () => {
  it.each([
    ['nvda', 'nvda', false, 0],
    ['nvdia', 'nvda', false, 1],
    ['aple', 'apple', false, 0.5], // a doubled letter typed once
    ['nvdaa', 'nvda', false, 0.5], // a letter typed twice
    ['aple', 'alle', false, 1],
    ['tesal', 'tesla', false, 1], // two neighbours swapped
    ['micro', 'microsoft', true, 0],
    ['mircosoft', 'microsoft', true, 1],
    ['', 'abc', true, 0],
  ] as const)('%s to %s (prefix %s) is %d', (query, target, prefix, distance) => {
    expect(typoDistance(query, target, prefix)).toBe(distance);
  });
});

describe('searchTickers forgives', () => {
  it.each([
    ['nvdia', 'NVDA'],
    ['aple', 'AAPL'],
    ['coca cola', 'KO'],
    ['Coca-Cola', 'KO'],
    ['nvda', 'NVDA'],
    ['NVIDIA', 'NVDA'],
    ['apple', 'AAPL'],
    ['mircosoft', 'MSFT'],
    ['amazn', 'AMZN'],
    ['tesal', 'TSLA'],
    ['netflx', 'NFLX'],
    ['exxon', 'XOM'],
    ['jp morgan', 'JPM'],
    ['berkshire', 'BRK.B'],
  ])('"%s" finds %s first', (query, ticker) => {
    expect(searchTickers(index, query)[0]?.[0]).toBe(ticker);
  });

  it('keeps the C-Score of each result for its badge', () => {
    const [entry] = searchTickers(index, 'nvdia');
    expect(entry).toEqual(index.find((e) => e[0] === 'NVDA'));
  });

  it('matches nothing for an empty query, for a short query that is no prefix or substring, or past two typos', () => {
    expect(searchTickers(index, '  ')).toEqual([]);
    expect(searchTickers(index, 'zq')).toEqual([]);
    expect(searchTickers(index, 'xyzzy')).toEqual([]);
  });

  it('lists at most 8, exact ticker first, then ticker prefixes', () => {
    const found = searchTickers(index, 'a').map((e) => e[0]);
    expect(found).toHaveLength(8);
    expect(found[0]).toBe('A');
    expect(found.slice(1).every((t) => t.startsWith('A'))).toBe(true);
  });
});

describe('closestTickers', () => {
  it.each([
    ['NVDAA', 'NVDA'],
    ['APPL', 'AAPL'],
    ['MSFTT', 'MSFT'],
    ['GOOGLL', 'GOOGL'],
  ])('suggests %s -> %s first', (query, ticker) => {
    expect(closestTickers(index, query)[0]?.[0]).toBe(ticker);
  });

  it('offers at most 5, and none for a query that resembles nothing', () => {
    expect(closestTickers(index, 'APPL')).toHaveLength(5);
    expect(closestTickers(index, 'zzzz')).toEqual([]);
    expect(closestTickers(index, 'QQQQQQ')).toEqual([]);
    expect(closestTickers(index, '')).toEqual([]);
  });
});

describe('ranking a reader can trust', () => {
  it('"appl" lists AAPL first, then the other companies starting "appl", and no typo matches', () => {
    expect(searchTickers(index, 'appl').map((e) => e[0])).toEqual(['AAPL', 'AMAT', 'APP']);
  });

  it.each([['aapl', 'AAPL'], ['nvda', 'NVDA'], ['msf', 'MSFT'], ['goog', 'GOOG']])('an exact or prefix ticker match ranks first: "%s" -> %s', (query, ticker) => {
    expect(searchTickers(index, query)[0]?.[0]).toBe(ticker);
  });

  it('keeps the typo tolerance when nothing matches as typed: "nvdia" -> NVDA', () => {
    expect(searchTickers(index, 'nvdia').map((e) => e[0])).toEqual(['NVDA']);
  });

  it('"zzzz" has no results and no closest matches', () => {
    expect(searchTickers(index, 'zzzz')).toEqual([]);
    expect(closestTickers(index, 'zzzz')).toEqual([]);
  });
});
