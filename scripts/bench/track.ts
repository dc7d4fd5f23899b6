/**
 * Section "track": the ledger and the aggregates of the track record for 6,000 tickers x 250 report days,
 * computed in at most 10 s, with the same domain functions the daily job and the build use; and at 6,000 tickers x
 * 1,260 days the whole track step the new day adds (ledger, benchmark, portfolio), at most 5 s.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ledgerCsv, measuredLedger, trackReport, type TrackData } from '../../src/lib/domain/track-record/track-data';
import { aggregateLedger, historyLedger } from '../../src/lib/domain/track-record/track-record';
import { demoIndexCloses } from '../../src/lib/domain/track-record/benchmark';
import { modelPortfolio } from '../../src/lib/domain/track-record/portfolio';
import { parseUniverseCsv } from '../sample/files';
import { generateSample } from '../sample/generator';
import { type BenchContext, type Figure, figure, round } from './figures';

const TICKERS = 6000;
const DAYS = 250;
/** Five years of trading days: the size of the new day's budget. */
const LONG_DAYS = 1260;
/** The new day's budget for the whole track step (ledger, benchmark, portfolio), in seconds. */
const LONG_BUDGET = 5;
const MIB = 1024 ** 2;

/** How the section measures, once for the table's header. */
export const TRACK_NOTE = `The seeded sample generator's scores for ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} report days (what \`npm run sample -- --tickers ${TICKERS} --days ${DAYS}\` writes) and a seeded close for every ticker and day, in memory. Timed, in this process: every ledger entry from the history (each time a ticker qualified, with its exit), every entry measured at 5, 30 and 90 trading days against the closes, and the aggregates by direction, score band and sector (\`historyLedger\` and \`trackReport\`, as the daily job and the build run them); then the ledger CSV on its own. Median of 3. Then ${TICKERS.toLocaleString('en-US')} tickers x ${LONG_DAYS.toLocaleString('en-US')} trading days of a seeded score walk and seeded closes: the whole track step the new day runs (the ledger, each outcome against the demo index, the intervals, the aggregates and the model portfolio, with the demo index itself), once, with its parts timed on their own.`;

/** A seeded close walk per ticker (setup, not timed): the figures only need plausible, varied prices. */
function closesOf(tickers: readonly string[], days: number): Record<string, (number | null)[]> {
  const closes: Record<string, (number | null)[]> = {};
  let state = 20261120;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  for (const ticker of tickers) {
    let price = 20 + next() * 380;
    // A few tickers stop trading part way, as delisted ones do.
    const last = next() < 0.01 ? Math.floor(next() * days) : days;
    closes[ticker] = Array.from({ length: days }, (_, i) => (i < last ? (price = Math.max(1, price * (1 + (next() - 0.5) * 0.04))) : null));
  }
  return closes;
}

/** A seeded score walk per ticker (setup, not timed): spells past the thresholds of varied length, about as many entries as five years of reports hold. */
function scoresOf(tickers: readonly string[], days: number): Record<string, (number | null)[]> {
  const scores: Record<string, (number | null)[]> = {};
  let state = 20261127;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  for (const ticker of tickers) {
    let score = (next() - 0.5) * 120;
    scores[ticker] = Array.from({ length: days }, () => (score = Math.max(-100, Math.min(100, 0.97 * score + (next() - 0.5) * 31))));
  }
  return scores;
}

/** Days named as trading days (weekdays from 2021-11-29): the track step only compares them as text. */
function tradingDays(count: number): string[] {
  const days: string[] = [];
  for (let t = Date.UTC(2021, 10, 29); days.length < count; t += 86_400_000) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** The whole track step at 6,000 tickers x 1,260 days, timed by part: ledger + aggregates, benchmark, portfolio. */
function longRun(ctx: BenchContext, sectors: ReadonlyMap<string, string>): Figure[] {
  const tickers = Array.from({ length: TICKERS }, (_, i) => `T${i}`);
  ctx.log(`  generating ${TICKERS} tickers x ${LONG_DAYS} days of scores and closes...`);
  const dates = tradingDays(LONG_DAYS);
  const scores = scoresOf(tickers, LONG_DAYS);
  const closes = closesOf(tickers, LONG_DAYS);
  // The synthetic tickers take the universe's sectors in turn, so the sector table has its usual rows.
  const sectorList = [...new Set(sectors.values())];
  const sectorOf = (ticker: string) => sectorList[Number(ticker.slice(1)) % sectorList.length] ?? 'Unknown';
  const time = <T>(work: () => T): [T, number] => {
    const started = performance.now();
    const result = work();
    return [result, (performance.now() - started) / 1000];
  };
  const entries = historyLedger({ dates, scores });
  const [, plain] = time(() => aggregateLedger(measuredLedger({ prices: 'demo', days: dates, closes, entries }), sectorOf));
  const [index, indexSeconds] = time(() => demoIndexCloses(dates, closes));
  const track: TrackData = { prices: 'demo', days: dates, closes, entries, benchmark: { ticker: 'Demo index', demo: true, closes: index }, costBps: 10 };
  const [, portfolioSeconds] = time(() => modelPortfolio({ days: dates, closes, entries, firstReport: dates[0]!, costBps: 10, benchmark: index }));
  const [report, whole] = time(() => trackReport({ ...track, entries: historyLedger({ dates, scores }) }, sectorOf, dates[0]));
  const total = whole + indexSeconds;
  const method = `${report.ledger.length.toLocaleString('en-US')} ledger rows from a seeded score walk, seeded closes; one run; historyLedger + trackReport (ledger, benchmark excess, intervals, aggregates, portfolio) + the demo index`;
  ctx.log(`    ${round(total)} s in all: ledger + aggregates without the benchmark ${round(plain)} s, demo index ${round(indexSeconds)} s, portfolio ${round(portfolioSeconds)} s`);
  const size = `${TICKERS.toLocaleString('en-US')} tickers x ${LONG_DAYS.toLocaleString('en-US')} days`;
  return [
    figure('track', { name: `ledger + benchmark + portfolio, ${size}`, value: round(total), unit: 's', budget: { op: '<=', limit: LONG_BUDGET }, method }),
    figure('track', { name: `of which the demo index, ${size}`, value: round(indexSeconds), unit: 's', method: 'demoIndexCloses over every ticker\'s closes' }),
    figure('track', { name: `of which the model portfolio, ${size}`, value: round(portfolioSeconds), unit: 's', method: 'modelPortfolio on its own' }),
    figure('track', { name: `ledger + aggregates without the benchmark, ${size}`, value: round(plain), unit: 's', method: 'measuredLedger + aggregateLedger, no benchmark series: the cost before the benchmark' }),
  ];
}

/** Runs the ledger bench. */
export async function trackSection(ctx: BenchContext): Promise<Figure[]> {
  const universe = parseUniverseCsv(await readFile(join(ctx.root, 'data/universe/sp500-constituents.csv'), 'utf8'));
  ctx.log(`  generating ${TICKERS} tickers x ${DAYS} report days...`);
  const sample = generateSample({ universe, tickers: TICKERS, days: DAYS });
  const dates = sample.days.map((day) => day.date);
  const scores: Record<string, (number | null)[]> = {};
  sample.days.forEach((day, i) => {
    for (const row of day.rows) (scores[row.ticker] ??= Array<number | null>(dates.length).fill(null))[i] = row.cScore;
  });
  const sectors = new Map(sample.universe.map((company) => [company.symbol, company.sector]));
  const history = { dates, scores };
  const closes = closesOf(Object.keys(scores), dates.length);

  const runs: { seconds: number; entries: number; csvSeconds: number; heapMiB: number }[] = [];
  for (let run = 0; run < (ctx.quick ? 1 : 3); run++) {
    const started = performance.now();
    const entries = historyLedger(history);
    const track: TrackData = { prices: 'demo', days: dates, closes, entries };
    const report = trackReport(track, (ticker) => sectors.get(ticker));
    const seconds = (performance.now() - started) / 1000;
    const csvStarted = performance.now();
    const csv = ledgerCsv(report);
    const csvSeconds = (performance.now() - csvStarted) / 1000;
    runs.push({ seconds, entries: report.ledger.length, csvSeconds, heapMiB: process.memoryUsage().rss / MIB });
    ctx.log(`    run ${run + 1}: ${round(seconds)} s for ${report.ledger.length} signals (${report.aggregates.sectors.length} sector rows); CSV ${round(csvSeconds)} s, ${Math.round(csv.length / MIB)} MiB`);
  }
  const middle = [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
  const method = `${middle.entries.toLocaleString('en-US')} ledger rows, median of ${runs.length}`;
  const long = longRun(ctx, sectors);
  return [
    ...long,
    figure('track', { name: `ledger + aggregates, ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} days`, value: round(middle.seconds), unit: 's', budget: { op: '<=', limit: 10 }, method }),
    figure('track', { name: `ledger CSV, ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} days`, value: round(middle.csvSeconds), unit: 's', method }),
    figure('track', { name: 'peak RSS of the bench process', value: Math.round(Math.max(...runs.map((r) => r.heapMiB))), unit: 'MiB', method: 'process.memoryUsage().rss after each run' }),
  ];
}
