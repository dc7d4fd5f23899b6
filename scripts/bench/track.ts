/**
 * Section "track": the ledger and the aggregates of the track record for 6,000 tickers x 250 report days,
 * computed in at most 10 s, with the same domain functions the daily job and the build use.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ledgerCsv, trackReport, type TrackData } from '../../src/lib/domain/track-record/track-data';
import { historyLedger } from '../../src/lib/domain/track-record/track-record';
import { parseUniverseCsv } from '../sample/files';
import { generateSample } from '../sample/generator';
import { type BenchContext, type Figure, figure, round } from './figures';

const TICKERS = 6000;
const DAYS = 250;
const MIB = 1024 ** 2;

/** How the section measures, once for the table's header. */
export const TRACK_NOTE = `The seeded sample generator's scores for ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} report days (what \`npm run sample -- --tickers ${TICKERS} --days ${DAYS}\` writes) and a seeded close for every ticker and day, in memory. Timed, in this process: every ledger entry from the history (each time a ticker qualified, with its exit), every entry measured at 5, 30 and 90 trading days against the closes, and the aggregates by direction, score band and sector (\`historyLedger\` and \`trackReport\`, as the daily job and the build run them); then the ledger CSV on its own. Median of 3.`;

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
  return [
    figure('track', { name: `ledger + aggregates, ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} days`, value: round(middle.seconds), unit: 's', budget: { op: '<=', limit: 10 }, method }),
    figure('track', { name: `ledger CSV, ${TICKERS.toLocaleString('en-US')} tickers x ${DAYS} days`, value: round(middle.csvSeconds), unit: 's', method }),
    figure('track', { name: 'peak RSS of the bench process', value: Math.round(Math.max(...runs.map((r) => r.heapMiB))), unit: 'MiB', method: 'process.memoryUsage().rss after each run' }),
  ];
}
