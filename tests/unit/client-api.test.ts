import { afterEach, describe, expect, it, vi } from 'vitest';
import { FETCH_ERRORS, fetchArchiveFiles, fetchNews, fetchQuote, fetchStock, fetchStockWithFallback, saveCompanyName } from '../../src/lib/client/api';
import { ApiError, FetchFailure, request, shouldRetry } from '../../src/lib/client/http';
import { retryDelay } from '../../src/lib/client/query';

type Answer = { status: number; body?: string; statusText?: string };

function mockFetch(answers: Record<string, Answer>) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const answer = answers[url] ?? { status: 404, body: '{"error":"nope"}', statusText: 'Not Found' };
    return new Response(answer.body ?? null, { status: answer.status, statusText: answer.statusText ?? '' });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request (spec section 7 and 8)', () => {
  it('sends credentials, and a JSON body with its content type only when there is a payload', async () => {
    const calls = mockFetch({ '/api/x': { status: 200, body: '{}' }, '/api/save-company-name': { status: 200, body: '{}' } });
    await request('/api/x');
    await saveCompanyName('nvda', 'NVIDIA');
    expect(calls[0]!.init).toMatchObject({ method: 'GET', credentials: 'include', body: undefined, headers: undefined });
    expect(calls[1]!.init).toMatchObject({ method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ ticker: 'NVDA', companyName: 'NVIDIA' });
  });

  it('fails with "{status}: {text or status text}"', async () => {
    mockFetch({ '/api/a': { status: 500, body: 'boom' }, '/api/b': { status: 503, statusText: 'Service Unavailable' } });
    await expect(request('/api/a')).rejects.toThrow('500: boom');
    await expect(request('/api/b')).rejects.toThrow('503: Service Unavailable');
  });
});

describe('the typed calls', () => {
  it('throws the catalogue message, keeping the status for the retry rule', async () => {
    mockFetch({ '/api/stock-price/AAPL': { status: 503, body: '{"error":"later"}' } });
    const error = await fetchQuote(' aapl ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailure);
    expect((error as FetchFailure).message).toBe(FETCH_ERRORS.price);
    expect((error as FetchFailure).detail).toBe('503: {"error":"later"}');
    expect(shouldRetry(error, 0)).toBe(true);
  });

  it('adds fetchedAt to a quote that lacks it', async () => {
    mockFetch({ '/api/stock-price/AAPL': { status: 200, body: '{"symbol":"AAPL","regularMarketPrice":1}' } });
    expect((await fetchQuote('AAPL')).fetchedAt).toMatch(/^\d{4}-/);
  });

  it("says 'Error fetching stock data for {ticker}' and falls back to the all-signals list", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/api/all-signals': { status: 200, body: '{"data":[{"ticker":"BRK.B","cScore":5}]}' } });
    await expect(fetchStock('brk.b')).rejects.toThrow('Error fetching stock data for BRK.B: {"error":"nope"}');
    expect(await fetchStockWithFallback('brk.b')).toMatchObject({ ticker: 'BRK.B' });
  });

  it('answers an empty list for news on failure, and falls back from excel-files to csv-files', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/api/csv-files': { status: 200, body: '[{"id":"a"}]' } });
    expect(await fetchNews('AAPL')).toEqual([]);
    expect(await fetchArchiveFiles()).toEqual([{ id: 'a' }]);
    mockFetch({});
    await expect(fetchArchiveFiles()).rejects.toThrow(FETCH_ERRORS.files);
  });
});

describe('retryDelay (spec section 9: no retry for a 4xx other than 401, up to 2 otherwise)', () => {
  it.each([
    [new ApiError(404, '404: x'), 1, false],
    [new ApiError(400, '400: x'), 1, false],
    [new ApiError(401, '401: x'), 1, 1000],
    [new ApiError(500, '500: x'), 1, 1000],
    [new ApiError(500, '500: x'), 2, 2000],
    [new ApiError(500, '500: x'), 3, false],
    [new TypeError('network'), 1, 1000],
  ])('%s on failure %i -> %s', (error, retryCount, expected) => {
    expect(retryDelay({ error, retryCount })).toBe(expected);
  });
});
