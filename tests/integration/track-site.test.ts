/**
 * The track record end to end: the real daily job with the track step (demo closes stored in the accounts database, the
 * ledger recorded) publishes /track-record, the stock pages' card, the list prices, the static API, the ledger CSV
 * and the Dataset JSON-LD; the real server answers them. Then a re-publish of an old date, which the run log records.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { demoClose } from '../../src/lib/domain/market-data/demo-prices';
import { DemoProvider } from '../../src/server/providers/demo';
import { LEDGER_ROWS_FILE } from '../../src/lib/domain/track-record/track-data';
import { RunLog } from '../../src/storage/run-log';
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

function dayCsv(date: string, scores: Record<string, number>): string {
  return exportCsv(Object.entries(scores).map(([ticker, score]) => exportRow(ticker, NAMES[ticker]!, date, score)));
}
const day = (i: number) => Object.fromEntries(Object.entries(SCORES).map(([t, s]) => [t, s[i]!]));
const jsonLdOf = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

describe('the track record of a published report', () => {
  let work: string;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let daily: DailyConfig;
  let server: ServerType;
  let origin: string;
  let client: string;
  let runLog: RunLog;
  const NOW = Date.parse('2026-11-24T15:00:00Z');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'track-site-'));
    await writeExports(join(work, 'source'), Object.fromEntries(DATES.map((date, i) => [`signals-${date}.csv`, dayCsv(date, day(i))])));
    accounts = await testAccounts();
    runLog = new RunLog(accounts.database.db);
    const universe = await readUniverse(join(import.meta.dirname, '../../data/universe/sp500-constituents.csv'));
    daily = dailyIn(work, {
      runLog: { log: runLog, trigger: 'cli' },
      track: { store: new TrackStore(accounts.database.db), source: new DemoProvider({ universe, now: () => NOW }) },
    });
    await runDaily(daily);
    client = join(daily.distDir, 'client');
    ({ server, origin } = await serveDaily(daily, accounts));
  }, 300_000);

  afterAll(async () => {
    server?.close();
    await accounts?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('stores the closes of every report date and records the ledger; the run log says so', async () => {
    const [run] = await runLog.recent(1);
    expect(run!.notes.track).toEqual([`closes of ${DATES.length} report date(s) stored from demo (${DATES[0]} to ${DATES.at(-1)})`, 'ledger: 2 new entries, 0 exits recorded']);
  });

  it('/track-record: the figures, the calibration chart and the ledger in the HTML, labelled demo prices', async () => {
    const html = await readFile(join(client, 'track-record', 'index.html'), 'utf8');
    expect(html).toContain('Past results do not predict future ones.');
    expect(html).toContain('data-testid="demo-prices"');
    expect(html).toMatch(/<svg viewBox="0 0 720 300" role="img"[^>]*data-testid="calibration-chart"/);
    expect(html).toContain('<title id="calibration-title">Hit rate by C-Score band at 5, 30 and 90 trading days</title>');
    for (const testid of ['direction-table', 'band-table', 'sector-table', 'ledger-table']) expect(html).toContain(`data-testid="${testid}"`);
    // Two signals: AAPL (Information Technology) and XOM (Energy), each with its row in the ledger.
    expect(html.match(/<tr data-ticker="(AAPL|XOM)"/g)).toEqual(['<tr data-ticker="XOM"', '<tr data-ticker="AAPL"']);
    expect(html).toContain('2 signals from Nov 11, 2026 to Nov 12, 2026');
    const dataset = jsonLdOf(html).find((ld) => ld['@type'] === 'Dataset')!;
    expect(dataset).toMatchObject({
      name: 'C-Score Signals track record',
      temporalCoverage: `2026-11-11/${DATES.at(-1)}`,
      distribution: [{ '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: 'http://localhost:4321/track-record.csv' }],
    });
    expect(String(dataset.description)).toContain('Demo prices');
    expect(String(dataset.license)).toMatch(/may be downloaded, quoted and reused/);
  });

  it('the static API and the CSV, served by the real server; each close the demo provider\'s', async () => {
    const aapl = (await (await fetch(`${origin}/api/track-record/AAPL`)).json()) as { signals: number; pricesLabel: string; ledger: { date: string; entryClose: number; exitDate: string; exitReturn: number; outcomes: { horizon: number; status: string; close: number }[] }[] };
    expect(aapl).toMatchObject({ signals: 1, pricesLabel: 'Demo prices' });
    const row = aapl.ledger[0]!;
    const entry = demoClose('AAPL', '2026-11-11');
    expect(row).toMatchObject({ date: '2026-11-11', entryClose: entry, exitDate: '2026-11-17' });
    expect(row.exitReturn).toBeCloseTo(demoClose('AAPL', '2026-11-17') / entry - 1, 6);
    // Five report days after Nov 11 is Nov 18; 30 and 90 lie ahead.
    expect(row.outcomes.map((o) => [o.horizon, o.status])).toEqual([[5, 'closed'], [30, 'open'], [90, 'open']]);
    expect(row.outcomes[0]!.close).toBe(demoClose('AAPL', '2026-11-18'));
    const msft = (await (await fetch(`${origin}/api/track-record/MSFT`)).json()) as { signals: number; ledger: unknown[] };
    expect(msft).toMatchObject({ signals: 0, ledger: [] });
    const all = (await (await fetch(`${origin}/api/track-record`)).json()) as { signals: number; prices: string; directions: Record<string, { signals: number }> };
    expect(all).toMatchObject({ signals: 2, prices: 'demo', directions: { bullish: { signals: 1 }, bearish: { signals: 1 } } });
    const csv = await fetch(`${origin}/track-record.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^ticker,report_date,direction,c_score,entry_close,close_5d,/);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['XOM,2026-11-12,bearish', 'AAPL,2026-11-11,bullish']);
  });

  it('the stock pages carry the Track record card, with an honest empty state for a ticker that never qualified', async () => {
    const aapl = await readFile(join(client, 'signal', 'AAPL', 'index.html'), 'utf8');
    expect(aapl).toContain('data-testid="track-record-card"');
    expect(aapl).toMatch(/1 signal since Nov 11, 2026/);
    expect(aapl).toContain('Hit Rate');
    expect(aapl).toContain('Average ROI');
    const msft = await readFile(join(client, 'signal', 'MSFT', 'index.html'), 'utf8');
    expect(msft).toContain(`MSFT has not qualified as a signal (|C-Score| 65 or more) in the ${DATES.length} reports since Nov 10, 2026, so it has no track record yet.`);
    // The pages read each ticker's rows from the ledger rows file, at the offset the site data gives, and the file is
    // gone once the build is done; the site data keeps the count and the newest rows (/track-record's).
    const site = JSON.parse(await readFile(join(daily.distDir, 'data', 'site.json'), 'utf8'));
    expect(site.trackView.ledgerTotal).toBe(2);
    expect(Object.keys(site.trackView.ledgerIndex).sort()).toEqual(['AAPL', 'XOM']);
    expect(site.track.entries).toEqual([]);
    expect(existsSync(join(daily.distDir, 'data', LEDGER_ROWS_FILE))).toBe(false);
  });

  it('each list row shows its last close and day change, marked demo', async () => {
    const html = await readFile(join(client, 'all-signals', 'index.html'), 'utf8');
    const close = demoClose('XOM', '2026-11-20');
    const change = close / demoClose('XOM', '2026-11-19') - 1;
    const sign = change > 0 ? '+' : '-';
    expect(html).toContain('data-key="price"');
    expect(html).toContain(`<td class="c-price" data-v="${close}">$${close.toFixed(2)} <span class="pc-sub"><span class="pc">${sign}${Math.abs(change * 100).toFixed(2)}%</span><span class="muted" title="Demo prices"> demo</span></span></td>`);
  });

  it('/archives carries Dataset JSON-LD with the files\' downloads', async () => {
    const html = await readFile(join(client, 'archives', 'index.html'), 'utf8');
    const dataset = jsonLdOf(html).find((ld) => ld['@type'] === 'Dataset')!;
    expect(dataset).toMatchObject({ name: 'C-Score Signals daily signal files', temporalCoverage: `${DATES[0]}/${DATES.at(-1)}`, isAccessibleForFree: true });
    const distribution = dataset.distribution as { contentUrl: string; encodingFormat: string }[];
    expect(distribution.length).toBe(14);
    expect(distribution[0]!.contentUrl).toMatch(/^http:\/\/localhost:4321\/api\/download-excel\/[0-9a-f]{16}$/);
  });

  it('a later export leaves recorded rows alone; a re-publish of an old date rewrites that date\'s rows and the run log says so', async () => {
    // A new day, and a corrected export of Nov 12 where XOM scored -60 (not qualified) and -80 is gone.
    await writeExports(join(work, 'source'), { 'signals-2026-11-23.csv': dayCsv('2026-11-23', { AAPL: 5, MSFT: 30, XOM: -92 }) });
    await runDaily(daily);
    const [plain] = await runLog.recent(1);
    expect(plain!.notes.track).toEqual(['closes of 1 report date(s) stored from demo (2026-11-23 to 2026-11-23)']);
    await writeExports(join(work, 'source'), { 'signals-2026-11-12-corrected.csv': dayCsv('2026-11-12', { AAPL: 72, MSFT: 14, XOM: -60 }) });
    await runDaily({ ...daily, accept: ['backdated'] });
    const [republished] = await runLog.recent(1);
    expect(republished!.notes.track).toContainEqual('ledger: the re-publish of 2026-11-12 rewrote its rows (1 changed in all)');
    const xom = JSON.parse(await readFile(join(client, 'api', 'track-record', 'XOM.json'), 'utf8')) as { ledger: { date: string; cScore: number }[] };
    // The entry of Nov 12 is gone with the correction; XOM now entered on Nov 13 (-70).
    expect(xom.ledger.map((r) => [r.date, r.cScore])).toEqual([['2026-11-13', -70]]);
  }, 300_000);
});
