/**
 * Section 6, export limits: the largest export the default limits accept (20,000 tickers over 5 report dates, 100,000
 * rows, as CSV; 20,000 tickers as XLSX) and two files they refuse (an XLSX declaring XFD1048576, a 5,000,000-character
 * shared string), each through the daily job's intake in its own process: time, and peak RSS against 2 GiB.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeExcelFile from 'write-excel-file/node';
import { DEFAULT_EXPORT_LIMITS, EXPORT_HEADER } from '../../src/lib/domain/report/export';
import { type BenchContext, type Budget, type Figure, figure, round } from './figures';
import { runTsx } from './process';
import { workbook } from '../sample/raw-xlsx';

const MIB = 1024 ** 2;

/** A file's size for the table: KiB under a MiB. */
const size = (bytes: number) => (bytes < MIB ? `${round(bytes / 1024, 1)} KiB` : `${round(bytes / MIB, 1)} MiB`);
const RSS_BUDGET: Budget = { op: '<', limit: 2048 };
const TICKERS = DEFAULT_EXPORT_LIMITS.maxTickers;
const DATES = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];

/** How the section measures, once for the table's header. */
export const LIMITS_NOTE = `Each file is alone in a folder and goes through the daily job's intake (\`acceptNewFiles\`: pull, size checks, the XLSX probe, parse, validate) in its own \`tsx\` process under \`/usr/bin/time -v\`; the build of that many pages is section 1's work. The accepted files sit at the default limits (EXPORT_MAX_TICKERS ${TICKERS.toLocaleString('en-US')}, EXPORT_MAX_ROWS ${DEFAULT_EXPORT_LIMITS.maxRows.toLocaleString('en-US')}); the refused ones are the issue's: a small XLSX whose one cell sits at XFD1048576, and a company name of 5,000,000 characters packed into a small XLSX. Peak RSS is the whole process tree, sampled from /proc every 100 ms.`;

/** A ticker of letters from a number (A, B, ..., Z, AB, ...), unique per number. */
function tickerOf(n: number): string {
  let t = '';
  for (let x = n; t.length === 0 || x > 0; x = Math.floor(x / 26)) t += String.fromCharCode(65 + (x % 26));
  return t;
}

function row(i: number, date: string): (string | number | boolean)[] {
  const score = ((i * 37) % 201) - 100;
  return [tickerOf(i), `Company ${i}`, date, score, score, 1, 50, 2, 40, score, score, 1, 2, i % 50 === 0];
}

/** The files the section measures: name, bytes, and what the limits should say. */
async function files(): Promise<{ label: string; name: string; bytes: Buffer; expect: 'accepted' | 'refused' }[]> {
  const csvRows = [EXPORT_HEADER.join(',')];
  for (const date of DATES) for (let i = 0; i < TICKERS; i += 1) csvRows.push(row(i, date).join(','));
  const xlsx = await writeExcelFile([[...EXPORT_HEADER], ...Array.from({ length: TICKERS }, (_, i) => row(i, DATES[4]!))]).toBuffer();
  const header = ['Ticker', 'Company Name', 'Report Date', 'C-Score'];
  const huge = workbook([header], { dimension: 'A1:XFD1048576', extraCells: '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>' });
  const long = workbook([header, ['AAPL', 'A'.repeat(5_000_000), '2026-11-20', 70]]);
  return [
    { label: `CSV, ${TICKERS.toLocaleString('en-US')} tickers x ${DATES.length} dates`, name: 'signals-limits.csv', bytes: Buffer.from(csvRows.join('\n')), expect: 'accepted' },
    { label: `XLSX, ${TICKERS.toLocaleString('en-US')} tickers`, name: 'signals-limits.xlsx', bytes: xlsx, expect: 'accepted' },
    { label: 'XLSX with one cell at XFD1048576', name: 'signals-huge.xlsx', bytes: huge, expect: 'refused' },
    { label: 'XLSX with a 5,000,000-character name', name: 'signals-long.xlsx', bytes: long, expect: 'refused' },
  ];
}

/** Measures the intake on each file: outcome, time and peak RSS. */
export async function limitsSection(ctx: BenchContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: Parameters<typeof figure>[1]) => figures.push(figure('limits', input));
  const dir = join(ctx.tmp, 'limits');
  for (const file of await files()) {
    const source = join(dir, file.name.replace(/\.\w+$/, ''));
    await rm(source, { recursive: true, force: true });
    await mkdir(source, { recursive: true });
    await writeFile(join(source, file.name), file.bytes);
    ctx.log(`  intake of ${file.label} (${size(file.bytes.length)})...`);
    const result = await runTsx(ctx.root, 'scripts/bench/intake-one.ts', [source, join(source, 'archive')], process.env);
    const answer = JSON.parse(result.stdout.trim().split('\n').pop() || '{}') as { outcome?: string; seconds?: number; rows?: number; message?: string };
    const said = answer.outcome === 'accepted' ? `accepted, ${answer.rows?.toLocaleString('en-US')} rows` : answer.outcome === 'refused' ? `refused: ${answer.message}` : `failed (exit ${result.code}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`;
    ctx.log(`    ${said}; ${round(result.wallSeconds)} s`);
    const as = answer.outcome === file.expect ? said : `${said} (expected ${file.expect})`;
    add({ name: `${file.label}: ${file.expect}`, value: answer.outcome === file.expect ? round(answer.seconds ?? result.wallSeconds) : null, unit: 's', method: `intake in its own process, ${size(file.bytes.length)} file; ${as}`, ...(answer.outcome === file.expect ? {} : { missing: as }) });
    add({
      name: `${file.label}: peak RSS`,
      value: result.peakTreeRssBytes === null ? null : round(result.peakTreeRssBytes / MIB, 0),
      unit: 'MiB',
      budget: RSS_BUDGET,
      method: 'sum over the process tree, /proc every 100 ms',
      ...(result.peakTreeRssBytes === null ? { missing: 'not available (/proc unreadable)' } : {}),
    });
  }
  return figures;
}
