import { describe, expect, it } from 'vitest';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';
import { similarFinder, similarTickers } from '../../src/lib/domain/signals/similar';
import { signalRecord } from '../fixtures/records';

function record(ticker: string, cScore: number, sector?: string, subIndustry?: string): SignalRecord {
  return signalRecord(ticker, { cScore, ...(sector === undefined ? {} : { sector }), ...(subIndustry === undefined ? {} : { subIndustry }) });
}

const latest = [
  record('AAPL', 72.4, 'Information Technology', 'Technology Hardware'),
  record('DELL', -30, 'Information Technology', 'Technology Hardware'),
  record('HPQ', 68, 'Information Technology', 'Technology Hardware'),
  record('MSFT', -80, 'Information Technology', 'Systems Software'),
  record('ORCL', 10, 'Information Technology', 'Systems Software'),
  record('NVDA', 95, 'Information Technology', 'Semiconductors'),
  record('JPM', 99, 'Financials', 'Diversified Banks'),
  record('XYZ', 50),
  record('ABC', 60),
];

describe('similarTickers: same sub-industry, then same sector, each by |C| descending, never itself', () => {
  it.each([
    {
      ticker: 'AAPL',
      expected: [
        { ticker: 'HPQ', cScore: 68 },
        { ticker: 'DELL', cScore: -30 },
        { ticker: 'NVDA', cScore: 95 },
        { ticker: 'MSFT', cScore: -80 },
        { ticker: 'ORCL', cScore: 10 },
      ],
    },
    {
      ticker: 'msft',
      expected: [
        { ticker: 'ORCL', cScore: 10 },
        { ticker: 'NVDA', cScore: 95 },
        { ticker: 'AAPL', cScore: 72.4 },
        { ticker: 'HPQ', cScore: 68 },
        { ticker: 'DELL', cScore: -30 },
      ],
    },
    { ticker: 'JPM', expected: [] },
    { ticker: 'XYZ', expected: [] },
    { ticker: 'TSLA', expected: [] },
  ])('$ticker', ({ ticker, expected }) => {
    expect(similarTickers(ticker, latest)).toEqual(expected);
  });

  it.each([
    [2, ['HPQ', 'DELL']],
    [0, []],
  ])('stops at a limit of %s', (limit, expected) => {
    expect(similarTickers('AAPL', latest, limit).map((s) => s.ticker)).toEqual(expected);
  });

  it('returns at most 12 by default', () => {
    const crowd = Array.from({ length: 20 }, (_, i) => record(`T${String(i).padStart(2, '0')}`, i, 'Energy', 'Oil'));
    const similar = similarTickers('T00', crowd);
    expect(similar).toHaveLength(12);
    expect(similar[0]).toEqual({ ticker: 'T19', cScore: 19 });
    expect(similar[11]).toEqual({ ticker: 'T08', cScore: 8 });
  });
});

describe('similarFinder: the same answer as similarTickers over the whole report, from the sector and sub-industry groups', () => {
  it('agrees for every record, classified, half-classified or not at all', () => {
    const sectors = ['Energy', 'Utilities', undefined];
    const subs = ['Oil', 'Gas', 'Power', undefined];
    const latest = Array.from({ length: 60 }, (_, i) => record(`T${i}`, ((i * 37) % 201) - 100, sectors[i % 3], subs[i % 4]));
    const similar = similarFinder(latest);
    for (const r of latest) expect(similar(r)).toEqual(similarTickers(r.ticker, latest));
    expect(similar(latest[0]!).length).toBeGreaterThan(0);
  });
});
