/** "What moved": the supporting scores' change since the previous report and over the last 5, from the reports' records. */
import { describe, expect, it } from 'vitest';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';
import { MOVED_REPORTS, spanHeading, spanTitle, subScoreHistory, tickerSubScores, whatMoved } from '../../src/lib/domain/trend/what-moved';

function record(ticker: string, reportDate: string, [deltaScore, marketScore, accuracyScore, relevanceScore]: number[]): SignalRecord {
  return {
    ticker, companyName: ticker, cScore: 10, yesterdayCScore: 5, reportDate, isTopTicker: false, deltaScore: deltaScore!, marketScore: marketScore!,
    accuracyScore: accuracyScore!, relevanceScore: relevanceScore!, avgCScoreL7D: 0, avgCScoreL14D: 0, countL7DWithSignal: 0, countL14DWithSignal: 0,
  };
}

const DATES = ['2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];

describe('subScoreHistory', () => {
  it('keeps the last 6 reports, for the tickers of the latest, with null where a ticker was missing', () => {
    const byDate = new Map(DATES.map((date, i) => [date, [record('AAPL', date, [i, 2 * i, 50, 60]), ...(i === 3 ? [] : [record('KO', date, [1, 1, 1, 1])])]]));
    byDate.get('2026-11-12')!.push(record('GONE', '2026-11-12', [9, 9, 9, 9]));
    const h = subScoreHistory(byDate);
    expect(MOVED_REPORTS).toBe(5);
    expect(h.dates).toEqual(DATES.slice(1));
    expect(Object.keys(h.values).sort()).toEqual(['AAPL', 'KO']);
    expect(h.values.AAPL).toEqual([[1, 2, 50, 60], [2, 4, 50, 60], [3, 6, 50, 60], [4, 8, 50, 60], [5, 10, 50, 60], [6, 12, 50, 60]]);
    expect(h.values.KO![2]).toBeNull();
    expect(tickerSubScores(h, 'KO')).toEqual({ dates: h.dates, values: { KO: h.values.KO } });
    expect(tickerSubScores(h, 'ZZZ')).toBeNull();
    expect(tickerSubScores(undefined, 'KO')).toBeNull();
  });
});

describe('whatMoved', () => {
  const history = {
    dates: DATES.slice(1),
    values: {
      AAPL: [[10, -20, 55, 70], [12, -18, 55, 71], [15, -25, 56, 70], [11, -30, 56, 69], [14.5, -31, 57, 69], [20, -30.25, 57.5, 68]] as [number, number, number, number][],
      NEW: [null, null, null, null, [1, 2, 3, 4], [2, 2, 2, 2]] as ([number, number, number, number] | null)[],
    },
  };

  it('gives each score now, since the previous report and over the last 5 reports', () => {
    const moved = whatMoved(history, 'AAPL')!;
    expect(moved.rows).toEqual([
      { label: 'Delta', current: 20, sincePrevious: 5.5, overSpan: 10 },
      { label: 'Market', current: -30.25, sincePrevious: 0.75, overSpan: -10.25 },
      { label: 'Accuracy', current: 57.5, sincePrevious: 0.5, overSpan: 2.5 },
      { label: 'Relevance', current: 68, sincePrevious: -1, overSpan: -2 },
    ]);
    expect(moved).toMatchObject({ span: 5, previousDate: '2026-11-19', spanDate: '2026-11-13', shortNote: null });
    expect(spanHeading(moved)).toBe('5 reports');
    expect(spanTitle(moved)).toBe('Change since the report of Nov 13, 2026');
  });

  it('shows no longer change for a ticker missing from the report 5 back', () => {
    const moved = whatMoved(history, 'NEW')!;
    expect(moved.rows[0]).toEqual({ label: 'Delta', current: 2, sincePrevious: 1, overSpan: null });
  });

  it('says so when the history holds fewer than 5 earlier reports', () => {
    const short = { dates: DATES.slice(-3), values: { AAPL: history.values.AAPL.slice(-3) } };
    const moved = whatMoved(short, 'AAPL')!;
    expect(moved.span).toBe(2);
    expect(moved.rows[0]).toEqual({ label: 'Delta', current: 20, sincePrevious: 5.5, overSpan: 9 });
    expect(moved.shortNote).toBe('The archive holds 3 reports, so the longer change spans 2 reports, not 5.');
    const one = whatMoved({ dates: DATES.slice(-1), values: { AAPL: history.values.AAPL.slice(-1) } }, 'AAPL')!;
    expect(one.rows[0]).toEqual({ label: 'Delta', current: 20, sincePrevious: null, overSpan: null });
    expect(one.shortNote).toBe('The archive holds one report only: no change to show yet.');
  });

  it('is null for a ticker without a record on the latest report', () => {
    expect(whatMoved(history, 'ZZZ')).toBeNull();
    expect(whatMoved({ dates: DATES.slice(-2), values: { X: [[1, 1, 1, 1], null] } }, 'X')).toBeNull();
  });
});
