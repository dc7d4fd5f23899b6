/**
 * The screener on the real daily job's build and the real server: the server's answer for a URL holds the same rows
 * in the same order as the page script computes from the static page's data (what a CDN serves), for a table of
 * URLs; bad values are named on the page while the rest runs; the answer works without JavaScript (the form filled).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { parseScreen, runScreen } from '../../src/lib/domain/signals/screener';
import { SCREEN_ROWS_PATH, unpackScreenRows } from '../../src/lib/domain/signals/screener-page';
import { testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

/** yesterday, delta, accuracy, market, relevance, avg7, avg14, days7, days14, top */
type Rest = [number, number, number, number, number, number, number, number, number, boolean];
const STOCKS: [string, string, number, Rest][] = [
  ['AAPL', 'Apple Inc.', 72.5, [50, 30, 60, 10, 40, 60, 55, 7, 10, true]],
  ['MSFT', 'Microsoft', -70, [60, -20, 55, -5, 35, -50, -30, 3, 5, false]],
  ['XOM', 'Exxon Mobil', 66, [67, 5, 70, 20, 50, 66, 66, 7, 14, false]],
  ['JPM', 'JPMorgan Chase', 10, [12, 1, 40, 0, 20, 8, 9, 0, 1, false]],
  ['PFE', 'Pfizer', -90, [-88, -2, 80, -40, 60, -85, -80, 7, 14, true]],
  ['NVDA', 'Nvidia', 85, [64, 21, 65, 30, 70, 70, 60, 5, 9, false]],
  ['KO', 'Coca-Cola', -10, [-30, 20, 50, 5, 30, -12, -15, 0, 0, false]],
];

function day(date: string, today: boolean): string {
  return exportCsv(
    STOCKS.map(([ticker, company, score, rest]) =>
      today ? exportRow(ticker, company, date, score, rest.map((v) => (v === true ? 'TRUE' : v === false ? 'FALSE' : v)).join(',')) : exportRow(ticker, company, date, rest[0]),
    ),
  );
}

/** The rows of a page's screener table, in order. */
function tableTickers(html: string): string[] {
  const body = /<table id="screener"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr data-t="([^"]+)"/g)].map((m) => m[1]!);
}

export const SCREEN_URLS = [
  '',
  'cscore=65..',
  'cscore=..-65',
  'signal=bearish&sort=cscore',
  'signal=bullish&signal=bearish&sort=ticker',
  'change=15..&sort=-change',
  'days7=7..',
  'delta=..0&sort=delta',
  'accuracy=60..&relevance=..60',
  'avg7=50..&avg14=..60',
  'days14=9..&sort=-days14',
  'market=0..&sort=-market',
  'sector=Information+Technology&sector=Energy',
  'top=1',
  'new=1',
  'reversed=1',
  'since=2',
  'sort=-ticker',
  'cscore=abc..&signal=bullish&colour=red',
];

describe('the screener: the server renders what the browser computes', { timeout: 300_000 }, () => {
  let work: string;
  let server: ServerType;
  let origin: string;
  let accounts: Awaited<ReturnType<typeof testAccounts>>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'screener-'));
    await writeExports(join(work, 'source'), { 'signals-2026-11-18.csv': day('2026-11-18', false), 'signals-2026-11-19.csv': day('2026-11-19', true) });
    accounts = await testAccounts();
    const daily = dailyIn(work);
    expect((await runDaily(daily)).status).toBe('published');
    ({ server, origin } = await serveDaily(daily, accounts));
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await accounts?.dispose();
    await rm(work, { recursive: true, force: true });
  });

  it.each(SCREEN_URLS)('/screener?%s gives the same rows in the same order from the server and from the static page', async (query) => {
    // The static page's rows and their data, as a CDN serves them.
    const staticPage = await (await fetch(`${origin}/screener`)).text();
    const rows = unpackScreenRows(await (await fetch(`${origin}${SCREEN_ROWS_PATH}`)).text());
    expect(rows.map((r) => r.ticker)).toEqual(tableTickers(staticPage));
    // What the page script does on a CDN: the static page's rows through runScreen.
    const browser = runScreen(rows, parseScreen(query).screen, new Set()).order.map((i) => rows[i]!.ticker);
    const answer = await fetch(`${origin}/screener?${query}`);
    expect(answer.status).toBe(200);
    const served = tableTickers(await answer.text());
    expect(served).toEqual(browser);
    if (query === '') expect(served).toEqual(['NVDA', 'AAPL', 'XOM', 'JPM', 'KO', 'MSFT', 'PFE']);
  });

  it('answers a query without JavaScript: the form filled, the count, bad values named, public cache', async () => {
    const answer = await fetch(`${origin}/screener?cscore=65..&sort=-change&signal=bullish&pe=abc..&colour=red`);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const html = await answer.text();
    expect(tableTickers(html)).toEqual(['AAPL', 'NVDA', 'XOM']);
    expect(html).toContain('<input type="text" name="cscore" value="65.." placeholder="min..max"');
    expect(html).toContain('<option value="-change" selected>');
    expect(html).toContain('<option value="bullish" selected>');
    expect(html).toContain('>3 of 7 stocks</p>');
    expect(html).toContain('<li>pe: &quot;abc&quot; is not a number</li>');
    expect(html).toContain('<li>colour: not a screener key</li>');
    // The answer holds the result's rows only, and says so to the page script.
    expect(html).toContain(`<div data-screen-rows="${SCREEN_ROWS_PATH}" data-partial`);
  });

  it('the answer is gzipped when asked and revalidates by its entity tag', async () => {
    const url = `${origin}/screener?signal=bearish`;
    const first = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(first.headers.get('vary')).toBe('Accept-Encoding');
    expect(tableTickers(await first.text())).toEqual(['MSFT', 'PFE']);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Another screen has another tag.
    expect((await fetch(`${origin}/screener?signal=bullish`)).headers.get('etag')).not.toBe(etag);
  });

  it('a preset is a plain link the server answers', async () => {
    const html = await (await fetch(`${origin}/screener`)).text();
    expect(html).toContain('href="/screener?change=15..&amp;sort=-change"');
    expect(tableTickers(await (await fetch(`${origin}/screener?change=15..&sort=-change`)).text())).toEqual(['AAPL', 'NVDA', 'KO']);
  });
});
