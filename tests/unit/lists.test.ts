import { describe, expect, it } from 'vitest';
import {
  allSignals,
  currentlyQualified,
  recentlyQualified,
  reversalsAndExits,
  withSignalChangeType,
} from '../../src/lib/domain/signals/lists';
import type { SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';
import { signalRecord } from '../fixtures/records';

function record(ticker: string, cScore: number, reportDate: string): SignalRecord {
  return signalRecord(ticker, { cScore, reportDate });
}

/** A history whose latest report holds every ticker with a score on the last date. */
function history(dates: string[], scores: Record<string, (number | null)[]>): SignalHistory {
  const last = dates.at(-1) ?? '';
  const latest = Object.entries(scores).flatMap(([ticker, row]) => {
    const score = row.at(-1);
    return typeof score === 'number' ? [record(ticker, score, last)] : [];
  });
  return { dates, latest, scores };
}

// D = 11-18. The last 5 reports are 11-12 .. 11-18.
const dates = ['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18'];
const week = history(dates, {
  //      11-10 11-11 11-12 11-13 11-16 11-17 11-18
  AAA: [   10,   20,   30,   40,   50,   60,   70], // qualifies on D: new
  BBB: [   70,   70,   70,   70,   70,   70,   90], // qualified all week: neither new nor recent
  CCC: [    0,    0,    0,  -70,  -80,  -75,  -70], // bearish since 11-13
  DDD: [   80,   80,   80,   70,   40,   30,   20], // exits on 11-16
  EEE: [  -70,  -70,   66,   68,  -67,   70,   10], // flips twice, then exits on D
  FFF: [    0,    0,  -70,    0,    0,   80,   85], // bearish exit 11-13, back bullish 11-17
  GGG: [ null, null, null, null, null, null,   70], // first report on D: new (absent = not qualified)
  HHH: [   70,   70,   70,   70,   70,    0, null], // not in the latest report: in no list
});

const tickers = (records: SignalRecord[]) => records.map((r) => r.ticker);

describe('allSignals: every ticker of D, C-Score descending, ticker ascending on ties', () => {
  it.each([
    ['the week', week, ['BBB', 'FFF', 'AAA', 'GGG', 'DDD', 'EEE', 'CCC']],
    ['no reports', history([], {}), []],
  ])('%s', (_, h, expected) => expect(tickers(allSignals(h))).toEqual(expected));
});

describe('currentlyQualified: |C| >= 65 on D, |C| descending', () => {
  it.each([
    // AAA 70, GGG 70 and CCC -70 tie on |C|: bullish first, then by ticker.
    ['the week', week, ['BBB', 'FFF', 'AAA', 'GGG', 'CCC']],
    ['exactly 65 and -65 qualify', history(['2026-11-18'], { UP: [65], DOWN: [-65], MID: [64.99] }), ['UP', 'DOWN']],
    ['no reports', history([], {}), []],
  ])('%s', (_, h, expected) => expect(tickers(currentlyQualified(h))).toEqual(expected));
});

describe('recentlyQualified', () => {
  it.each([
    {
      name: 'the week',
      h: week,
      newToday: ['AAA', 'GGG'],
      recent: [['AAA', '2026-11-18'], ['GGG', '2026-11-18'], ['FFF', '2026-11-17'], ['CCC', '2026-11-13']],
    },
    {
      name: 'a single report: every qualified ticker is new',
      h: history(['2026-11-18'], { UP: [80], DOWN: [-70], MID: [10] }),
      newToday: ['UP', 'DOWN'],
      recent: [['UP', '2026-11-18'], ['DOWN', '2026-11-18']],
    },
    {
      name: 'a crossing on the 5th report back counts, on the 6th does not',
      h: history(['d1', 'd2', 'd3', 'd4', 'd5', 'd6'], {
        IN: [0, 70, 70, 70, 70, 70],
        OUT: [70, 70, 70, 70, 70, 70],
      }),
      newToday: [],
      recent: [['IN', 'd2']],
    },
    {
      name: 'a bullish-to-bearish flip is not a new qualification',
      h: history(['d1', 'd2', 'd3'], { FLIP: [0, 70, -70] }),
      newToday: [],
      recent: [['FLIP', 'd2']],
    },
    { name: 'no reports', h: history([], {}), newToday: [], recent: [] },
  ])('$name', ({ h, newToday, recent }) => {
    const lists = recentlyQualified(h);
    expect(tickers(lists.newToday)).toEqual(newToday);
    expect(lists.recent.map((r) => [r.record.ticker, r.since])).toEqual(recent);
  });
});

describe('reversalsAndExits', () => {
  it.each([
    {
      window: undefined,
      exits: [
        { ticker: 'EEE', from: 'bullish', to: 'neutral', date: '2026-11-18' },
        { ticker: 'DDD', from: 'bullish', to: 'neutral', date: '2026-11-16' },
        { ticker: 'FFF', from: 'bearish', to: 'neutral', date: '2026-11-13' },
      ],
      reversals: [
        { ticker: 'EEE', from: 'bearish', to: 'bullish', date: '2026-11-17' },
        { ticker: 'FFF', from: 'bearish', to: 'bullish', date: '2026-11-17' },
        { ticker: 'EEE', from: 'bullish', to: 'bearish', date: '2026-11-16' },
      ],
    },
    {
      // The whole week also sees EEE's -70 on 11-11 turn into 66 on 11-12.
      window: 7,
      exits: [
        { ticker: 'EEE', from: 'bullish', to: 'neutral', date: '2026-11-18' },
        { ticker: 'DDD', from: 'bullish', to: 'neutral', date: '2026-11-16' },
        { ticker: 'FFF', from: 'bearish', to: 'neutral', date: '2026-11-13' },
      ],
      reversals: [
        { ticker: 'EEE', from: 'bearish', to: 'bullish', date: '2026-11-17' },
        { ticker: 'FFF', from: 'bearish', to: 'bullish', date: '2026-11-17' },
        { ticker: 'EEE', from: 'bullish', to: 'bearish', date: '2026-11-16' },
        { ticker: 'EEE', from: 'bearish', to: 'bullish', date: '2026-11-12' },
      ],
    },
    {
      window: 2,
      exits: [{ ticker: 'EEE', from: 'bullish', to: 'neutral', date: '2026-11-18' }],
      reversals: [],
    },
  ])('window $window', ({ window, exits, reversals }) => {
    expect(reversalsAndExits(week, window)).toEqual({ exits, reversals });
  });

  it.each([
    ['missing from a report is not an exit', { GAP: [70, null, 70] }, { exits: [], reversals: [] }],
    [
      'a flip on consecutive reports is a reversal, not an exit',
      { FLIP: [70, -70, -70] },
      { exits: [], reversals: [{ ticker: 'FLIP', from: 'bullish', to: 'bearish', date: 'd2' }] },
    ],
  ])('%s', (_, scores, expected) => {
    expect(reversalsAndExits(history(['d1', 'd2', 'd3'], scores))).toEqual(expected);
  });
});

describe('withSignalChangeType', () => {
  it('marks exactly the new signals, in the order of the latest report', () => {
    const stale = { ...week, latest: week.latest.map((r) => (r.ticker === 'BBB' ? { ...r, _signalChangeType: 'new' as const } : r)) };
    expect(withSignalChangeType(stale).map((r) => [r.ticker, r._signalChangeType])).toEqual([
      ['AAA', 'new'],
      ['BBB', undefined],
      ['CCC', undefined],
      ['DDD', undefined],
      ['EEE', undefined],
      ['FFF', undefined],
      ['GGG', 'new'],
    ]);
  });
});
