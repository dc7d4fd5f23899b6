/**
 * PAYWALL=on (DESIGN.md "Accounts and entitlements"): the daily job builds a site whose static HTML
 * and JSON under dist/client hold only what anonymous visitors may see. 60 tickers, 7 top tickers: the 5 of largest
 * |C-Score| are free, ZBY and ZCD are locked; their scores carry values found nowhere else, so a grep proves them absent.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv, writeExports } from '../fixtures/exports';

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

const tickerOf = (i: number) => `Z${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;
const FREE_TOPS = [3, 10, 20, 25, 30].map(tickerOf);
const LOCKED: Record<string, { score: number; fields: number[] }> = {
  // ticker index 50 and 55: qualified top tickers weaker than the free 5 (the weakest, ZBE, at 69.20).
  [tickerOf(50)]: { score: 66.23, fields: [70.91, 7.77, 33.33, 8.88, 44.44, 66.66, 55.55] },
  [tickerOf(55)]: { score: -67.34, fields: [-70.92, -7.76, 33.32, -8.87, 44.43, -66.65, -55.54] },
};
/** Every score of the locked tickers as a page or a JSON file would print it. */
const LOCKED_TEXTS = Object.values(LOCKED).flatMap(({ score, fields }) => [score, ...fields].flatMap((n) => [n.toFixed(2), String(n)]));

function day(date: string, latest: boolean): string {
  const rows = Array.from({ length: 60 }, (_, i) => {
    const ticker = tickerOf(i);
    const top = FREE_TOPS.includes(ticker) || ticker in LOCKED;
    const sign = i % 2 === 0 ? 1 : -1;
    const score = Number((sign * (99.5 - i * 1.01)).toFixed(2));
    const locked = LOCKED[ticker];
    if (!latest) {
      // The report before: the first 10 qualified the other way (reversals), the rest neutral (new signals today).
      const before = i < 10 ? -score : 10;
      return [ticker, `Company ${ticker}`, date, before, 0, 1, 50, 1, 50, 1, 1, 0, 0, top ? 'TRUE' : 'FALSE'].join(',');
    }
    if (locked) {
      const [y, delta, acc, market, rel, avg7, avg14] = locked.fields;
      return [ticker, `Company ${ticker}`, date, locked.score, y, delta, acc, market, rel, avg7, avg14, 3, 5, 'TRUE'].join(',');
    }
    return [ticker, `Company ${ticker}`, date, score, 10, 1, 50, 1, 50, score, score, 3, 5, top ? 'TRUE' : 'FALSE'].join(',');
  });
  return exportCsv(rows);
}

function runDaily(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSX, 'scripts/daily.ts'], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let work: string;
let client: string;
const page = (path: string) => readFile(join(client, path, 'index.html'), 'utf8');
const rowTickers = (html: string) => [...html.matchAll(/<tr data-t="([^"]+)"/g)].map((m) => m[1]);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'paywall-build-'));
  const source = join(work, 'source');
  await writeExports(source, { 'signals-2026-11-19.csv': day('2026-11-19', false), 'signals-2026-11-20.csv': day('2026-11-20', true) });
  const result = await runDaily({
    SIGNALS_SOURCE: source,
    ARCHIVE_DIR: join(work, 'archive'),
    DIST_DIR: join(work, 'dist'),
    SHARE_IMAGE_CACHE: join(work, 'share-images'),
    // Its own accounts database: the run log, the closes and the ledger of this archive only.
    DATABASE_FILE: join(work, 'app.db'),
    DATABASE_URL: '',
    SITE_URL: 'https://signals.example',
    PAYWALL: 'on',
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  client = join(work, 'dist/client');
}, 300_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the static build with PAYWALL=on', () => {
  it('All Signals: the 45 free rows with the 5 free top tickers, a count of 15 locked and the paywall button', async () => {
    const landing = await page('');
    // The landing page holds the top 20 of the same free rows, and the same paywall.
    expect(rowTickers(landing)).toEqual(rowTickers(await page('all-signals')).slice(0, 20));
    expect(landing).toContain('15 more signals with Pro');
    for (const path of ['all-signals']) {
      const html = await page(path);
      const rows = rowTickers(html);
      expect(rows).toHaveLength(45);
      for (const t of FREE_TOPS) expect(rows).toContain(t);
      for (const t of Object.keys(LOCKED)) expect(rows).not.toContain(t);
      // The 13 weakest rows that are not top tickers are Pro only too.
      expect(rows).not.toContain(tickerOf(59));
      expect(html).toContain('15 more signals with Pro');
      expect(html).toContain('data-paywall-feature="All Signals"');
      expect(html).toContain('60 stocks, report of');
    }
  });

  it('the static all-signals JSON is the same free slice; a locked ticker JSON has no score', async () => {
    const all = JSON.parse(await readFile(join(client, 'api/all-signals.json'), 'utf8')) as { ticker: string }[];
    expect(all).toHaveLength(45);
    expect(all.map((r) => r.ticker)).not.toContain(tickerOf(50));
    const stock = JSON.parse(await readFile(join(client, `api/stock/${tickerOf(50)}.json`), 'utf8'));
    expect(stock).toEqual({ ticker: 'ZBY', companyName: 'Company ZBY', reportDate: '2026-11-20', isTopTicker: true, locked: true });
    for (const route of ['ticker-metrics', 'c-score-trend']) {
      expect(JSON.parse(await readFile(join(client, `api/${route}/${tickerOf(55)}.json`), 'utf8'))).toMatchObject({ locked: true });
    }
    // A free ticker keeps its whole record.
    expect(JSON.parse(await readFile(join(client, `api/stock/${tickerOf(3)}.json`), 'utf8'))).toMatchObject({ ticker: 'ZAD', isTopTicker: true });
  });

  it('Currently Qualified: the free qualified rows and 2 locked', async () => {
    const html = await page('currently-qualified');
    expect(rowTickers(html)).toHaveLength(35);
    expect(html).toContain('2 more signals with Pro');
  });

  it('Recently Qualified, Reversals & Exits and the Heatmap: a short preview of 5 rows and the paywall', async () => {
    const recent = await page('recently-qualified');
    expect(rowTickers(recent).length).toBeLessThanOrEqual(10);
    expect(recent).toContain('data-paywall-feature="Recently Flashed Signals"');
    expect(recent).toContain('Recently Flashed Signals is part of Pro');
    const reversals = await page('reversals-exits');
    expect(rowTickers(reversals)).toHaveLength(5);
    expect(reversals).toContain('data-paywall-feature="Recent Reversals"');
    for (const path of ['heatmap', 'explore']) {
      const heat = await page(path);
      expect([...heat.matchAll(/class="tile/g)]).toHaveLength(5);
      expect(heat).toContain('data-paywall-feature="Signals Heatmap"');
    }
  });

  it('Archives: the premium gate and no download link', async () => {
    const html = await page('archives');
    expect(html).toContain('Archive Access is Premium');
    expect(html).not.toContain('/api/download-');
  });

  it('a locked top ticker page is public with a locked card, and no score in its meta or JSON-LD', async () => {
    const html = await page(`signal/${tickerOf(50)}`);
    expect(html).toContain('Top Stock Details are part of Pro');
    expect(html).toContain('data-paywall-feature="Top Stock Details"');
    const meta = /<meta name="description" content="([^"]*)"/.exec(html)![1]!;
    expect(meta).toContain('Its C-Score and history are part of Pro');
    const ld = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!;
    expect(ld).not.toMatch(/C-Score -?\d/);
    // A free top ticker's page keeps its scores.
    expect(await page(`signal/${tickerOf(3)}`)).toContain('96.47');
  });

  it('no HTML or JSON file under dist/client holds a locked top ticker score', async () => {
    const files = (await readdir(client, { recursive: true })).filter((f) => /\.(html|json|xml|txt)$/.test(f));
    expect(files.length).toBeGreaterThan(60);
    const leaks: string[] = [];
    for (const file of files) {
      const text = await readFile(join(client, file), 'utf8');
      for (const value of LOCKED_TEXTS) if (text.includes(value)) leaks.push(`${file}: ${value}`);
    }
    expect(leaks).toEqual([]);
  });
});
