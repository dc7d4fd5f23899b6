/**
 * The watchlist store following a signed-in account against a real HTTP server on loopback: a star
 * pressed while the first merge or a later read is on its way is kept and saved, never overwritten by the answer.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';

let server: Server;
let origin = '';
/** The account's list as the server stores it. */
let stored: string[] = [];
/** Requests in order, as "METHOD path body". */
const received: string[] = [];
/** While set, the server holds its answers until the test lets them go. */
let hold: Promise<void> | null = null;
let release: () => void = () => undefined;

/** Holds the server's answers until `release()`. */
function holdAnswers(): void {
  hold = new Promise((resolve) => (release = resolve));
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    received.push(`${req.method} ${req.url} ${body}`);
    const tickers = body ? (JSON.parse(body) as { tickers: string[] }).tickers : [];
    if (req.method === 'POST') stored = [...stored, ...tickers.filter((t) => !stored.includes(t))];
    if (req.method === 'PUT') stored = tickers;
    const answer = JSON.stringify({ tickers: stored });
    if (hold) await hold;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeAll(() => useTestStorageEngine());

beforeEach(() => {
  // A fresh store module on an empty localStorage: each test is a new browser.
  cleanTestStorage();
  vi.resetModules();
  stored = [];
  received.length = 0;
  hold = null;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => realFetch(new URL(input, origin), init));
});

afterEach(() => {
  release();
  vi.unstubAllGlobals();
});

async function freshStore() {
  return import('../../src/stores/watchlist');
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it("on an account's first sign-in the local list is merged with the stored one", async () => {
  const { $watchedSet, followAccount, toggleWatch } = await freshStore();
  stored = ['MSFT'];
  toggleWatch('AAPL');
  await followAccount('reader@example.com');
  expect([...$watchedSet.get()].sort()).toEqual(['AAPL', 'MSFT']);
  expect(received[0]).toBe('POST /api/watchlist/merge {"tickers":["AAPL"]}');
});

it('a star pressed while the first merge is on its way is kept and saved to the account', async () => {
  const { $watchedSet, followAccount, toggleWatch } = await freshStore();
  stored = ['MSFT'];
  holdAnswers();
  const following = followAccount('reader@example.com');
  await settle();
  expect(toggleWatch('AAPL')).toBe('added');
  release();
  await following;
  await settle();
  expect([...$watchedSet.get()].sort()).toEqual(['AAPL', 'MSFT']);
  expect(stored.sort()).toEqual(['AAPL', 'MSFT']);
  expect(received.at(-1)).toMatch(/^PUT \/api\/watchlist /);
});

it('a star taken off while the first merge is on its way stays off', async () => {
  const { $watchedSet, followAccount, toggleWatch } = await freshStore();
  toggleWatch('NVDA');
  holdAnswers();
  const following = followAccount('reader@example.com');
  await settle();
  expect(toggleWatch('NVDA')).toBe('removed');
  release();
  await following;
  await settle();
  expect([...$watchedSet.get()]).toEqual([]);
  expect(stored).toEqual([]);
});

it('after the first sign-in the stored list replaces the local one, unless a star was pressed meanwhile', async () => {
  const { $watchedSet, followAccount, toggleWatch } = await freshStore();
  await followAccount('reader@example.com');
  stored = ['TSLA'];
  await followAccount('reader@example.com');
  expect([...$watchedSet.get()]).toEqual(['TSLA']);

  holdAnswers();
  const following = followAccount('reader@example.com');
  await settle();
  toggleWatch('AMZN');
  release();
  await following;
  await settle();
  expect([...$watchedSet.get()]).toEqual(['TSLA', 'AMZN']);
  expect(stored).toEqual(['TSLA', 'AMZN']);
});
