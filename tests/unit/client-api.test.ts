/**
 * The browser's data layer (src/lib/client) as the islands and page scripts run it: its stores fetch from a real HTTP
 * server on loopback (the browser's relative paths resolved against it), with the windows and retries of spec
 * section 9 and the messages of section 8.
 */
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetcherStore } from '@nanostores/query';
import { allTasks, cleanStores } from 'nanostores';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { priceCardHtml } from '../../src/scripts/detail/price-card';
import { FETCH_ERRORS } from '../../src/lib/client/api';
import { z } from 'zod';
import { ApiError, FetchFailure, isRetryable } from '../../src/lib/client/http';
import { staticJson } from '../../src/lib/client/static-files';
import { trendView } from '../../src/islands/trend/chart-input';
import { earningsStore, idleStore, isLoading, newsStore, quoteStore, stockRecordStore, trendStore } from '../../src/lib/client/query';

type Answer = { status: number; body?: unknown; statusText?: string };

/** What the server answers, by path and query; a path it does not know is a 404. */
const answers = new Map<string, Answer | ((count: number) => Answer)>();
/** Every request the server received, in order. */
const received: string[] = [];
const waiting: (() => void)[] = [];
let server: Server;
let origin = '';
const fetchInits: RequestInit[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    received.push(path);
    const count = received.filter((p) => p === path).length;
    const found = answers.get(path);
    const answer = typeof found === 'function' ? found(count) : (found ?? { status: 404, body: { error: 'nope' }, statusText: 'Not Found' });
    res.writeHead(answer.status, answer.statusText ?? '', { 'Content-Type': 'application/json' });
    res.end(answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    waiting.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * The browser's fetch for this test: a path resolved against the loopback server's origin, as a page resolves it
 * against its own. Made with node:http, whose timers stay real when a test fakes setTimeout (Node's own fetch times
 * its connections with the global setTimeout).
 */
function loopbackFetch(input: string, init: RequestInit): Promise<Response> {
  fetchInits.push(init);
  return new Promise((resolve, reject) => {
    get(new URL(input, origin), (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, statusText: res.statusMessage })));
    }).on('error', reject);
  });
}

const used: FetcherStore[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', loopbackFetch);
  // In the browser bundle import.meta.env.SSR is false; vitest runs as Astro's build does (true) unless told.
  vi.stubEnv('SSR', false);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanStores(...used.splice(0));
  answers.clear();
  received.length = 0;
  fetchInits.length = 0;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Subscribes to a store as a page script does, and keeps what it reads. */
function read<T>(store: FetcherStore<T>) {
  used.push(store);
  const values: { data?: T; error?: unknown; loading: boolean }[] = [];
  const stop = store.subscribe((value) => values.push(value));
  return { values, stop, last: () => values[values.length - 1]! };
}

/** Resolves once the server has received `count` requests in all. */
function requests(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (received.length >= count ? resolve() : waiting.push(check));
    check();
  });
}

/** Lets pending I/O and promise callbacks run, without moving faked clocks. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits (in real time) until the store has a retry timer pending. */
async function retryPending(): Promise<void> {
  while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
}

/** A signal record as the build writes it (SignalRecordSchema's every field). */
function signal(ticker: string, cScore: number) {
  return {
    ticker,
    companyName: `${ticker} Inc.`,
    cScore,
    yesterdayCScore: 0,
    reportDate: '2026-11-20',
    isTopTicker: false,
    deltaScore: 0,
    accuracyScore: 0.5,
    marketScore: 0,
    relevanceScore: 0.5,
    avgCScoreL7D: 0,
    avgCScoreL14D: 0,
    countL7DWithSignal: 0,
    countL14DWithSignal: 0,
  };
}

describe('staticJson (spec sections 7 and 8)', () => {
  const Ok = z.object({ ok: z.boolean() });

  it('sends credentials and answers the JSON body as the schema reads it', async () => {
    answers.set('/api/x', { status: 200, body: { ok: true, extra: 1 } });
    expect(await staticJson('/api/x', Ok)).toEqual({ ok: true });
    expect(fetchInits[0]).toMatchObject({ credentials: 'include' });
  });

  it('fails with "{status}: {text}", or the status text when the body is empty', async () => {
    answers.set('/api/a', { status: 500, body: 'boom' });
    answers.set('/api/b', { status: 503, statusText: 'Service Unavailable' });
    await expect(staticJson('/api/a', Ok)).rejects.toThrow(new ApiError(500, '500: boom'));
    await expect(staticJson('/api/b', Ok)).rejects.toThrow('503: Service Unavailable');
  });

  it('refuses a body of another shape, naming the file and the field', async () => {
    answers.set('/api/c', { status: 200, body: { ok: 'yes' } });
    await expect(staticJson('/api/c', Ok)).rejects.toThrow(/^\/api\/c has a problem: ok: /);
  });
});

describe('isRetryable (spec section 9: no retry for a 4xx other than 401)', () => {
  it.each([
    ['404', new ApiError(404, '404: x'), false],
    ['400', new ApiError(400, '400: x'), false],
    ['a catalogue failure of a 403', new FetchFailure(FETCH_ERRORS.price, 403, null), false],
    ['401', new ApiError(401, '401: x'), true],
    ['500', new ApiError(500, '500: x'), true],
    ['no answer at all', new TypeError('fetch failed'), true],
  ])('%s -> %s', (_name, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe('retries (spec section 9: up to 2, a flat second apart; the modal trend once)', () => {
  it('a failing quote is fetched three times, 1 s apart, and only then shows its catalogue failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    answers.set('/api/stock-price/RTRY', { status: 503, body: '{"error":"later"}' });
    const quote = read(quoteStore('RTRY'));
    for (const attempt of [1, 2]) {
      await requests(attempt);
      await retryPending();
      vi.advanceTimersByTime(999);
      await settle();
      expect(received).toHaveLength(attempt);
      // Between tries the store still reads as loading, never as failed.
      expect(quote.last()).toMatchObject({ loading: true });
      expect(quote.last().error).toBeUndefined();
      vi.advanceTimersByTime(1);
      // A flat second: the retry left at 1000 ms, not later.
      expect(vi.getTimerCount()).toBe(0);
    }
    await requests(3);
    await allTasks();
    expect(received).toEqual(['/api/stock-price/RTRY', '/api/stock-price/RTRY', '/api/stock-price/RTRY']);
    const error = quote.last().error as FetchFailure;
    expect(error).toBeInstanceOf(FetchFailure);
    expect([error.message, error.status, (error.cause as Error).message]).toEqual([FETCH_ERRORS.price, 503, '503: {"error":"later"}']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a 401 is retried; a 404 is not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    answers.set('/api/earnings-date/AUTH', (count) => (count === 1 ? { status: 401, body: 'sign in' } : { status: 200, body: { earningsAvailable: false } }));
    const earnings = read(earningsStore('auth'));
    await requests(1);
    await retryPending();
    vi.advanceTimersByTime(1000);
    await requests(2);
    await allTasks();
    expect(earnings.last()).toMatchObject({ data: { earningsAvailable: false }, loading: false });

    const trend = read(trendStore('NOPE'));
    await allTasks();
    expect(received.filter((path) => path === '/api/c-score-trend/NOPE')).toHaveLength(1);
    expect((trend.last().error as Error).message).toBe(FETCH_ERRORS.trend);
  });

  it("the modal's trend is retried once", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    answers.set('/api/c-score-trend/MDL', { status: 500, body: 'boom' });
    const trend = read(trendStore('MDL', { modal: true }));
    await requests(1);
    await retryPending();
    vi.advanceTimersByTime(1000);
    await requests(2);
    await allTasks();
    expect(received).toHaveLength(2);
    expect((trend.last().error as Error).message).toBe(FETCH_ERRORS.trend);
  });
});

describe('windows (spec section 9)', () => {
  it('one store per ticker: the header and a card share one request', async () => {
    answers.set('/api/stock-price/SHR', { status: 200, body: { symbol: 'SHR', regularMarketPrice: 1, fetchedAt: '2026-11-20T15:00:00Z' } });
    expect(quoteStore(' shr ')).toBe(quoteStore('SHR'));
    const header = read(quoteStore('SHR'));
    const card = read(quoteStore('SHR'));
    await allTasks();
    expect(received).toEqual(['/api/stock-price/SHR']);
    expect(header.last().data).toBe(card.last().data);
  });

  it('a quote is read from the cache for 60 s, then fetched again; the stock record is fetched for every new reader', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    answers.set('/api/stock-price/WIN', { status: 200, body: { symbol: 'WIN', regularMarketPrice: 2 } });
    answers.set('/api/stock/WIN', { status: 200, body: signal('WIN', 70) });
    const again = async (store: FetcherStore) => {
      read(store).stop();
      await allTasks();
    };
    await again(quoteStore('WIN'));
    vi.advanceTimersByTime(59_000);
    await again(quoteStore('WIN'));
    expect(received).toEqual(['/api/stock-price/WIN']);
    vi.advanceTimersByTime(2_000);
    await again(quoteStore('WIN'));
    expect(received).toEqual(['/api/stock-price/WIN', '/api/stock-price/WIN']);

    await again(stockRecordStore('WIN'));
    await again(stockRecordStore('WIN'));
    expect(received.filter((path) => path === '/api/stock/WIN')).toHaveLength(2);
  });

  it('a quote without fetchedAt gets the time it was fetched', async () => {
    answers.set('/api/stock-price/NOW', { status: 200, body: { symbol: 'NOW', regularMarketPrice: 3 } });
    const quote = read(quoteStore('NOW'));
    await allTasks();
    expect(quote.last().data?.fetchedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('the stock record (spec section 4: the direct fetch, else the all-signals list)', () => {
  const record = signal('BRK.B', 5);

  it('is the direct answer when there is one, with no list fetched', async () => {
    answers.set('/api/stock/BRK.B', { status: 200, body: record });
    const stock = read(stockRecordStore('brk.b'));
    await allTasks();
    expect(stock.last().data).toEqual(record);
    expect(received).toEqual(['/api/stock/BRK.B']);
  });

  it("says 'Error fetching stock data for {ticker}' and finds the record in the list, case-insensitively", async () => {
    answers.set('/api/all-signals', { status: 200, body: { data: [record, signal('AAPL', 1)] } });
    const stock = read(stockRecordStore('brk.b'));
    await allTasks();
    expect(stock.last().data).toMatchObject({ ticker: 'BRK.B', cScore: 5 });
    expect(received).toEqual(['/api/stock/BRK.B', '/api/all-signals']);
    expect(console.warn).toHaveBeenCalledWith('Error fetching stock data for BRK.B: 404: {"error":"nope"}');
  });

  it('of a locked top ticker (PAYWALL=on) comes from /api/pro for a Pro session, else the list', async () => {
    const locked = { ticker: 'TOP', companyName: 'Top Co', reportDate: '2026-11-20', isTopTicker: true, locked: true };
    answers.set('/api/stock/TOP', { status: 200, body: locked });
    answers.set('/api/pro/stock/TOP', { status: 200, body: { ticker: 'TOP', cScore: 91 } });
    const pro = read(stockRecordStore('TOP'));
    await allTasks();
    expect(pro.last().data).toEqual({ ticker: 'TOP', cScore: 91 });
    expect(received).toEqual(['/api/stock/TOP', '/api/pro/stock/TOP']);

    answers.set('/api/stock/LOCK', { status: 200, body: { ...locked, ticker: 'LOCK' } });
    answers.set('/api/pro/stock/LOCK', { status: 403, body: { error: 'This needs a Pro plan.' } });
    answers.set('/api/all-signals', { status: 200, body: [signal('AAPL', 1)] });
    const free = read(stockRecordStore('LOCK'));
    await allTasks();
    expect(free.last()).toMatchObject({ data: null, loading: false });
    expect(received.slice(2)).toEqual(['/api/stock/LOCK', '/api/pro/stock/LOCK', '/api/all-signals']);
  });

  it('is null when neither has it, and a failure when the list cannot be fetched', async () => {
    answers.set('/api/all-signals', { status: 200, body: [signal('AAPL', 1)] });
    const missing = read(stockRecordStore('ZZZZ'));
    await allTasks();
    expect(missing.last()).toMatchObject({ data: null, loading: false });

    answers.set('/api/all-signals', { status: 400, body: 'bad' });
    const failed = read(stockRecordStore('YYYY'));
    await allTasks();
    expect((failed.last().error as Error).message).toBe(FETCH_ERRORS.signals);
  });
});

describe('the trend (the static file, a locked one from /api/pro)', () => {
  const trend = { ticker: 'TRD', reportDate: '2026-11-20', trend: [{ date: '2026-11-20', cScore: 70, isCurrentDay: true }, { date: '2026-11-19', cScore: '68.5' }] };

  it('is the static file; a locked one comes from /api/pro', async () => {
    answers.set('/api/c-score-trend/TRD', { status: 200, body: trend });
    answers.set('/api/c-score-trend/TOP', { status: 200, body: { ticker: 'TOP', companyName: 'Top Co', reportDate: '2026-11-20', isTopTicker: true, locked: true } });
    answers.set('/api/pro/c-score-trend/TOP', { status: 200, body: { ...trend, ticker: 'TOP' } });
    const free = read(trendStore('trd'));
    const pro = read(trendStore('TOP'));
    await allTasks();
    expect(free.last().data).toEqual(trend);
    expect(pro.last().data).toEqual({ ...trend, ticker: 'TOP' });
    expect(received.sort()).toEqual(['/api/c-score-trend/TOP', '/api/c-score-trend/TRD', '/api/pro/c-score-trend/TOP']);
  });

  it('a file of another shape is handed over as it is: the chart reads it as the spec\'s empty state, with the reason', async () => {
    const body = { ticker: 'ODD', reportDate: '2026-11-20', trend: 'none' };
    answers.set('/api/c-score-trend/ODD', { status: 200, body });
    const odd = read(trendStore('ODD', { modal: true }));
    await allTasks();
    expect(odd.last().data).toEqual(body);
    expect(trendView('ODD', odd.last().data)).toEqual({ state: 'empty', message: 'No historical C-Score data available for ODD' });
  });
});

describe('news (spec section 8: a failure is logged and answers an empty list)', () => {
  it('answers the results, or an empty list at once when the call fails', async () => {
    answers.set('/api/polygon/news/NWS?limit=5', { status: 200, body: { results: [{ id: 'a', title: 'A' }] } });
    const news = read(newsStore('NWS'));
    const down = read(newsStore('DOWN'));
    await allTasks();
    expect(news.last().data).toEqual([{ id: 'a', title: 'A' }]);
    expect(down.last()).toMatchObject({ data: [], loading: false });
    expect(received.filter((path) => path.startsWith('/api/polygon/news/DOWN'))).toHaveLength(1);
  });
});

describe('loading and pre-rendering', () => {
  it('a store is loading until its first answer or failure', async () => {
    answers.set('/api/earnings-date/LDG', { status: 200, body: { earningsAvailable: false } });
    const earnings = read(earningsStore('LDG'));
    expect(isLoading(earnings.values[0]!)).toBe(true);
    await allTasks();
    expect(isLoading(earnings.last())).toBe(false);
    expect(isLoading({ error: new Error('x') })).toBe(false);
  });

  it("while Astro pre-renders a page, every store is the idle one: an island shows its loading state and nothing is fetched", async () => {
    vi.stubEnv('SSR', true);
    expect(quoteStore('AAPL')).toBe(idleStore());
    // What the page's price card is built with: its loading state, which the live quote replaces in the browser.
    expect(priceCardHtml('AAPL')).toContain('Loading price data...');
    const idle = read(idleStore());
    await allTasks();
    await settle();
    expect(idle.last()).toEqual({ loading: false });
    expect(received).toEqual([]);
  });
});
