/**
 * The demo price series: one deterministic function of ticker and day that the demo bars, the demo quote and the daily
 * job's demo closes all read, so a day's close is one number everywhere.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTradingDay } from '../../src/lib/domain/market-data/calendar';
import { demoBar, demoBars, demoClose, demoQuote, sessionDay, tradingDayBefore } from '../../src/lib/domain/market-data/demo-prices';
import { DemoProvider } from '../../src/server/providers/demo';

const universe = ['AAPL', 'CDNS', 'XOM'].map((ticker) => ({ ticker, name: ticker, sector: 'Energy', subIndustry: 'Oil', headquarters: 'Houston, Texas', founded: '1900' }));
const at = (iso: string) => () => Date.parse(iso);
const tickerArb = fc.stringMatching(/^[A-Z]{1,5}(\.[A-Z])?$/);
const dateArb = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('demoClose', () => {
  it('gives the same close for the same ticker and day, and a positive, finite price with cents', () => {
    fc.assert(
      fc.property(tickerArb, dateArb, (ticker, date) => {
        const close = demoClose(ticker, date);
        expect(demoClose(ticker, date)).toBe(close);
        expect(close).toBeGreaterThan(0);
        expect(Number.isFinite(close)).toBe(true);
        expect(Math.round(close * 100) / 100).toBe(close);
      }),
    );
  });

  it('differs from day to day and from ticker to ticker', () => {
    const days = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
    expect(new Set(days.map((d) => demoClose('CDNS', d))).size).toBe(days.length);
    expect(demoClose('CDNS', '2026-11-20')).not.toBe(demoClose('AAPL', '2026-11-20'));
  });

  it('refuses a date that is not yyyy-mm-dd, saying what it expects', () => {
    expect(() => demoClose('AAPL', '20-11-2026')).toThrow('expected a date as yyyy-mm-dd, got "20-11-2026"');
  });
});

describe('demoBar and demoBars', () => {
  it("close is the day's demoClose, open a move from the previous trading day's close, and the range holds both", () => {
    fc.assert(
      fc.property(tickerArb, dateArb, (ticker, date) => {
        const day = sessionDay(date);
        const bar = demoBar(ticker, day);
        const previous = demoClose(ticker, tradingDayBefore(day));
        expect(bar.c).toBe(demoClose(ticker, day));
        expect(Math.abs(bar.o / previous - 1)).toBeLessThanOrEqual(0.0051);
        expect(bar.l).toBeGreaterThan(0);
        expect(bar.l).toBeLessThanOrEqual(Math.min(bar.o, bar.c));
        expect(bar.h).toBeGreaterThanOrEqual(Math.max(bar.o, bar.c));
        expect(new Date(bar.t).toISOString().slice(0, 10)).toBe(day);
      }),
    );
  });

  it('has bars on NYSE trading days only: no weekend, no Thanksgiving', () => {
    const bars = demoBars('CDNS', '2026-11-20', '2026-11-30');
    expect(bars.map((b) => new Date(b.t).toISOString().slice(0, 10))).toEqual(['2026-11-20', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27', '2026-11-30']);
    expect(() => demoBar('CDNS', '2026-11-26')).toThrow('2026-11-26 is not an NYSE trading day');
  });
});

describe('demoQuote', () => {
  it('on a trading day: previous close is the last bar close before today, the price is a move from it, the range holds open and price', () => {
    fc.assert(
      fc.property(tickerArb, dateArb.filter(isTradingDay), (ticker, today) => {
        const quote = demoQuote(ticker, today, `${today}T15:00:00.000Z`);
        const bars = demoBars(ticker, new Date(Date.parse(today) - 10 * 86_400_000).toISOString().slice(0, 10), today);
        expect(quote.regularMarketPreviousClose).toBe(bars.at(-2)!.c);
        expect(quote.regularMarketPrice).toBe(bars.at(-1)!.c);
        expect(quote.regularMarketChange).toBeCloseTo(quote.regularMarketPrice! - quote.regularMarketPreviousClose!, 2);
        expect(quote.regularMarketDayLow!).toBeLessThanOrEqual(Math.min(quote.regularMarketOpen!, quote.regularMarketPrice!));
        expect(quote.regularMarketDayHigh!).toBeGreaterThanOrEqual(Math.max(quote.regularMarketOpen!, quote.regularMarketPrice!));
        expect(quote.isDemo).toBe(true);
      }),
    );
  });

  it('on a Monday its previous close is Friday\'s close, not a weekend day of the walk', () => {
    const quote = demoQuote('CDNS', '2026-11-23', '2026-11-23T15:00:00.000Z');
    expect(quote.regularMarketPreviousClose).toBe(demoClose('CDNS', '2026-11-20'));
  });

  it('on Thanksgiving and the weekend the quote is the last session\'s (Wednesday\'s, Friday\'s), measured from the close before it', () => {
    const holiday = demoQuote('CDNS', '2026-11-26', '2026-11-26T15:00:00.000Z');
    expect(holiday.regularMarketPrice).toBe(demoClose('CDNS', '2026-11-25'));
    expect(holiday.regularMarketPreviousClose).toBe(demoClose('CDNS', '2026-11-24'));
    const saturday = demoQuote('CDNS', '2026-11-28', '2026-11-28T15:00:00.000Z');
    expect(saturday.regularMarketPrice).toBe(demoClose('CDNS', '2026-11-27'));
    expect(saturday.regularMarketPreviousClose).toBe(demoClose('CDNS', '2026-11-25'));
  });
});

describe('the demo provider reads the one series', () => {
  it('its quote, bars, previous close and the daily job\'s grouped closes agree on every day (a Monday after a holiday week)', async () => {
    const provider = new DemoProvider({ universe, now: at('2026-11-30T15:00:00Z') });
    const bars = await provider.dailyBars('CDNS', '2026-11-16', '2026-11-30');
    expect(bars.map((b) => new Date(b.t).toISOString().slice(0, 10))).not.toContain('2026-11-26');
    for (const bar of bars) {
      const date = new Date(bar.t).toISOString().slice(0, 10);
      const grouped = await provider.groupedDaily(date);
      expect(grouped.find((c) => c.ticker === 'CDNS')?.close, date).toBe(bar.c);
    }
    const quote = (await provider.quote('CDNS'))!;
    expect(quote.regularMarketPrice).toBe(bars.at(-1)!.c);
    expect(quote.regularMarketPreviousClose).toBe(bars.at(-2)!.c);
    expect((await provider.previousClose('CDNS'))!.c).toBe(bars.at(-2)!.c);
    expect(await provider.groupedDaily('2026-11-26')).toEqual([]);
    expect(await provider.groupedDaily('2026-12-01')).toEqual([]);
  });
});
