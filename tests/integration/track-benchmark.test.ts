/**
 * The track record against a benchmark, with its intervals, model portfolio, permalinks and methodology, end to end:
 * the real daily job (demo closes stored in the accounts database, the ledger recorded) builds the site, and the real
 * server answers the static JSON, a signal's permalink, a date with no entry (404) and the sitemap.
 */
import { readSitemaps } from '../fixtures/sitemap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { demoClose } from '../../src/lib/domain/market-data/demo-prices';
import { demoIndexCloses } from '../../src/lib/domain/track-record/benchmark';
import { DemoProvider } from '../../src/server/providers/demo';
import { TrackStore } from '../../src/storage/track';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const DATES = ['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
// AAPL bullish from the 11th, out on the 17th; XOM bearish from the 12th on; MSFT never qualifies.
const SCORES: Record<string, number[]> = {
  AAPL: [50, 70, 72, 74, 71, 40, 30, 20, 10],
  MSFT: [10, 12, 14, 16, 18, 20, 22, 24, 26],
  XOM: [-10, -20, -66, -70, -75, -80, -86, -90, -91],
};
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil' };
const dayCsv = (date: string, scores: Record<string, number>) => exportCsv(Object.entries(scores).map(([ticker, score]) => exportRow(ticker, NAMES[ticker]!, date, score)));
const day = (i: number) => Object.fromEntries(Object.entries(SCORES).map(([t, s]) => [t, s[i]!]));

type Horizon = { horizon: number; resolved: number; benchmarkReturn: number | null; excessReturn: number | null; hitRateInterval: [number, number] | null };
type Group = { signals: number; horizons: Horizon[] };

describe('the track record against a benchmark, its permalinks and its methodology', () => {
  let work: string;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let daily: DailyConfig;
  let server: ServerType;
  let origin: string;
  let client: string;
  const NOW = Date.parse('2026-11-24T15:00:00Z');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'track-benchmark-'));
    await writeExports(join(work, 'source'), Object.fromEntries(DATES.map((date, i) => [`signals-${date}.csv`, dayCsv(date, day(i))])));
    accounts = await testAccounts();
    const universe = await readUniverse(join(import.meta.dirname, '../../data/universe/sp500-constituents.csv'));
    daily = dailyIn(work, { track: { store: new TrackStore(accounts.database.db), source: new DemoProvider({ universe, now: () => NOW }), costBps: 10 } });
    await runDaily(daily);
    client = join(daily.distDir, 'client');
    ({ server, origin } = await serveDaily(daily, accounts));
  }, 300_000);

  afterAll(async () => {
    server?.close();
    await accounts?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('/api/track-record: every group carries benchmarkReturn, excessReturn and hitRateInterval at every horizon; the benchmark is the demo index', async () => {
    const all = (await (await fetch(`${origin}/api/track-record`)).json()) as { benchmark: unknown; minResolved: number; directions: Record<string, Group>; bands: Group[]; sectors: Group[]; portfolio: { costBps: number; start: string; points: unknown[] } };
    expect(all.benchmark).toEqual({ ticker: 'Demo index', demo: true, label: 'Demo index (demo prices)' });
    expect(all.minResolved).toBe(20);
    const groups = [...Object.values(all.directions), ...all.bands, ...all.sectors];
    expect(groups.length).toBeGreaterThan(6);
    for (const group of groups) {
      for (const h of group.horizons) {
        expect(h).toHaveProperty('benchmarkReturn');
        expect(h).toHaveProperty('excessReturn');
        expect(h).toHaveProperty('hitRateInterval');
        if (h.resolved > 0) expect(h.hitRateInterval).toEqual([expect.any(Number), expect.any(Number)]);
        else expect(h.hitRateInterval).toBeNull();
      }
    }
    // AAPL's one bullish signal resolved at 5 days: a hit or a miss of 1, Wilson's interval of 1 of 1 or 0 of 1.
    const five = all.directions.bullish!.horizons[0]!;
    expect(five.resolved).toBe(1);
    const [low, high] = five.hitRateInterval!;
    expect(high - low).toBeCloseTo(0.793, 3);
    expect(low === 0 || high === 1).toBe(true);
    expect(all.portfolio).toMatchObject({ costBps: 10, start: DATES[0] });
    expect(all.portfolio.points).toHaveLength(DATES.length);
  });

  it('/api/track-record/{T}: each outcome against the demo index over the same days, the excess in the signal\'s direction', async () => {
    const closes = Object.fromEntries(['AAPL', 'MSFT', 'XOM'].map((t) => [t, DATES.map((d) => demoClose(t, d))]));
    const index = demoIndexCloses(DATES, closes);
    const at = (date: string) => index[DATES.indexOf(date)]!;
    const aapl = (await (await fetch(`${origin}/api/track-record/AAPL`)).json()) as { bullish: Group; ledger: { outcomes: { date: string; priceReturn: number; benchmarkReturn: number; excessReturn: number }[] }[] };
    const o = aapl.ledger[0]!.outcomes[0]!;
    expect(o.date).toBe('2026-11-18');
    expect(o.benchmarkReturn).toBeCloseTo(at('2026-11-18') / at('2026-11-11') - 1, 5);
    expect(o.excessReturn).toBeCloseTo(o.priceReturn - o.benchmarkReturn, 5);
    expect(aapl.bullish.horizons[0]).toHaveProperty('hitRateInterval');
    const xom = (await (await fetch(`${origin}/api/track-record/XOM`)).json()) as { ledger: { outcomes: { priceReturn: number; benchmarkReturn: number; excessReturn: number }[] }[] };
    const x = xom.ledger[0]!.outcomes[0]!;
    // Bearish: the benchmark's change less the stock's.
    expect(x.excessReturn).toBeCloseTo(x.benchmarkReturn - x.priceReturn, 5);
  });

  it('/track-record: "too few to judge" under 20 resolved signals, the benchmark labelled demo, the portfolio, ledger cells labelled for phone cards', async () => {
    const html = await (await fetch(`${origin}/track-record`)).text();
    expect(html).toContain('data-testid="too-few"');
    expect(html).toContain('too few to judge');
    expect(html).not.toContain('data-testid="hit-rate"');
    expect(html).toMatch(/data-testid="benchmark-name">Demo index \(demo prices\)</);
    expect(html).toContain('data-testid="portfolio-figures"');
    expect(html).toContain('It starts at the first archived report (Nov 10, 2026) and never before');
    expect(html).toContain('data-testid="calibration-interval"');
    expect(html).toContain('data-label="5 days"');
    expect(html).toContain('href="/signal/AAPL/2026-11-11"');
    expect(html).toContain('href="/methodology"');
  });

  it('a permalink per ledger entry: the call, its outcomes against the benchmark, its exit, links; under 14 KB gzip', async () => {
    const answer = await fetch(`${origin}/signal/AAPL/2026-11-11`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('AAPL: bullish signal of Nov 11, 2026');
    expect(html).toMatch(/<title>AAPL bullish signal of Nov 11, 2026 at 70\.00: what happened/);
    expect(html).toContain('<link rel="canonical" href="http://localhost:4321/signal/AAPL/2026-11-11"');
    expect(html).toContain('<meta name="description" content="On Nov 11, 2026 C-Score Signals called AAPL (Apple Inc.) bullish at a C-Score of 70.00;');
    expect(html).toContain('Exited on Nov 17, 2026');
    expect(html).toContain('href="/signal/AAPL"');
    expect(html).toContain('href="/methodology"');
    expect(html).toContain('data-testid="permalink-outcomes"');
    expect(gzipSync(html).length).toBeLessThanOrEqual(14 * 1024);
    const xom = await (await fetch(`${origin}/signal/XOM/2026-11-12`)).text();
    expect(xom).toContain('Still qualified as of Nov 20, 2026');
  });

  it('a date with no entry for that stock is a 404: the not-found screen, whose script suggests the nearest entries', async () => {
    const answer = await fetch(`${origin}/signal/AAPL/2026-11-12`);
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toContain('data-permalink-missing');
    expect(html).toContain('<meta name="robots" content="noindex');
  });

  it('the sitemap lists every permalink in its own family, and the methodology', async () => {
    const entries = await readSitemaps(client);
    const fileOf = (loc: string) => entries.find((entry) => entry.loc === loc)?.file;
    expect(fileOf('http://localhost:4321/signal/AAPL/2026-11-11')).toBe('sitemap-signals-0.xml');
    expect(fileOf('http://localhost:4321/signal/XOM/2026-11-12')).toBe('sitemap-signals-0.xml');
    expect(fileOf('http://localhost:4321/methodology')).toBe('sitemap-pages-0.xml');
    expect(entries.filter((entry) => entry.loc.includes('/signal/AAPL/2026-11-12'))).toEqual([]);
  });

  it('/methodology: the content entry with its version, date and changelog, the spec\'s thresholds filled in', async () => {
    const answer = await fetch(`${origin}/methodology`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toMatch(/data-testid="methodology-version">Version 1\.0\.0, <time datetime="2026-11-27">Nov 27, 2026<\/time>/);
    expect(html).toContain('25 million credit and debit cards');
    expect(html).toContain('a C-Score of 65 or more');
    expect(html).toContain('data-testid="methodology-changelog"');
  });
});
