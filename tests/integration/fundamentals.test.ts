/**
 * One daily run with a key fills P/E, EPS, dividend yield, market cap and the next earnings
 * date for every ticker the fake Polygon knows, in at most ceil(tickers / batch) calls per part plus the extra pages;
 * a run under a budget of 5 calls a minute waits, resumes and finishes; a run cut short resumes on the next one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshFundamentals } from '../../src/ingest/fundamentals';
import { daysBefore, EARNINGS_LOOKBACK_DAYS, FUNDAMENTALS_BATCH } from '../../src/lib/domain/market-data/fundamentals';
import { PolygonProvider } from '../../src/server/providers/polygon';
import { readUniverse } from '../../src/storage/universe';
import { fakeEarningsDates, fakeRatios, startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';
import { buildSite, startApi, TICKERS, type BuiltSite } from './api-harness';

const KEY = 'pk_test_fundamentals_1234';
const TODAY = '2026-11-20';
const UNIVERSE = join(import.meta.dirname, '../../data/universe/sp500-constituents.csv');
const BULK = /^\/(stocks\/financials\/v1\/ratios|benzinga\/v1\/earnings)$/;

let fake: FakePolygon;
let work: string;
let built: BuiltSite | undefined;
let universe: string[];
let firstRun: { calls: number; nextUrls: number; urls: string[] };
const logs: string[] = [];

const provider = (ratePerMinute: number, clock?: { now: () => number; sleep: (ms: number) => Promise<void> }) =>
  new PolygonProvider({ apiKey: KEY, baseUrl: fake.origin, ratePerMinute, timeoutMs: 2000, log: (line) => logs.push(line), ...clock });
const bulkCalls = () => fake.calls.filter((path) => BULK.test(path)).length;

beforeAll(async () => {
  fake = await startFakePolygon({ key: KEY });
  // An earnings batch of 100 tickers is 200 events: two pages of 150, so next_url is followed.
  fake.pageSize = 150;
  universe = (await readUniverse(UNIVERSE)).map((company) => company.ticker);
  work = await mkdtemp(join(tmpdir(), 'fundamentals-'));
  built = await buildSite({ fundamentals: provider(1000), fundamentalsFile: join(work, 'fundamentals.json'), today: TODAY });
  firstRun = { calls: bulkCalls(), nextUrls: fake.nextUrls, urls: [...fake.urls] };
});

afterAll(async () => {
  await fake.close();
  await rm(work, { recursive: true, force: true });
  if (built) await rm(built.work, { recursive: true, force: true });
});

describe('fundamentals from the daily job', () => {
  it('fills every known ticker in ceil(tickers / batch) calls per part plus the pages, and serves them from the build', async () => {
    const file = join(work, 'fundamentals.json');
    const batches = Math.ceil(universe.length / FUNDAMENTALS_BATCH);
    expect(firstRun.nextUrls).toBeGreaterThan(0);
    expect(firstRun.calls).toBeLessThanOrEqual(2 * batches + firstRun.nextUrls);
    expect(firstRun.urls.filter((u) => u.includes('ticker.any_of=')).length).toBe(2 * batches);

    const store = JSON.parse(await readFile(file, 'utf8')) as { tickers: Record<string, Record<string, unknown>> };
    expect(Object.keys(store.tickers)).toHaveLength(universe.length);
    expect(store.tickers.AAPL).toMatchObject({ ratiosAsOf: '2026-11-19', ratiosFetchedOn: TODAY, earningsFetchedOn: TODAY });

    const api = await startApi(built!, provider(1000));
    try {
      for (const ticker of TICKERS) {
        const quote = (await (await api.get(`/api/stock-price/${ticker}`)).json()) as Record<string, unknown>;
        const earnings = (await (await api.get(`/api/earnings-date/${ticker}`)).json()) as Record<string, unknown>;
        const info = (await (await api.get(`/api/company-info/${ticker}`)).json()) as Record<string, unknown>;
        if (ticker === 'JPM') {
          // The fake knows nothing about JPM: nothing is invented.
          expect(quote.trailingPE).toBeUndefined();
          expect(earnings).toEqual({ earningsAvailable: false, earningsDate: null, nextEarningsDate: null });
          continue;
        }
        const ratios = fakeRatios(ticker);
        const next = fakeEarningsDates(ticker, daysBefore(TODAY, EARNINGS_LOOKBACK_DAYS)).next;
        expect(quote).toMatchObject({ trailingPE: ratios.price_to_earnings, eps: ratios.earnings_per_share, dividendYield: ratios.dividend_yield });
        expect(quote.marketCap).toBeGreaterThan(0);
        expect(quote.beta).toBeUndefined();
        expect(earnings).toEqual({ earningsAvailable: true, earningsDate: next, nextEarningsDate: next });
        expect(next > TODAY).toBe(true);
        expect(info.marketCap).toBe(ratios.market_cap);
      }
    } finally {
      await api.close();
    }

    // Once a day: a second run the same day asks for nothing.
    fake.calls.length = 0;
    const again = await refreshFundamentals({ tickers: universe, source: provider(1000), file, today: TODAY, log: (line) => logs.push(line) });
    expect(again).toMatchObject({ complete: true, ratios: 0, earnings: 0 });
    expect(bulkCalls()).toBe(0);
  });

  it('under a budget of 5 calls a minute waits for the budget, resumes and finishes', async () => {
    fake.calls.length = 0;
    fake.nextUrls = 0;
    let clock = Date.parse(`${TODAY}T12:00:00Z`);
    const sleeps: number[] = [];
    const clocked = { now: () => clock, sleep: async (ms: number) => void (sleeps.push(ms), (clock += ms)) };
    const file = join(work, 'budget.json');
    const summary = await refreshFundamentals({ tickers: universe, source: provider(5, clocked), file, today: TODAY, log: (line) => logs.push(line) });
    expect(summary).toMatchObject({ complete: true, stoppedBy: null, ratios: universe.length - 1, earnings: universe.length - 1 });
    const calls = bulkCalls();
    expect(calls).toBeGreaterThan(5);
    // Every sixth call had to wait for the minute to pass.
    expect(sleeps.length).toBe(Math.ceil(calls / 5) - 1);
    expect(clock - Date.parse(`${TODAY}T12:00:00Z`)).toBeGreaterThanOrEqual(60_000 * (Math.ceil(calls / 5) - 1));
    expect(logs).toContainEqual(expect.stringMatching(/^The Polygon budget of 5 calls a minute is spent: waiting \d+ s before the next \/(stocks|benzinga)\//));
  });

  it('a run cut short by the upstream resumes on the next run with only what is missing', async () => {
    const file = join(work, 'resume.json');
    fake.forbid = /^\/benzinga\//;
    const first = await refreshFundamentals({ tickers: universe, source: provider(1000), file, today: TODAY, log: (line) => logs.push(line) });
    fake.forbid = null;
    expect(first.complete).toBe(false);
    expect(first.stoppedBy).toMatch(/Polygon refused \/benzinga\/v1\/earnings \(403/);
    fake.calls.length = 0;
    const second = await refreshFundamentals({ tickers: universe, source: provider(1000), file, today: TODAY, log: (line) => logs.push(line) });
    expect(second).toMatchObject({ complete: true, ratios: 0, earnings: universe.length - 1 });
    expect(fake.calls.filter((path) => path.startsWith('/stocks/')).length).toBe(0);
    expect(fake.calls.filter((path) => path.startsWith('/benzinga/')).length).toBeGreaterThan(0);
  });
});
