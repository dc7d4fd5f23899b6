import { describe, expect, it } from 'vitest';
import {
  FREE_SIGNALS,
  FREE_TOP_SIGNALS,
  PREVIEW_ROWS,
  freeSlice,
  isArchiveLocked,
  isScoreLocked,
  lockedRowsText,
  previewRows,
  seesEverything,
  visibleRows,
} from '../../src/lib/domain/accounts/entitlements';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';
import { signalRecord } from '../fixtures/records';

const anonymous = { paywall: true, isPro: false };
const pro = { paywall: true, isPro: true };
const paywallOff = { paywall: false, isPro: false };

/** 60 tickers T00..T59 with |C| = 99 - i, alternating sign; the rows listed in `tops` are top tickers. */
function report(tops: number[]): SignalRecord[] {
  return Array.from({ length: 60 }, (_, i) =>
    signalRecord(`T${String(i).padStart(2, '0')}`, { cScore: (i % 2 === 0 ? 1 : -1) * (99 - i), isTopTicker: tops.includes(i) }),
  );
}
const ticker = (r: SignalRecord) => r.ticker;

describe('the spec numbers', () => {
  it('Free has 45 daily signals and 5 daily top signals; the preview is 5 rows', () => {
    expect([FREE_SIGNALS, FREE_TOP_SIGNALS, PREVIEW_ROWS]).toEqual([45, 5, 5]);
  });
});

describe('freeSlice', () => {
  const cases: { name: string; tops: number[]; freeTop: string[]; lockedTop: string[]; lastFree: string; size: number }[] = [
    { name: 'no top tickers: the 45 largest |C|', tops: [], freeTop: [], lockedTop: [], lastFree: 'T44', size: 45 },
    {
      name: '7 top tickers: the 5 of largest |C| are free, 2 are locked and leave the 45',
      tops: [3, 10, 20, 30, 40, 50, 55],
      freeTop: ['T03', 'T10', 'T20', 'T30', 'T40'],
      lockedTop: ['T50', 'T55'],
      lastFree: 'T44',
      size: 45,
    },
    {
      name: 'a top ticker below the 45th row is still among the free 5',
      tops: [1, 50],
      freeTop: ['T01', 'T50'],
      lockedTop: [],
      lastFree: 'T43',
      size: 45,
    },
    {
      name: '8 top tickers all within the 45: 3 locked, rows 45-47 fill in',
      tops: [0, 1, 2, 3, 4, 5, 6, 7],
      freeTop: ['T00', 'T01', 'T02', 'T03', 'T04'],
      lockedTop: ['T05', 'T06', 'T07'],
      lastFree: 'T47',
      size: 45,
    },
  ];
  it.each(cases)('$name', ({ tops, freeTop, lockedTop, lastFree, size }) => {
    const slice = freeSlice(report(tops));
    expect([...slice.freeTopTickers].sort()).toEqual(freeTop);
    expect([...slice.lockedTopTickers].sort()).toEqual(lockedTop);
    expect(slice.freeTickers.size).toBe(size);
    expect(slice.freeTickers.has(lastFree)).toBe(true);
    for (const t of freeTop) expect(slice.freeTickers.has(t)).toBe(true);
    for (const t of lockedTop) expect(slice.freeTickers.has(t)).toBe(false);
  });

  it('the free 5 follow |C-Score|, bearish included', () => {
    const rows = [
      signalRecord('BULL', { cScore: 70, isTopTicker: true }),
      signalRecord('BEAR', { cScore: -95, isTopTicker: true }),
      signalRecord('A', { cScore: 90, isTopTicker: true }),
      signalRecord('B', { cScore: -80, isTopTicker: true }),
      signalRecord('C', { cScore: 85, isTopTicker: true }),
      signalRecord('D', { cScore: -75, isTopTicker: true }),
    ];
    const slice = freeSlice(rows);
    expect([...slice.freeTopTickers]).toEqual(['BEAR', 'A', 'C', 'B', 'D']);
    expect([...slice.lockedTopTickers]).toEqual(['BULL']);
  });

  it('a short report: every row is free but the locked top tickers', () => {
    const slice = freeSlice(report([0, 1, 2, 3, 4, 5]).slice(0, 10));
    expect(slice.freeTickers.size).toBe(9);
    expect(slice.lockedTopTickers).toEqual(new Set(['T05']));
  });
});

describe('visibleRows and previewRows', () => {
  const rows = report([3, 10, 20, 30, 40, 50, 55]);
  const slice = freeSlice(rows);
  it('anonymous and Free see the 45 free rows in the list order and a count of 15 locked', () => {
    const list = visibleRows(rows, slice, anonymous, ticker);
    expect(list.rows).toHaveLength(45);
    expect(list.locked).toBe(15);
    expect(list.rows.map(ticker)).not.toContain('T50');
    expect(list.rows[0]?.ticker).toBe('T00');
  });
  it.each([
    ['Pro', pro],
    ['PAYWALL off', paywallOff],
  ])('%s sees all 60 rows', (_, viewer) => {
    expect(visibleRows(rows, slice, viewer, ticker)).toEqual({ rows, locked: 0 });
    expect(previewRows(rows, slice, viewer, ticker)).toEqual({ rows, locked: 0 });
  });
  it('the preview is the first 5 free rows, never a locked top ticker', () => {
    const list = [rows[50]!, rows[55]!, ...rows.slice(0, 8)];
    const preview = previewRows(list, slice, anonymous, ticker);
    expect(preview.rows.map(ticker)).toEqual(['T00', 'T01', 'T02', 'T03', 'T04']);
    expect(preview.locked).toBe(5);
  });
});

describe('stock pages, archives, texts', () => {
  const slice = freeSlice(report([3, 10, 20, 30, 40, 50, 55]));
  it.each([
    ['T50', anonymous, true],
    ['T03', anonymous, false],
    ['T59', anonymous, false],
    ['T50', pro, false],
    ['T50', paywallOff, false],
  ] as const)('%s scores locked: %s -> %s', (t, viewer, locked) => {
    expect(isScoreLocked(t, slice, viewer)).toBe(locked);
  });
  it('the archive is gated only for non-Pro with PAYWALL on', () => {
    expect([isArchiveLocked(anonymous), isArchiveLocked(pro), isArchiveLocked(paywallOff)]).toEqual([true, false, false]);
    expect([seesEverything(anonymous), seesEverything(pro), seesEverything(paywallOff)]).toEqual([false, true, true]);
  });
  it('counts locked rows', () => {
    expect(lockedRowsText(15)).toBe('15 more signals with Pro');
    expect(lockedRowsText(1)).toBe('1 more signal with Pro');
  });
});
