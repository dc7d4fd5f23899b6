import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayToCsv, dayToSheets, parseUniverseCsv, sampleFileName, universeToCsv } from '../../scripts/sample/files';
import { EXPORT_HEADER } from '../../src/lib/domain/report/export';
import { generateSample, type Sample, type SampleDay, type UniverseRow } from '../../scripts/sample/generator';
import { EXPORT_HEADER_LINE } from '../fixtures/exports';

const UNIVERSE_TEXT = readFileSync(new URL('../../data/universe/sp500-constituents.csv', import.meta.url), 'utf8');

// Written out here rather than taken from calendar.ts: the NYSE closures of 2026 (published schedule).
const HOLIDAYS_2026 = new Set([
  '2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25',
  '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25',
]);

function weekdaysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

const side = (c: number) => (c >= 65 ? 1 : c <= -65 ? -1 : 0);
const is2dp = (v: number) => Math.abs(Math.round(v * 100) / 100 - v) < 1e-9;

let universe: UniverseRow[];
let sample: Sample;

beforeAll(() => {
  universe = parseUniverseCsv(UNIVERSE_TEXT);
  sample = generateSample({ universe });
});

describe('universe', () => {
  it('reads all 503 companies, dots and quoted commas included', () => {
    expect(universe).toHaveLength(503);
    expect(universe.map((u) => u.symbol)).toEqual(expect.arrayContaining(['BRK.B', 'BF.B', 'MMM']));
    expect(universe.find((u) => u.symbol === 'XYZ')?.security).toBe('Block, Inc.');
  });

  it('writes the real rows back byte for byte', () => {
    expect(universeToCsv(universe)).toBe(UNIVERSE_TEXT);
  });
});

describe('generateSample with the defaults', () => {
  it('covers the 60 trading days ending 2026-11-20, skipping weekends and holidays', () => {
    const dates = sample.days.map((d) => d.date);
    expect(dates).toHaveLength(60);
    expect(dates.at(-1)).toBe('2026-11-20');
    const expected = weekdaysBetween(dates[0]!, '2026-11-20').filter((d) => !HOLIDAYS_2026.has(d));
    expect(dates).toEqual(expected);
    expect(dates).not.toContain('2026-09-07'); // Labor Day
    expect(dates[0]).toBe('2026-08-28');
  });

  it('has every ticker of the universe on every day, in file order, named from the universe', () => {
    const symbols = universe.map((u) => u.symbol);
    const names = universe.map((u) => u.security);
    for (const day of sample.days) {
      expect(day.rows.map((r) => r.ticker)).toEqual(symbols);
      expect(day.rows.map((r) => r.companyName)).toEqual(names);
      expect(day.rows.every((r) => r.reportDate === day.date)).toBe(true);
    }
  });

  it('keeps every score in range with 2 decimals', () => {
    const bad: string[] = [];
    for (const day of sample.days) {
      for (const r of day.rows) {
        const where = `${day.date} ${r.ticker}`;
        for (const v of [r.cScore, r.yesterdayCScore, r.deltaScore, r.marketScore, r.avgCScoreL7D, r.avgCScoreL14D]) {
          if (!(v >= -100 && v <= 100 && is2dp(v))) bad.push(`${where}: ${v}`);
        }
        for (const v of [r.accuracyScore, r.relevanceScore]) {
          if (!(v >= 0 && v <= 100 && is2dp(v))) bad.push(`${where}: ${v}`);
        }
        const c7 = r.countL7DWithSignal;
        const c14 = r.countL14DWithSignal;
        if (!(Number.isInteger(c7) && c7 >= 0 && c7 <= 7)) bad.push(`${where}: count7 ${c7}`);
        if (!(Number.isInteger(c14) && c14 >= c7 && c14 <= 14)) bad.push(`${where}: count14 ${c14}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("sets Yesterday C-Score to the previous report's C-Score", () => {
    const bad: string[] = [];
    for (let d = 1; d < sample.days.length; d++) {
      const prev = sample.days[d - 1]!.rows;
      sample.days[d]!.rows.forEach((r, i) => {
        if (r.yesterdayCScore !== prev[i]!.cScore) bad.push(`${r.reportDate} ${r.ticker}`);
      });
    }
    expect(bad).toEqual([]);
  });

  it('computes the 7/14-report averages and signal counts from the C-Scores, today included', () => {
    const days = sample.days;
    const bad: string[] = [];
    let checked = 0;
    for (let d = 6; d < days.length; d++) {
      days[d]!.rows.forEach((r, i) => {
        const window = (len: number) => days.slice(d - len + 1, d + 1).map((x) => x.rows[i]!.cScore);
        const mean = (vs: number[]) => vs.reduce((a, v) => a + v, 0) / vs.length;
        const signals = (vs: number[]) => vs.filter((v) => Math.abs(v) >= 65).length;
        const w7 = window(7);
        if (Math.abs(r.avgCScoreL7D - mean(w7)) > 0.005 + 1e-9) bad.push(`${r.reportDate} ${r.ticker} avg7`);
        if (r.countL7DWithSignal !== signals(w7)) bad.push(`${r.reportDate} ${r.ticker} count7`);
        if (d >= 13) {
          const w14 = window(14);
          if (Math.abs(r.avgCScoreL14D - mean(w14)) > 0.005 + 1e-9) bad.push(`${r.reportDate} ${r.ticker} avg14`);
          if (r.countL14DWithSignal !== signals(w14)) bad.push(`${r.reportDate} ${r.ticker} count14`);
        }
        checked++;
      });
    }
    expect(checked).toBe(54 * 503);
    expect(bad).toEqual([]);
  });

  it('marks 5 to 10 top tickers a day: the strongest qualified by |C-Score|', () => {
    for (const day of sample.days) {
      const top = day.rows.filter((r) => r.isTopTicker);
      expect(top.length).toBeGreaterThanOrEqual(5);
      expect(top.length).toBeLessThanOrEqual(10);
      const weakestTop = Math.min(...top.map((r) => Math.abs(r.cScore)));
      expect(weakestTop).toBeGreaterThanOrEqual(65);
      const strongestOther = Math.max(...day.rows.filter((r) => !r.isTopTicker).map((r) => Math.abs(r.cScore)));
      expect(strongestOther).toBeLessThanOrEqual(weakestTop);
    }
  });

  it('populates the lists on the latest report', () => {
    const days = sample.days;
    const last = days.at(-1)!.rows;
    const before = days.at(-2)!.rows;
    const bullish = last.filter((r) => side(r.cScore) === 1).length;
    const bearish = last.filter((r) => side(r.cScore) === -1).length;
    const fresh = last.filter((r, i) => side(r.cScore) !== 0 && side(before[i]!.cScore) === 0).length;
    let exits = 0;
    let reversals = 0;
    const window = days.slice(-5);
    for (let i = 0; i < last.length; i++) {
      const sides = window.map((d) => side(d.rows[i]!.cScore));
      for (let k = 1; k < sides.length; k++) if (sides[k - 1] !== 0 && sides[k] === 0) exits++;
      for (let a = 0; a < sides.length; a++) {
        for (let b = a + 1; b < sides.length; b++) {
          if (sides[a] !== 0 && sides[b] === -sides[a]!) {
            reversals++;
            a = sides.length; // count a ticker once
            break;
          }
        }
      }
    }
    const top = last.filter((r) => r.isTopTicker).length;
    expect(bullish).toBeGreaterThanOrEqual(10);
    expect(bearish).toBeGreaterThanOrEqual(10);
    expect(fresh).toBeGreaterThanOrEqual(3);
    expect(exits).toBeGreaterThanOrEqual(3);
    expect(reversals).toBeGreaterThanOrEqual(1);
    expect(top).toBeGreaterThanOrEqual(5);
    expect(top).toBeLessThanOrEqual(10);
  });

  it('is deterministic', () => {
    const again = generateSample({ universe });
    expect(again).toEqual(sample);
    expect(dayToCsv(again.days.at(-1)!)).toBe(dayToCsv(sample.days.at(-1)!));
    expect(generateSample({ universe, seed: 7 }).days.at(-1)!.rows[0]!.cScore).not.toBe(sample.days.at(-1)!.rows[0]!.cScore);
  });

  it('writes every 10th report as XLSX and every 7th CSV with a US date', () => {
    const pos = (fmt: (d: SampleDay) => boolean) => sample.days.flatMap((d, i) => (fmt(d) ? [i + 1] : []));
    expect(pos((d) => d.format === 'xlsx')).toEqual([5, 15, 25, 35, 45, 55]);
    expect(pos((d) => d.dateStyle === 'us')).toEqual([7, 14, 21, 28, 42, 49, 56]);
    expect(sampleFileName(sample.days[4]!)).toBe('signals-2026-09-03.xlsx');
    expect(sampleFileName(sample.days.at(-1)!)).toBe('signals-2026-11-20.csv');
  });
});

describe('file contents', () => {
  it('writes CSV with the spreadsheet header, quoted commas and the day’s date style', () => {
    const iso = sample.days.at(-1)!;
    const text = dayToCsv(iso);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    expect(text.split('\r\n')[0]).toBe(EXPORT_HEADER_LINE);
    expect(text).toMatch(/\r\nXYZ,"Block, Inc\.",2026-11-20,-?\d+\.\d\d,/);
    const records = parse(text) as string[][];
    expect(records[0]).toEqual([...EXPORT_HEADER]);
    expect(records).toHaveLength(504);
    const bad = records.slice(1).filter((rec, i) => {
      const r = iso.rows[i]!;
      return (
        rec.length !== 14 ||
        rec[0] !== r.ticker ||
        rec[1] !== r.companyName ||
        Number(rec[3]) !== r.cScore ||
        !/^-?\d+\.\d\d$/.test(rec[3]!) ||
        Number(rec[9]) !== r.avgCScoreL7D ||
        rec[11] !== String(r.countL7DWithSignal) ||
        rec[13] !== (r.isTopTicker ? 'TRUE' : 'FALSE')
      );
    });
    expect(bad).toEqual([]);

    const us = sample.days.find((d) => d.dateStyle === 'us')!;
    expect(us.date).toBe('2026-09-08');
    expect((parse(dayToCsv(us)) as string[][])[1]![2]).toBe('9/8/2026');
  });

  it('builds the XLSX sheets: typed Signals rows and a per-sector Summary', () => {
    const day = sample.days[4]!;
    const [signals, summary] = dayToSheets(day, sample.universe);
    expect(signals!.name).toBe('Signals');
    expect(signals!.rows[0]).toEqual([...EXPORT_HEADER]);
    const first = signals!.rows[1]!;
    expect(first[2]).toEqual(new Date(Date.UTC(2026, 8, 3)));
    expect(first[3]).toBe(day.rows[0]!.cScore);
    expect(typeof first[13]).toBe('boolean');
    expect(summary!.name).toBe('Summary');
    expect(summary!.rows[0]).toEqual(['Sector', 'Tickers', 'Bullish', 'Bearish']);
    expect(summary!.rows.at(-1)).toEqual([
      'All sectors',
      503,
      day.rows.filter((r) => r.cScore >= 65).length,
      day.rows.filter((r) => r.cScore <= -65).length,
    ]);
  });
});

describe('generateSample, other sizes', () => {
  it('takes the first N tickers and skips the Independence Day holiday (2026-07-03)', () => {
    const small = generateSample({ universe, tickers: 12, days: 8, end: '2026-07-08' });
    expect(small.days.map((d) => d.date)).toEqual([
      '2026-06-26', '2026-06-29', '2026-06-30', '2026-07-01', '2026-07-02', '2026-07-06', '2026-07-07', '2026-07-08',
    ]);
    expect(small.universe.map((u) => u.symbol)).toEqual(universe.slice(0, 12).map((u) => u.symbol));
    for (const day of small.days) expect(day.rows).toHaveLength(12);
    for (let d = 1; d < small.days.length; d++) {
      expect(small.days[d]!.rows.map((r) => r.yesterdayCScore)).toEqual(small.days[d - 1]!.rows.map((r) => r.cScore));
    }
    expect(generateSample({ universe, tickers: 12, days: 8, end: '2026-07-08' })).toEqual(small);
  });

  it('adds synthetic tickers with real sector pairs beyond the universe', () => {
    const big = generateSample({ universe, tickers: 510, days: 3 });
    const syn = big.universe.slice(503);
    expect(syn.map((u) => u.symbol)).toEqual(['SYN0001', 'SYN0002', 'SYN0003', 'SYN0004', 'SYN0005', 'SYN0006', 'SYN0007']);
    expect(syn[0]!.security).toBe('Synthetic Company 0001');
    const pairs = new Set(universe.map((u) => `${u.sector}|${u.subIndustry}`));
    for (const u of syn) {
      expect(pairs.has(`${u.sector}|${u.subIndustry}`)).toBe(true);
      expect(u).toMatchObject({ headquarters: 'Synthetic', cik: '', founded: '' });
    }
    expect(big.days.at(-1)!.rows.at(-1)!.companyName).toBe('Synthetic Company 0007');
    // The real tickers' walks do not depend on how many synthetic ones ride along.
    expect(big.days.at(-1)!.rows[0]!.cScore).toBe(generateSample({ universe, days: 3 }).days.at(-1)!.rows[0]!.cScore);
    const csv = universeToCsv(big.universe);
    expect(csv.startsWith(UNIVERSE_TEXT)).toBe(true);
    expect(csv.trimEnd().split('\n').at(-1)).toBe(`SYN0007,Synthetic Company 0007,${syn[6]!.sector},${csvQuote(syn[6]!.subIndustry)},Synthetic,,,`);
  });

  it('generates 6000 tickers', () => {
    const big = generateSample({ universe, tickers: 6000 });
    expect(big.days).toHaveLength(60);
    expect(big.days.at(-1)!.rows).toHaveLength(6000);
    expect(big.days.at(-1)!.rows.at(-1)!.ticker).toBe('SYN5497');
  });

  it('refuses nonsense options', () => {
    expect(() => generateSample({ universe, days: 0 })).toThrow(RangeError);
    expect(() => generateSample({ universe, tickers: 1.5 })).toThrow(RangeError);
    expect(() => generateSample({ universe, end: '2026-13-01' })).toThrow(RangeError);
  });
});

function csvQuote(v: string): string {
  return v.includes(',') ? `"${v}"` : v;
}
