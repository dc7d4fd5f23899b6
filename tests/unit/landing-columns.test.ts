import { describe, expect, it } from 'vitest';
import { dayInNumbers, strongestNewSignals, topSignalCards } from '../../src/lib/domain/signals/landing';
import type { SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';
import { scoreChange } from '../../src/lib/domain/signals/signal';
import { DEFAULT_TABLE_STATE, listOrder, strengthPermutation, type ListOrder, type TableState } from '../../src/lib/domain/signals/table';
import { DEFAULT_SHOWN_COLUMNS, hiddenColumnClasses, parseShownColumns, serializeShownColumns } from '../../src/lib/domain/signals/table-columns';
import { signalRecord } from '../fixtures/records';

/** A history whose latest report holds every ticker with a score on the last date; `top` marks top tickers. */
function history(dates: string[], scores: Record<string, number[]>, top: string[] = []): SignalHistory {
  const last = dates.at(-1)!;
  const latest = Object.entries(scores).map(([ticker, row]) => signalRecord(ticker, { cScore: row.at(-1)!, reportDate: last, isTopTicker: top.includes(ticker) }));
  return { dates, latest, scores };
}

const dates = ['2026-11-16', '2026-11-17', '2026-11-18'];
const day = history(
  dates,
  {
    //     11-16 11-17 11-18
    AAA: [  10,   20,   70], // new bullish
    BBB: [  70,   70,   90], // bullish, not new
    CCC: [   0,  -60,  -98.07], // new bearish, the strongest
    DDD: [ -80,  -70,  -65.22], // bearish, not new
    EEE: [  80,   70,   10], // exits on D
    FFF: [ -70,   75,   66], // reversed on 11-17, not on D
    GGG: [  70,  -20,  -80], // exited 11-17, reversed on D (bullish 11-16, bearish on D)
  },
  ['BBB', 'CCC', 'DDD', 'GGG'],
);
const tickers = (records: SignalRecord[]) => records.map((r) => r.ticker);

describe('the landing page', () => {
  it('counts the day: qualified by direction, new signals, and the exits and reversals dated on the latest report', () => {
    expect(dayInNumbers(day)).toEqual({ date: '2026-11-18', bullish: 3, bearish: 3, newToday: 3, exits: 1, reversals: 1 });
  });

  it('top signals are the top tickers a visitor may see, strongest |C-Score| first, at most the count', () => {
    expect(tickers(topSignalCards(day.latest))).toEqual(['CCC', 'BBB', 'GGG', 'DDD']);
    expect(tickers(topSignalCards(day.latest, 2))).toEqual(['CCC', 'BBB']);
    // PAYWALL=on: only the rows of the free slice.
    expect(tickers(topSignalCards(day.latest.filter((r) => r.ticker !== 'CCC')))).toEqual(['BBB', 'GGG', 'DDD']);
  });

  it('the strongest new signals are the new ones a visitor may see, |C-Score| first', () => {
    expect(tickers(strongestNewSignals(day, day.latest))).toEqual(['CCC', 'GGG', 'AAA']);
    expect(tickers(strongestNewSignals(day, day.latest.filter((r) => r.ticker !== 'GGG'), 1))).toEqual(['CCC']);
  });
});

describe('list order', () => {
  const has = (key: string) => ['cScore', 'delta', 'ticker'].includes(key);
  it.each<[Partial<TableState>, ListOrder]>([
    [{}, { by: 'list' }],
    [{ direction: 'bearish' }, { by: 'strength' }],
    [{ direction: 'bearish', sort: 'cScore', order: 'asc' }, { by: 'column', key: 'cScore', order: 'asc' }],
    [{ sort: 'delta' }, { by: 'column', key: 'delta', order: 'desc' }],
    // A shared address naming a column the table lacks: the direction's strength order.
    [{ direction: 'bullish', sort: 'avg7' }, { by: 'strength' }],
  ])('%o orders by %o', (state, expected) => {
    expect(listOrder({ ...DEFAULT_TABLE_STATE, ...state }, has)).toEqual(expected);
  });

  it('strength puts the strongest first whatever the sign, missing scores last, ties in list order', () => {
    expect(strengthPermutation([-65.22, -98.07, -70, Number.NaN, 70])).toEqual([1, 2, 4, 0, 3]);
  });
});

describe('the column chooser', () => {
  it.each([
    [null, DEFAULT_SHOWN_COLUMNS],
    ['not json', DEFAULT_SHOWN_COLUMNS],
    ['{"delta":true}', DEFAULT_SHOWN_COLUMNS],
    ['[]', []],
    ['["days14","delta","nope"]', ['delta', 'days14']],
  ])('reads %s as %o', (stored, shown) => {
    expect(parseShownColumns(stored)).toEqual(shown);
  });

  it('stores a choice in table order and hides the rest', () => {
    expect(serializeShownColumns(['avg7', 'delta', 'x'])).toBe('["delta","avg7"]');
    expect(hiddenColumnClasses(DEFAULT_SHOWN_COLUMNS)).toEqual(['hide-days7', 'hide-days14']);
    expect(hiddenColumnClasses(['delta'])).toEqual(['hide-market', 'hide-accuracy', 'hide-relevance', 'hide-avg7', 'hide-avg14', 'hide-days7', 'hide-days14']);
  });

  it('the change since yesterday is null when either score is missing', () => {
    expect(scoreChange(70.5, 66.25)).toBe(4.25);
    expect(scoreChange(70, null)).toBeNull();
    expect(scoreChange(undefined, 3)).toBeNull();
  });
});
