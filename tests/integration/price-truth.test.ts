/**
 * One price truth: for a ticker and a trading day, every surface that shows that day's close shows the same number
 * (the list's Close, the track record's files and CSV, the bars route), and the live quote's previous close is the
 * last close before today in the daily bars. Built from the bundled sample's last reports by the real daily job (with
 * its track step), served by the real server on loopback; once with the demo provider, once with the fake Polygon.
 * The clock is the Friday after Thanksgiving, a week after the report: the reviewer's CDNS case.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { demoClose } from '../../src/lib/domain/market-data/demo-prices';
import type { Bar, Quote } from '../../src/lib/domain/market-data/market';
import { DemoProvider } from '../../src/server/providers/demo';
import { PolygonProvider } from '../../src/server/providers/polygon';
import type { ClosingPricesSource } from '../../src/lib/domain/track-record/track-data';
import type { MarketDataProvider } from '../../src/server/providers/provider';
import { TrackStore } from '../../src/storage/track';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { writeExports } from '../fixtures/exports';
import { fakeClose, startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';
import { SAMPLE_EXPORTS, UNIVERSE_FILE } from '../fixtures/published-report';

/** The reviewer's three (CDNS, TXT, WBD: bullish in the sample), AAPL and the sample's most bearish stock of the last day. */
const NAMED = ['CDNS', 'TXT', 'WBD', 'AAPL'];
const REPORTS = 12;
const NOW = Date.parse('2026-11-27T15:00:00Z');
const TODAY = '2026-11-27';
const THANKSGIVING = '2026-11-26';
const KEY = 'price-truth-key';

const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last REPORTS sample exports, cut to the tickers of the test (the header and their rows). */
async function sampleExports(): Promise<{ files: Record<string, string>; tickers: string[]; dates: string[] }> {
  const names = (await readdir(SAMPLE_EXPORTS)).filter((name) => name.endsWith('.csv')).sort().slice(-REPORTS);
  const texts = await Promise.all(names.map((name) => readFile(join(SAMPLE_EXPORTS, name), 'utf8')));
  const lastRows = texts.at(-1)!.trim().split('\n').slice(1).map((line) => line.split(','));
  const bearish = lastRows.sort((a, b) => Number(a[3]) - Number(b[3]))[0]![0]!;
  const tickers = [...NAMED, bearish];
  const files = Object.fromEntries(
    names.map((name, i) => {
      const [header, ...rows] = texts[i]!.trim().split('\n');
      return [name, [header, ...rows.filter((row) => tickers.includes(row.split(',')[0]!))].join('\n')];
    }),
  );
  return { files, tickers, dates: names.map((name) => name.slice('signals-'.length, -'.csv'.length)) };
}

interface Published {
  work: string;
  client: string;
  origin: string;
  tickers: string[];
  dates: string[];
  close(): Promise<void>;
}

/** The daily job (track step from `source`) over the sample's last reports, and the real server with `provider`. */
async function publish(source: (universe: Awaited<ReturnType<typeof readUniverse>>) => ClosingPricesSource, provider: (universe: Awaited<ReturnType<typeof readUniverse>>) => MarketDataProvider): Promise<Published> {
  const work = await mkdtemp(join(tmpdir(), 'price-truth-'));
  const { files, tickers, dates } = await sampleExports();
  await writeExports(join(work, 'source'), files);
  const accounts = await testAccounts();
  const universe = await readUniverse(UNIVERSE_FILE);
  const daily: DailyConfig = dailyIn(work, { now: () => NOW, track: { store: new TrackStore(accounts.database.db), source: source(universe) } });
  await runDaily(daily);
  const { server, origin }: { server: ServerType; origin: string } = await serveDaily(daily, accounts, { provider: provider(universe), now: () => NOW });
  return {
    work,
    client: join(daily.distDir, 'client'),
    origin,
    tickers,
    dates,
    close: async () => {
      server.close();
      await accounts.dispose();
      await rm(work, { recursive: true, force: true });
    },
  };
}

async function getJson<T>(origin: string, path: string): Promise<T> {
  const response = await fetch(`${origin}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** A ticker's daily bars from the live bars route, by day: the one series every other surface is held to. */
async function barsOf(origin: string, ticker: string): Promise<Map<string, Bar>> {
  const from = isoOf(NOW - 30 * 86_400_000);
  const body = await getJson<{ results: Bar[] }>(origin, `/api/polygon/aggs/${ticker}?from=${from}&to=${TODAY}`);
  return new Map(body.results.map((bar) => [isoOf(bar.t), bar]));
}

/** The list row's price cell of a ticker in a list page: its sort value (the close) and its text. */
function listCell(html: string, ticker: string): { close: number; text: string } {
  const match = new RegExp(`<tr data-t="${ticker.replace('.', '\\.')}"[^>]*>(?:(?!</tr>)[\\s\\S])*?<td class="c-price" data-v="([^"]*)">((?:(?!</td>)[\\s\\S])*)</td>`).exec(html);
  expect(match, `${ticker}'s price cell`).not.toBeNull();
  return { close: Number(match![1]), text: match![2]!.replace(/<[^>]*>/g, '') };
}

interface LedgerRow {
  date: string;
  entryClose: number | null;
  outcomes: { horizon: number; date: string | null; close: number | null }[];
}

/** Every check of the invariant, for one published site; `truth` is the provider's own close of a ticker on a day. */
function invariantSuite(name: string, start: () => Promise<Published>, truth: (ticker: string, date: string) => number) {
  describe(name, () => {
    let site: Published;
    const bars = new Map<string, Map<string, Bar>>();

    beforeAll(async () => {
      site = await start();
      for (const ticker of site.tickers) bars.set(ticker, await barsOf(site.origin, ticker));
    }, 300_000);

    afterAll(async () => {
      await site?.close();
    });

    it("the bars route: a bar on every trading day, none on Thanksgiving, each close the provider's", () => {
      for (const ticker of site.tickers) {
        const days = [...bars.get(ticker)!.keys()];
        expect(days, ticker).not.toContain(THANKSGIVING);
        expect(days.at(-1), ticker).toBe(TODAY);
        for (const date of site.dates) expect(bars.get(ticker)!.get(date)?.c, `${ticker} ${date}`).toBe(truth(ticker, date));
      }
    });

    it("the list's Close is the report day's close in the bars, with its change from the close before, and names its day", async () => {
      const reportDate = site.dates.at(-1)!;
      for (const page of ['all-signals', 'currently-qualified']) {
        const html = await readFile(join(site.client, page, 'index.html'), 'utf8');
        expect(html.match(/<tr data-t=/g)?.length, page).toBeGreaterThan(page === 'all-signals' ? 4 : 2);
        expect(html, page).toMatch(/<th scope="col" class="c-price"[^>]*title="Close on Nov 20, 2026"[^>]*>.*?<span class="th-date" data-testid="close-date">Nov 20<\/span>/);
        // Every ticker is in All Signals; the other list holds the qualified ones.
        for (const ticker of site.tickers.filter((t) => page === 'all-signals' || html.includes(`<tr data-t="${t}"`))) {
          const series = bars.get(ticker)!;
          const close = series.get(reportDate)!.c;
          const before = series.get(site.dates.at(-2)!)!.c;
          const cell = listCell(html, ticker);
          expect(cell.close, `${page} ${ticker}`).toBe(close);
          const change = (close / before - 1) * 100;
          expect(cell.text, `${page} ${ticker}`).toContain(`$${close.toFixed(2)} ${change >= 0 ? '+' : '-'}${Math.abs(change).toFixed(2)}%`);
        }
      }
    });

    it("the track record's files: every entry close and outcome close is that day's close in the bars", async () => {
      let checked = 0;
      for (const ticker of site.tickers) {
        const series = bars.get(ticker)!;
        const track = await getJson<{ ledger: LedgerRow[] }>(site.origin, `/api/track-record/${ticker}`);
        for (const row of track.ledger) {
          expect(row.entryClose, `${ticker} entry ${row.date}`).toBe(series.get(row.date)!.c);
          checked++;
          for (const outcome of row.outcomes) {
            if (outcome.date === null) continue;
            expect(outcome.close, `${ticker} ${outcome.horizon}d ${outcome.date}`).toBe(series.get(outcome.date)!.c);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(site.tickers.length);
      const csv = (await (await fetch(`${site.origin}/track-record.csv`)).text()).trim().split('\r\n');
      const columns = csv[0]!.split(',');
      const [ticker, date, entry] = ['ticker', 'report_date', 'entry_close'].map((c) => columns.indexOf(c));
      expect(csv.length).toBeGreaterThan(1);
      for (const line of csv.slice(1)) {
        const cells = line.split(',');
        expect(Number(cells[entry!]), line).toBe(bars.get(cells[ticker!]!)!.get(cells[date!]!)!.c);
      }
    });

    it("the live quote: its session is today's, its previous close is the last close before today in the bars, the price a move from it, the day's range holding open and price", async () => {
      for (const ticker of site.tickers) {
        const series = [...bars.get(ticker)!.entries()].sort(([a], [b]) => a.localeCompare(b));
        const lastBefore = series.filter(([date]) => date < TODAY).at(-1)!;
        const quote = await getJson<Quote>(site.origin, `/api/stock-price/${ticker}`);
        expect(lastBefore[0]).toBe('2026-11-25');
        expect(quote.regularMarketPreviousClose, ticker).toBe(lastBefore[1].c);
        // The price panel's open and daily range are today's bar of the same series.
        const today = bars.get(ticker)!.get(TODAY)!;
        expect(quote.regularMarketPrice, ticker).toBe(today.c);
        // The quote names the session its price belongs to.
        expect(quote.sessionDate, ticker).toBe(TODAY);
        expect([quote.regularMarketOpen, quote.regularMarketDayLow, quote.regularMarketDayHigh], ticker).toEqual([today.o, today.l, today.h]);
        expect(quote.regularMarketChange!, ticker).toBeCloseTo(quote.regularMarketPrice! - quote.regularMarketPreviousClose!, 2);
        expect(quote.regularMarketDayLow!, ticker).toBeLessThanOrEqual(Math.min(quote.regularMarketOpen!, quote.regularMarketPrice!));
        expect(quote.regularMarketDayHigh!, ticker).toBeGreaterThanOrEqual(Math.max(quote.regularMarketOpen!, quote.regularMarketPrice!));
        const previous = await getJson<{ results: Bar[] }>(site.origin, `/api/polygon/price/${ticker}`);
        expect(previous.results[0]!.c, ticker).toBe(lastBefore[1].c);
      }
    });
  });
}

invariantSuite(
  'one price truth with the demo provider',
  () => publish((universe) => new DemoProvider({ universe, now: () => NOW }), (universe) => new DemoProvider({ universe, now: () => NOW })),
  demoClose,
);

let fake: FakePolygon | undefined;
invariantSuite(
  'one price truth with Polygon (the fake server, one series)',
  async () => {
    fake = await startFakePolygon({ key: KEY, groupedTickers: (await sampleExports()).tickers, seriesNow: () => NOW });
    // The real market is shut on Thanksgiving: no bars that day.
    fake.unclosedDays.add(THANKSGIVING);
    const polygon = () => new PolygonProvider({ apiKey: KEY, baseUrl: fake!.origin, ratePerMinute: 1000, now: () => NOW, log: () => undefined });
    const published = await publish(polygon, polygon);
    return { ...published, close: async () => Promise.all([published.close(), fake!.close()]).then(() => undefined) };
  },
  fakeClose,
);
