import { describe, expect, it } from 'vitest';
import { parseScreen, runScreen, type ScreenRow } from '../../src/lib/domain/signals/screener';
import { signalDirection } from '../../src/lib/domain/signals/signal';

/** A seeded report of `n` stocks with ties, missing fundamentals and every flag. */
function report(n: number): ScreenRow[] {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const sectors = ['Energy', 'Utilities', 'Health Care', 'Information Technology'];
  return Array.from({ length: n }, (_, i) => {
    const cscore = Math.round(next() * 200 - 100);
    return {
      ticker: `T${String(i).padStart(4, '0')}`, company: `Company ${i}`, sector: sectors[i % 4]!, industry: `Industry ${i % 9}`,
      cscore, change: Math.round(next() * 60 - 30), delta: Math.round(next() * 100), market: Math.round(next() * 200 - 100),
      accuracy: Math.round(next() * 100), relevance: Math.round(next() * 100), avg7: Math.round(next() * 200 - 100), avg14: Math.round(next() * 200 - 100),
      days7: Math.floor(next() * 8), days14: Math.floor(next() * 15), mcap: next() < 0.2 ? null : Math.round(next() * 500), pe: next() < 0.3 ? null : Math.round(next() * 60),
      top: next() < 0.1, new: next() < 0.1, reversed: next() < 0.1, since: Math.floor(next() * 10),
    };
  });
}

/** The screen's rule written out plainly, row by row, then one sort: what the columns must agree with. */
function plainScreen(rows: readonly ScreenRow[], query: string, watched: ReadonlySet<string>): string[] {
  const { screen } = parseScreen(query);
  const kept = rows.filter((r) => {
    if (screen.signals.length && !screen.signals.includes(signalDirection(r.cscore))) return false;
    if (screen.sectors.length && !screen.sectors.includes(r.sector)) return false;
    if (screen.industries.length && !screen.industries.includes(r.industry)) return false;
    if (screen.flags.top && !r.top) return false;
    if (screen.flags.new && !r.new) return false;
    if (screen.flags.reversed && !r.reversed) return false;
    if (screen.flags.watched && !watched.has(r.ticker)) return false;
    if (screen.since !== null && r.since < screen.since) return false;
    return Object.entries(screen.ranges).every(([key, range]) => {
      const v = r[key as keyof ScreenRow] as number | null;
      return v !== null && (range.min === null || v >= range.min) && (range.max === null || v <= range.max);
    });
  });
  const byDefault = (a: ScreenRow, b: ScreenRow) => b.cscore - a.cscore || (a.ticker < b.ticker ? -1 : 1);
  const sort = screen.sort;
  kept.sort((a, b) => {
    if (sort === null) return byDefault(a, b);
    const sign = sort.order === 'asc' ? 1 : -1;
    if (sort.key === 'ticker') return (a.ticker < b.ticker ? -1 : 1) * sign;
    const x = a[sort.key as keyof ScreenRow] as number | null;
    const y = b[sort.key as keyof ScreenRow] as number | null;
    if (x === null || y === null) return x === y ? byDefault(a, b) : x === null ? 1 : -1;
    return (x - y) * sign || byDefault(a, b);
  });
  return kept.map((r) => r.ticker);
}

const QUERIES = [
  '', 'cscore=40..', 'cscore=..-40', 'cscore=-20..20&sort=-change', 'signal=bullish&sort=ticker', 'signal=bearish&signal=neutral&sort=-ticker',
  'sector=Energy&sector=Utilities&days7=5..', 'industry=Industry%203&sort=mcap', 'mcap=100..&sort=-pe', 'pe=..20&mcap=..300&sort=-mcap',
  'top=1', 'new=1&sort=-avg7', 'reversed=1&since=3', 'watched=1&sort=accuracy', 'sector=Nowhere', 'change=15..&sort=-change&relevance=..50',
];

describe('runScreen over precomputed columns', () => {
  const rows = report(3000);
  const watched = new Set(rows.filter((_, i) => i % 7 === 0).map((r) => r.ticker));

  it('gives the plain rule\'s rows in the plain rule\'s order for every query', () => {
    for (const query of QUERIES) {
      expect(runScreen(rows, parseScreen(query).screen, watched).order.map((i) => rows[i]!.ticker), query).toEqual(plainScreen(rows, query, watched));
    }
  });

  it('reads no row after the first screen of a report: each input tests the columns, it does not walk the rows again', () => {
    let reads = 0;
    const counted = report(2000).map((row) => new Proxy(row, { get: (target, key) => ((reads += 1), target[key as keyof ScreenRow]) }));
    runScreen(counted, parseScreen('cscore=0..').screen);
    reads = 0;
    for (const query of ['cscore=40..', 'cscore=..-40', 'cscore=65..', 'cscore=-20..20&sector=Energy', 'mcap=10..&signal=bullish']) runScreen(counted, parseScreen(query).screen);
    expect(reads).toBe(0);
  });
});
