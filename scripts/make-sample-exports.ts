/**
 * Writes the seeded sample exports: one file per trading day, CSV (every 10th report as a two-sheet XLSX).
 *
 *   npm run sample -- [--days 60] [--tickers 503] [--out data/sample-exports] [--seed 20261120]
 *                     [--end 2026-11-20] [--universe FILE] [--universe-out FILE]
 *
 * The generator is scripts/sample/generator.ts and the file formats scripts/sample/files.ts; this script only
 * parses arguments and writes files.
 * Before writing it deletes the files it owns in the output folder (signals-YYYY-MM-DD.csv|xlsx), nothing else.
 * It lists every file's SHA-256 in SAMPLE-EXPORTS.sha256 beside them: the daily job marks a report built from one
 * of them as sample data (src/ingest/report-source.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isTradingDay } from '../src/lib/domain/market-data/calendar';
import { SAMPLE_MANIFEST, sampleManifest } from '../src/lib/domain/report/report-source';
import { dayFile, parseUniverseCsv, SAMPLE_FILE_RE, sampleFileName, universeToCsv } from './sample/files';
import { generateSample, measureDynamics, SAMPLE_DEFAULTS } from './sample/generator';

const USAGE = `usage: npm run sample -- [--days N] [--tickers N] [--out DIR] [--seed N] [--end YYYY-MM-DD]
                         [--universe FILE] [--universe-out FILE]
  --days          trading days to write (default ${SAMPLE_DEFAULTS.days})
  --tickers       tickers per day: the universe's first N, or all of it plus SYN0001... (default ${SAMPLE_DEFAULTS.tickers})
  --out           output folder (default data/sample-exports)
  --seed          PRNG seed (default ${SAMPLE_DEFAULTS.seed})
  --end           last report date, on or before which the last trading day is taken (default ${SAMPLE_DEFAULTS.end})
  --universe      universe CSV to read (default data/universe/sp500-constituents.csv)
  --universe-out  also write a universe CSV covering every generated ticker (for UNIVERSE_FILE)`;

function fail(message: string): never {
  console.error(`make-sample-exports: ${message}\n${USAGE}`);
  process.exit(2);
}

function intArg(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) fail(`--${name} must be an integer, got "${raw}"`);
  const v = Number(raw);
  if (v < min || !Number.isSafeInteger(v)) fail(`--${name} must be at least ${min}, got ${raw}`);
  return v;
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        days: { type: 'string' },
        tickers: { type: 'string' },
        out: { type: 'string' },
        seed: { type: 'string' },
        end: { type: 'string' },
        universe: { type: 'string' },
        'universe-out': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const a = parsed.values;
  if (a.help) {
    console.log(USAGE);
    return;
  }
  const days = intArg('days', a.days, SAMPLE_DEFAULTS.days, 1);
  const tickers = intArg('tickers', a.tickers, SAMPLE_DEFAULTS.tickers, 1);
  const seed = intArg('seed', a.seed, SAMPLE_DEFAULTS.seed, -(2 ** 31));
  const end = a.end ?? SAMPLE_DEFAULTS.end;
  try {
    isTradingDay(end);
  } catch {
    fail(`--end must be a date as yyyy-mm-dd, got "${end}"`);
  }
  const out = resolve(a.out ?? 'data/sample-exports');
  const universePath = resolve(a.universe ?? 'data/universe/sp500-constituents.csv');

  const started = performance.now();
  const real = parseUniverseCsv(readFileSync(universePath, 'utf8'));
  const sample = generateSample({ universe: real, days, tickers, seed, end });
  const generatedMs = performance.now() - started;

  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (SAMPLE_FILE_RE.test(name)) rmSync(join(out, name));

  let bytes = 0;
  const special: string[] = [];
  const hashes = new Map<string, string>();
  for (const day of sample.days) {
    const path = join(out, sampleFileName(day));
    const file = await dayFile(day, sample.universe);
    writeFileSync(path, file);
    hashes.set(sampleFileName(day), createHash('sha256').update(file).digest('hex'));
    bytes += statSync(path).size;
    if (day.format === 'xlsx' || day.dateStyle === 'us') special.push(`${sampleFileName(day)}${day.dateStyle === 'us' ? ' (US date)' : ''}`);
  }

  writeFileSync(join(out, SAMPLE_MANIFEST), sampleManifest(hashes));

  if (a['universe-out']) {
    const target = resolve(a['universe-out']);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, universeToCsv(sample.universe));
    console.log(`universe: ${sample.universe.length} companies -> ${target}`);
  }

  const first = sample.days[0]!.date;
  const last = sample.days[sample.days.length - 1]!.date;
  const dyn = measureDynamics(sample);
  console.log(
    `wrote ${sample.days.length} exports (${first} .. ${last}), ${sample.universe.length} tickers each, ` +
      `${(bytes / 1024 / 1024).toFixed(2)} MB -> ${out}`,
  );
  console.log(`not plain ISO-dated CSV: ${special.join(', ') || 'none'}`);
  console.log(
    `latest ${dyn.date}: qualified ${dyn.bullish} bullish / ${dyn.bearish} bearish, ${dyn.newlyQualified} new, ` +
      `last 5 reports: ${dyn.exitsLast5} exits, ${dyn.reversalsLast5} reversals; ${dyn.topTickers} top tickers`,
  );
  console.log(`generated in ${Math.round(generatedMs)} ms, total ${Math.round(performance.now() - started)} ms`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
