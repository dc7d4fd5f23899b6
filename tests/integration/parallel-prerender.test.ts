/**
 * The static build's prerender threads (src/build/parallel-prerender.mjs): the daily job's build with two threads
 * beside Astro's own writes the same files, byte for byte, as its build on Astro's thread alone, and its run log says
 * how many pages the threads rendered.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { tradingDaysEnding } from '../../src/lib/domain/market-data/calendar';
import { dailyIn } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const DATES = tradingDaysEnding('2026-11-20', 30);
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil' };
// AAPL qualifies bullish from day 10 and exits on day 20; XOM is bearish throughout; MSFT stays neutral.
const score = (ticker: string, i: number) => (ticker === 'AAPL' ? (i >= 10 && i < 20 ? 78 : 12) : ticker === 'XOM' ? -81 : 30);
const dayCsv = (date: string, i: number) => exportCsv(Object.keys(NAMES).map((ticker) => exportRow(ticker, NAMES[ticker]!, date, score(ticker, i))));

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(folder, join(entry.parentPath, entry.name))).sort();
}

/** The daily job into `work/{threads}` with `threads` prerender threads: its log and its client folder. */
async function dailyWith(work: string, threads: number): Promise<{ log: string[]; client: string }> {
  const folder = join(work, String(threads));
  await writeExports(join(folder, 'source'), Object.fromEntries(DATES.map((date, i) => [`signals-${date}.csv`, dayCsv(date, i)])));
  const log: string[] = [];
  process.env.PRERENDER_THREADS = String(threads);
  await runDaily(dailyIn(folder, { log: (line) => log.push(line) }));
  return { log, client: join(folder, 'dist', 'client') };
}

describe('prerender threads', () => {
  let work: string;
  let alone: Awaited<ReturnType<typeof dailyWith>>;
  let threaded: Awaited<ReturnType<typeof dailyWith>>;
  const before = process.env.PRERENDER_THREADS;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parallel-prerender-'));
    alone = await dailyWith(work, 0);
    threaded = await dailyWith(work, 2);
  }, 300_000);

  afterAll(async () => {
    if (before === undefined) delete process.env.PRERENDER_THREADS;
    else process.env.PRERENDER_THREADS = before;
    await rm(work, { recursive: true, force: true });
  });

  it('renders most pages on the threads, and says so in the run log', () => {
    expect(alone.log.some((line) => line.startsWith('Pages on prerender threads'))).toBe(false);
    const counted = threaded.log.map((line) => /^Pages on prerender threads: (\d+) of (\d+) \(2 thread\(s\) beside Astro's own\)\.$/.exec(line)).find((m) => m !== null);
    expect(counted, threaded.log.join('\n')).toBeDefined();
    const [, onThreads, pages] = counted!.map(Number);
    expect(pages).toBeGreaterThan(40);
    expect(onThreads).toBeGreaterThan(pages! / 2);
  });

  it("writes every file byte for byte as the build on Astro's thread alone", async () => {
    const files = await filesUnder(threaded.client);
    expect(await filesUnder(alone.client)).toEqual(files);
    expect(files).toContain('signal/AAPL/index.html');
    expect(files).toContain(`signal/AAPL/${DATES[10]}/index.html`);
    const differing: string[] = [];
    for (const file of files) {
      const [mine, theirs] = await Promise.all([readFile(join(threaded.client, file)), readFile(join(alone.client, file))]);
      if (!mine.equals(theirs)) differing.push(file);
    }
    expect(differing).toEqual([]);
  });
});
