import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TABLE_STATE,
  matchesFilters,
  nextSort,
  parseSortNumber,
  parseTableState,
  rowWindow,
  sortPermutation,
  tableStateToQuery,
  type TableState,
} from '../../src/lib/domain/signals/table';

describe('parseTableState', () => {
  it.each([
    ['', DEFAULT_TABLE_STATE],
    ['?q=%20apple%20&direction=bullish', { ...DEFAULT_TABLE_STATE, q: 'apple', direction: 'bullish' }],
    ['?direction=sideways&order=up', DEFAULT_TABLE_STATE],
    ['?sector=Energy&watched=1&sort=cScore&order=asc', { ...DEFAULT_TABLE_STATE, sector: 'Energy', watched: true, sort: 'cScore', order: 'asc' }],
    ['?sort=<script>', DEFAULT_TABLE_STATE],
    ['?watched=true', DEFAULT_TABLE_STATE],
  ])('%s', (query, expected) => {
    expect(parseTableState(query)).toEqual(expected);
  });

  it('round-trips through the query', () => {
    const state: TableState = { q: 'a b', direction: 'bearish', sector: 'Health Care', watched: true, sort: 'delta', order: 'asc' };
    expect(parseTableState(tableStateToQuery(state))).toEqual(state);
    expect(tableStateToQuery(DEFAULT_TABLE_STATE)).toBe('');
  });
});

describe('matchesFilters', () => {
  const row = { ticker: 'AAPL', company: 'Apple Inc.', direction: 'bullish' as const, sector: 'Information Technology' };
  it.each([
    [{}, new Set<string>(), true],
    [{ q: 'aap' }, new Set<string>(), true],
    [{ q: 'APPLE' }, new Set<string>(), true],
    [{ q: 'msft' }, new Set<string>(), false],
    [{ direction: 'bearish' }, new Set<string>(), false],
    [{ direction: 'bullish' }, new Set<string>(), true],
    [{ sector: 'Energy' }, new Set<string>(), false],
    [{ watched: true }, new Set<string>(), false],
    [{ watched: true }, new Set(['AAPL']), true],
  ] as [Partial<TableState>, Set<string>, boolean][])('%j', (partial, watched, expected) => {
    expect(matchesFilters(row, { ...DEFAULT_TABLE_STATE, ...partial }, watched)).toBe(expected);
  });
});

describe('sortPermutation', () => {
  it.each([
    [[3, 1, 2], 'asc', [1, 2, 0]],
    [[3, 1, 2], 'desc', [0, 2, 1]],
    [[1, Number.NaN, 1, 0], 'asc', [3, 0, 2, 1]],
    [[1, Number.NaN, 1, 0], 'desc', [0, 2, 3, 1]],
    [['b', 'A', 'a', 'c'], 'asc', [1, 2, 0, 3]],
    [['2026-11-20', '2026-09-03'], 'asc', [1, 0]],
    [['BRK.B', 'BRK-A', 'BR'], 'desc', [0, 1, 2]],
  ] as [(number | string)[], 'asc' | 'desc', number[]][])('%j %s', (values, order, expected) => {
    expect(sortPermutation(values, order)).toEqual(expected);
  });

  it('sorts 6,000 rows well under 100 ms', () => {
    const values = Array.from({ length: 6000 }, (_, i) => Math.sin(i) * 100);
    const start = performance.now();
    const order = sortPermutation(values, 'desc');
    expect(performance.now() - start).toBeLessThan(100);
    expect(values[order[0]!]).toBe(Math.max(...values));
  });
});

describe('parseSortNumber', () => {
  it.each([
    ['72.34', 72.34],
    ['-68.00 ▼', -68],
    ['+5.0', 5],
    ['3 of 7', 3],
    ['1,234.5', 1234.5],
    ['—', Number.NaN],
  ])('%s', (text, expected) => {
    expect(parseSortNumber(text)).toBe(expected);
  });
});

describe('nextSort', () => {
  it.each([
    [DEFAULT_TABLE_STATE, 'cScore', 'num', 'cScore', 'desc'],
    [DEFAULT_TABLE_STATE, 'ticker', 'text', 'ticker', 'asc'],
    [{ ...DEFAULT_TABLE_STATE, sort: 'cScore', order: 'desc' }, 'cScore', 'num', 'cScore', 'asc'],
    [{ ...DEFAULT_TABLE_STATE, sort: 'cScore', order: 'asc' }, 'cScore', 'num', 'cScore', 'desc'],
  ] as [TableState, string, 'num' | 'text', string, string][])('%j %s', (state, key, kind, sort, order) => {
    expect(nextSort(state, key, kind)).toMatchObject({ sort, order });
  });
});

describe('rowWindow', () => {
  // 44 px rows in a 440 px tall container: 10 rows visible, one more for a partly shown row.
  it('keeps the visible rows and the overscan on each side', () => {
    expect(rowWindow(0, 440, 44, 6000, 12)).toEqual({ first: 0, last: 23 });
    expect(rowWindow(44 * 100, 440, 44, 6000, 12)).toEqual({ first: 88, last: 123 });
    // Half-way through a row still counts that row as the top one.
    expect(rowWindow(44 * 100 + 30, 440, 44, 6000, 12)).toEqual({ first: 88, last: 123 });
  });

  it('keeps only the rows that reach into the view when the table starts below its top', () => {
    // The table starts 300 px down a 440 px view: 140 px show rows (4 of them, one more for a partly shown row).
    expect(rowWindow(-300, 440, 44, 6000, 4)).toEqual({ first: 0, last: 9 });
    // The table starts below the view: no row shows, the overscan stays for the first scroll and the keyboard.
    expect(rowWindow(-900, 440, 44, 6000, 4)).toEqual({ first: 0, last: 5 });
  });

  it('clamps to the rows there are', () => {
    expect(rowWindow(44 * 5995, 440, 44, 6000, 12)).toEqual({ first: 5977, last: 6000 });
    expect(rowWindow(0, 440, 44, 7, 12)).toEqual({ first: 0, last: 7 });
  });

  it('shows the last rows when scrolled past the end of a list that just got shorter', () => {
    // Scrolled to row 3,000, then a filter leaves 20 rows: the 11 visible ones are the last 11, plus overscan above.
    expect(rowWindow(44 * 3000, 440, 44, 20, 12)).toEqual({ first: 0, last: 20 });
    expect(rowWindow(44 * 3000, 440, 44, 100, 2)).toEqual({ first: 87, last: 100 });
  });

  it('is empty with no rows or no row height', () => {
    expect(rowWindow(0, 440, 44, 0)).toEqual({ first: 0, last: 0 });
    expect(rowWindow(0, 440, 0, 6000)).toEqual({ first: 0, last: 0 });
  });
});
