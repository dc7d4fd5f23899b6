/**
 * The signal permalinks across two daily runs: a settled signal's page (exited, every horizon measured) is kept from
 * the published build, not rendered again, and is still served and listed in the sitemap; an open signal's page is
 * rendered again with the new day. Each call rendered while open gets its own share image, kept with its page.
 */
import { readFile, rm, stat, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { tradingDaysEnding } from '../../src/lib/domain/market-data/calendar';
import { DemoProvider } from '../../src/server/providers/demo';
import { TrackStore } from '../../src/storage/track';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';
import { readSitemaps } from '../fixtures/sitemap';

// 101 trading days; the first run publishes 98 of them, each of the next three adds one.
const DATES = tradingDaysEnding('2026-11-20', 101);
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', XOM: 'Exxon Mobil' };
// AAPL bullish on days 8 to 10, out on day 11: open at 90 days in the first run, settled in the second (day 98).
// XOM bearish from day 2 on, never out.
const score = (ticker: string, i: number) => (ticker === 'AAPL' ? (i >= 8 && i <= 10 ? 75 : 10) : i >= 2 ? -80 : -10);
const dayCsv = (date: string, i: number) => exportCsv(Object.keys(NAMES).map((ticker) => exportRow(ticker, NAMES[ticker]!, date, score(ticker, i))));
const settled = `signal/AAPL/${DATES[8]}`;
const open = `signal/XOM/${DATES[2]}`;

describe('permalinks kept from the published build', () => {
  let work: string;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let daily: DailyConfig;
  let server: ServerType;
  let origin: string;
  const first: Record<string, { ino: number; mtimeMs: number }> = {};
  const third: Record<string, { ino: number; mtimeMs: number }> = {};
  const logs: string[][] = [[]];
  const NOW = Date.parse('2026-11-24T15:00:00Z');

  const fileOf = (path: string) => join(daily.distDir, 'client', path);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'track-permalinks-'));
    await writeExports(join(work, 'source'), Object.fromEntries(DATES.slice(0, 98).map((date, i) => [`signals-${date}.csv`, dayCsv(date, i)])));
    const next = async (i: number) => {
      await writeExports(join(work, 'source'), { [`signals-${DATES[i]}.csv`]: dayCsv(DATES[i]!, i) });
      logs.push([]);
      await runDaily(daily);
    };
    accounts = await testAccounts();
    const universe = await readUniverse(join(import.meta.dirname, '../../data/universe/sp500-constituents.csv'));
    daily = dailyIn(work, { log: (line) => logs.at(-1)!.push(line), track: { store: new TrackStore(accounts.database.db), source: new DemoProvider({ universe, now: () => NOW }), costBps: 10 } });
    await runDaily(daily);
    await next(98);
    for (const path of [`${settled}/index.html`, `${settled}/index.html.gz`, `og/signal/AAPL/${DATES[8]}.png`, `${open}/index.html`]) {
      const info = await stat(fileOf(path));
      first[path] = { ino: info.ino, mtimeMs: info.mtimeMs };
    }
    await next(99);
    for (const path of Object.keys(first)) {
      const info = await stat(fileOf(path));
      third[path] = { ino: info.ino, mtimeMs: info.mtimeMs };
    }
    await next(100);
    ({ server, origin } = await serveDaily(daily, accounts));
  }, 600_000);

  afterAll(async () => {
    server?.close();
    await accounts?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the next days do not render a settled signal\'s page again: the same file, its compressed copy and its share image', async () => {
    for (const path of [`${settled}/index.html`, `${settled}/index.html.gz`, `og/signal/AAPL/${DATES[8]}.png`]) {
      // The third run links it from the published build (the one before holds the page as it was while open) ...
      expect({ path, ...third[path] }).toEqual({ path, ...first[path] });
      // ... the fourth moves it out of the build before the published one.
      const info = await stat(fileOf(path));
      expect({ path, ino: info.ino, mtimeMs: info.mtimeMs }).toEqual({ path, ...first[path] });
    }
    expect(logs[2]!.join('\n')).toContain('Signal permalinks: 1 rendered, 1 kept from the published build (0 moved from the one before it, 1 linked).');
    expect(logs[3]!.join('\n')).toContain('Signal permalinks: 1 rendered, 1 kept from the published build (1 moved from the one before it, 0 linked).');
    const manifest = JSON.parse(await readFile(join(daily.distDir, 'data', 'permalinks.json'), 'utf8')) as { pages: Record<string, unknown> };
    expect(Object.keys(manifest.pages).sort()).toEqual([`AAPL/${DATES[8]}`, `XOM/${DATES[2]}`]);
    // The build is handed the pages to render, the open one alone, so it reads no ledger rows to list them.
    const site = JSON.parse(await readFile(join(daily.distDir, 'data', 'site.json'), 'utf8')) as { trackView: { permalinkRendered?: string[]; permalinkKept?: string[] } };
    expect(site.trackView.permalinkRendered).toEqual([`XOM/${DATES[2]}`]);
    expect(site.trackView.permalinkKept).toEqual([`AAPL/${DATES[8]}`]);
  });

  it('an open signal\'s page is rendered again with the new day', async () => {
    const info = await stat(fileOf(`${open}/index.html`));
    expect(info.ino).not.toBe(first[`${open}/index.html`]!.ino);
    const html = await readFile(fileOf(`${open}/index.html`), 'utf8');
    expect(html).toContain('the signal is open');
  });

  it('the kept page is served, with its own title, canonical and share image, and no "Latest report" line', async () => {
    const answer = await fetch(`${origin}/${settled}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain(`<link rel="canonical" href="http://localhost:4321/${settled}">`);
    expect(html).toMatch(/<title>AAPL bullish signal of [^<]+ at 75\.00: what happened/);
    expect(html).toContain(`<meta property="og:image" content="http://localhost:4321/og/signal/AAPL/${DATES[8]}.png">`);
    expect(html).toContain('Exited on');
    // The supporting scores of that day, from its export (the fixture's row: Delta 1, Market 2, Accuracy 3, Relevance 4).
    expect(html).toMatch(/data-testid="permalink-subscores"[\s\S]*<dt>Delta Score<\/dt><dd>1\.00<\/dd>[\s\S]*<dt>Relevance Score<\/dt><dd>4\.00<\/dd>/);
    expect(html).not.toContain('data-report-day');
    const image = await fetch(`${origin}/og/signal/AAPL/${DATES[8]}.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('the sitemap\'s signals family still lists the kept page and the rendered one', async () => {
    const entries = await readSitemaps(join(daily.distDir, 'client'));
    const signals = entries.filter((entry) => entry.file.startsWith('sitemap-signals-')).map((entry) => entry.loc);
    expect(signals.sort()).toEqual([`http://localhost:4321/${settled}`, `http://localhost:4321/${open}`]);
  });
});
