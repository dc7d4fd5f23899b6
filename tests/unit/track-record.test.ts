/** Outcomes computed from hand-made series, checked against hand-computed numbers. */
import { describe, expect, it } from 'vitest';
import { aggregateLedger, horizonOutcome, ledgerEntries, measureEntry, mergeLedger, scoreBand, signalEntries, summarize, type LedgerEntry, type LedgerRow, type PriceSeries } from '../../src/lib/domain/track-record/track-record';

/** A ticker's measured ledger, as the track step builds it: its entries, each measured against the closes. */
const ledgerRows = (ticker: string, dates: readonly string[], scores: readonly (number | null)[], prices: PriceSeries): LedgerRow[] =>
  ledgerEntries(ticker, dates, scores).map((entry) => measureEntry(entry, prices));

// January 2026's trading days from the 2nd to the 21st: Monday the 19th (Martin Luther King Jr. Day) is a holiday.
const DAYS = ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12', '2026-01-13', '2026-01-14', '2026-01-15', '2026-01-16', '2026-01-20', '2026-01-21'];
const series = (closes: Record<string, number>): PriceSeries => ({ days: DAYS, closes: new Map(Object.entries(closes)) });
const flat = (value: number) => Object.fromEntries(DAYS.map((d) => [d, value]));

describe('a signal\'s outcome 5 trading days on', () => {
  it('bullish: a hit when the price rose (100 -> 110: +10%), a miss when it fell (100 -> 95: -5%)', () => {
    const up = horizonOutcome(series({ ...flat(100), '2026-01-12': 110 }), '2026-01-05', 'bullish', 100, 5);
    expect(up).toMatchObject({ status: 'closed', date: '2026-01-12', close: 110, hit: true });
    expect(up.priceReturn).toBeCloseTo(0.1, 10);
    expect(up.signalReturn).toBeCloseTo(0.1, 10);
    const down = horizonOutcome(series({ ...flat(100), '2026-01-12': 95 }), '2026-01-05', 'bullish', 100, 5);
    expect(down).toMatchObject({ status: 'closed', hit: false });
    expect(down.signalReturn).toBeCloseTo(-0.05, 10);
  });

  it('bearish: a hit when the price fell (100 -> 90: +10% for the signal), a miss when it rose (100 -> 104: -4%)', () => {
    const fell = horizonOutcome(series({ ...flat(100), '2026-01-12': 90 }), '2026-01-05', 'bearish', 100, 5);
    expect(fell).toMatchObject({ status: 'closed', hit: true });
    expect(fell.priceReturn).toBeCloseTo(-0.1, 10);
    expect(fell.signalReturn).toBeCloseTo(0.1, 10);
    const rose = horizonOutcome(series({ ...flat(100), '2026-01-12': 104 }), '2026-01-05', 'bearish', 100, 5);
    expect(rose).toMatchObject({ status: 'closed', hit: false });
    expect(rose.signalReturn).toBeCloseTo(-0.04, 10);
  });

  it('counts trading days: a holiday inside the horizon moves its end a day later (Jan 13 + 5 is Jan 21, not Jan 20)', () => {
    const outcome = horizonOutcome(series({ ...flat(50), '2026-01-21': 55 }), '2026-01-13', 'bullish', 50, 5);
    expect(outcome).toMatchObject({ status: 'closed', date: '2026-01-21', close: 55, hit: true });
    expect(outcome.priceReturn).toBeCloseTo(0.1, 10);
  });

  it('a horizon still to come is open, with the return so far and no verdict', () => {
    const outcome = horizonOutcome(series({ ...flat(100), '2026-01-21': 103 }), '2026-01-16', 'bullish', 100, 5);
    expect(outcome).toMatchObject({ status: 'open', date: '2026-01-21', close: 103, hit: null });
    expect(outcome.priceReturn).toBeCloseTo(0.03, 10);
  });

  it('a ticker that stopped trading mid-horizon is marked, with the return to its last close, never dropped', () => {
    const prices = series({ '2026-01-02': 100, '2026-01-05': 100, '2026-01-06': 98, '2026-01-07': 96, '2026-01-08': 80 });
    const five = horizonOutcome(prices, '2026-01-05', 'bullish', 100, 5);
    expect(five).toMatchObject({ status: 'stopped', date: '2026-01-08', close: 80, hit: false });
    expect(five.signalReturn).toBeCloseTo(-0.2, 10);
    // Thirty days on lies past the series, but the market went on trading without it: stopped, not open.
    expect(horizonOutcome(prices, '2026-01-05', 'bullish', 100, 30)).toMatchObject({ status: 'stopped', date: '2026-01-08' });
  });

  it('no close on the report date: no outcome at all', () => {
    expect(horizonOutcome(series({}), '2026-01-05', 'bullish', null, 5)).toMatchObject({ status: 'no-price', priceReturn: null, hit: null });
  });
});

describe('the ledger', () => {
  const dates = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12'];

  it('has one row per time a ticker qualified, with its exit: neutral, a reversal, or leaving the report', () => {
    expect(signalEntries([70, 72, 50, -70, -68, null])).toEqual([
      { index: 0, direction: 'bullish', exitIndex: 2 },
      { index: 3, direction: 'bearish', exitIndex: 5 },
    ]);
    // A reversal exits the bullish signal and enters the bearish one on the same report.
    expect(signalEntries([70, -70, -80])).toEqual([
      { index: 0, direction: 'bullish', exitIndex: 1 },
      { index: 1, direction: 'bearish', exitIndex: null },
    ]);
    expect(signalEntries([10, 64.99, -64.99])).toEqual([]);
  });

  it('measures entry to exit in the signal\'s direction', () => {
    const prices = series({ ...flat(100), '2026-01-07': 108, '2026-01-08': 100, '2026-01-12': 90 });
    const rows = ledgerRows('AAPL', dates, [70, 72, 50, -70, -68, null], prices);
    expect(rows.map((r) => [r.date, r.direction, r.cScore, r.entryClose, r.exitDate])).toEqual([
      ['2026-01-05', 'bullish', 70, 100, '2026-01-07'],
      ['2026-01-08', 'bearish', -70, 100, '2026-01-12'],
    ]);
    expect(rows[0]!.exitReturn).toBeCloseTo(0.08, 10);
    expect(rows[1]!.exitReturn).toBeCloseTo(0.1, 10);
    expect(rows[0]!.outcomes.map((o) => o.horizon)).toEqual([5, 30, 90]);
  });

  it('sums hit rate and average return per horizon over resolved signals, and counts the open ones', () => {
    const prices = series({ ...flat(100), '2026-01-12': 110 });
    const rows = [
      ...ledgerRows('UP', ['2026-01-05'], [80], prices),
      ...ledgerRows('DOWN', ['2026-01-05'], [-80], prices),
    ];
    const [five, thirty] = summarize(rows);
    // UP: +10% (hit); DOWN: the price rose 10%, so -10% for the bearish signal (miss).
    expect(five).toMatchObject({ horizon: 5, resolved: 2, open: 0, hits: 1, hitRate: 0.5 });
    expect(five!.averageReturn).toBeCloseTo(0, 10);
    expect(thirty).toMatchObject({ horizon: 30, resolved: 0, open: 2, hitRate: null, averageReturn: null });
  });

  it('bands qualified scores by size, the bearish ones mirrored', () => {
    expect([65, 74.99, 75, 84.99, 85, 100, -65, -85, 64.99].map(scoreBand)).toEqual(['65-75', '65-75', '75-85', '75-85', '85-100', '85-100', '65-75', '85-100', null]);
  });
});

describe('the aggregates', () => {
  // Five trading days after Jan 5 is Jan 12; the prices of each ticker make each outcome by hand.
  const rows = [
    ...ledgerRows('UP', ['2026-01-05'], [70], series({ ...flat(100), '2026-01-12': 110 })), // bullish 65-75: +10%, hit
    ...ledgerRows('FLAT', ['2026-01-05'], [80], series({ ...flat(100), '2026-01-12': 97 })), // bullish 75-85: -3%, miss
    ...ledgerRows('DOWN', ['2026-01-05'], [-90], series({ ...flat(50), '2026-01-12': 45 })), // bearish 85-100: +10%, hit
    ...ledgerRows('LATE', ['2026-01-16'], [66], series(flat(20))), // bullish 65-75, opened Jan 16: still open at 5 days
  ];
  const sectors: Record<string, string> = { UP: 'Energy', FLAT: 'Energy', DOWN: 'Utilities' };
  const aggregates = aggregateLedger(rows, (t) => sectors[t]);

  it('by direction: hit rate and average return over the resolved signals, the open ones counted apart', () => {
    expect(aggregates.signals).toBe(4);
    expect([aggregates.firstDate, aggregates.lastDate]).toEqual(['2026-01-05', '2026-01-16']);
    const bullish = aggregates.directions.bullish;
    expect(bullish.signals).toBe(3);
    expect(bullish.horizons[0]).toMatchObject({ horizon: 5, resolved: 2, open: 1, hits: 1, hitRate: 0.5 });
    expect(bullish.horizons[0]!.averageReturn).toBeCloseTo((0.1 - 0.03) / 2, 10);
    expect(aggregates.directions.bearish.horizons[0]).toMatchObject({ resolved: 1, hits: 1, hitRate: 1 });
  });

  it('by score band, the bearish bands mirrored: every band listed, an empty one with no figure', () => {
    const band = (direction: string, label: string) => aggregates.bands.find((b) => b.direction === direction && b.band === label)!;
    expect(aggregates.bands.map((b) => `${b.direction} ${b.band}`)).toEqual(['bullish 65-75', 'bullish 75-85', 'bullish 85-100', 'bearish 65-75', 'bearish 75-85', 'bearish 85-100']);
    expect(band('bullish', '65-75')).toMatchObject({ signals: 2 });
    expect(band('bullish', '65-75').horizons[0]).toMatchObject({ resolved: 1, open: 1, hitRate: 1 });
    expect(band('bullish', '75-85').horizons[0]).toMatchObject({ resolved: 1, hitRate: 0 });
    expect(band('bearish', '85-100').horizons[0]).toMatchObject({ resolved: 1, hitRate: 1 });
    expect(band('bearish', '65-75')).toMatchObject({ signals: 0, horizons: [{ hitRate: null }, { hitRate: null }, { hitRate: null }] });
  });

  it('by sector and direction, a ticker without a sector under "Unknown"', () => {
    expect(aggregates.sectors.map((s) => [s.sector, s.direction, s.signals])).toEqual([
      ['Energy', 'bullish', 2],
      ['Unknown', 'bullish', 1],
      ['Utilities', 'bearish', 1],
    ]);
  });
});

describe('recording the ledger', () => {
  const entry = (ticker: string, date: string, cScore: number, exitDate: string | null = null): LedgerEntry => ({ ticker, date, direction: cScore > 0 ? 'bullish' : 'bearish', cScore, exitDate });

  it('keeps what was recorded, adds new entries and fills an exit once', () => {
    const recorded = [entry('AAPL', '2026-01-05', 70), entry('MSFT', '2026-01-05', -80, '2026-01-06')];
    // A later history says AAPL was 71 on the 5th (not re-published: kept at 70) and exited on the 7th; KO entered on the 7th.
    const computed = [entry('AAPL', '2026-01-05', 71, '2026-01-07'), entry('MSFT', '2026-01-05', -80, '2026-01-06'), entry('KO', '2026-01-07', 66)];
    const merged = mergeLedger(recorded, computed, new Set());
    expect(merged).toMatchObject({ added: 1, exits: 1, replaced: 0 });
    expect(merged.ledger).toEqual([entry('AAPL', '2026-01-05', 70, '2026-01-07'), entry('MSFT', '2026-01-05', -80, '2026-01-06'), entry('KO', '2026-01-07', 66)]);
  });

  it('a re-published date takes what the history says now, rows that vanished included', () => {
    const recorded = [entry('AAPL', '2026-01-05', 70), entry('MSFT', '2026-01-05', -80)];
    const computed = [entry('AAPL', '2026-01-05', 71)];
    const merged = mergeLedger(recorded, computed, new Set(['2026-01-05']));
    expect(merged).toMatchObject({ added: 0, replaced: 2 });
    expect(merged.ledger).toEqual([entry('AAPL', '2026-01-05', 71)]);
  });
});
