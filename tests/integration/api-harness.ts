/**
 * Shared by the api-*.test.ts files: a small built site, the real Hono app served on loopback, and a fake
 * Polygon server (node:http on port 0) answering with the reference shapes or with a failure mode.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import writeExcelFile from 'write-excel-file/node';
import { runDaily } from '../../src/ingest/daily';
import { readUniverse } from '../../src/ingest/universe';
import { createApi } from '../../src/server/api';
import { createApp } from '../../src/server/app';
import type { MarketDataProvider } from '../../src/server/providers/provider';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures/polygon');

const HEADER =
  'Ticker,Company Name,Report Date,C-Score,Yesterday C-Score,Delta Score,Accuracy Score,Market Score,Relevance Score,Avg. C-Score L7D,Avg. C-Score L14D,Count L7D with Signal,Count L14D with Signal,Top Ticker?';

/** The tickers of the small report: AAPL, MSFT, BRK.B, NVDA, JPM. */
export const TICKERS = ['AAPL', 'MSFT', 'BRK.B', 'NVDA', 'JPM'] as const;

function day(date: string, scores: number[], firstName = 'Apple Inc.'): string {
  const names = [firstName, 'Microsoft', '"Berkshire Hathaway, Inc."', 'Nvidia', 'JPMorgan Chase'];
  return [
    HEADER,
    ...TICKERS.map((ticker, i) => `${ticker},${names[i]},${date},${scores[i]},0,1,50,2,40,${scores[i]},${scores[i]},1,2,FALSE`),
  ].join('\n');
}

/** A built site: its folders, and the ids of its archived files. */
export interface BuiltSite {
  work: string;
  distDir: string;
  archiveDir: string;
  companyInfoFile: string;
  universeFile: string;
}

/** Builds a three-day site (two CSV files, one two-sheet XLSX with a formula-like cell) into a temp folder. */
export async function buildSite(): Promise<BuiltSite> {
  const work = await mkdtemp(join(tmpdir(), 'api-'));
  const source = join(work, 'source');
  await mkdir(source);
  await writeFile(join(source, 'signals-2026-11-18.csv'), day('2026-11-18', [70, -40, 10, 80, -70]));
  await writeFile(join(source, 'signals-2026-11-19.csv'), day('2026-11-19', [72, -66, 5, 60, -20], '=HYPERLINK("http://evil")'));
  const header = HEADER.split(',');
  const row = (ticker: string, name: string, score: number) => [
    ticker, name, { value: new Date(Date.UTC(2026, 10, 20)), format: 'yyyy-mm-dd' }, score, 1, 2, 3, 4, 5, 6, 7, 0, 0, false,
  ];
  const workbook = await writeExcelFile([
    { sheet: 'Summary', data: [['Note', 'Count'], ['@SUM(1+1)', 5], ['-2+3', -4.5]] },
    {
      sheet: 'Signals',
      data: [
        header,
        row('AAPL', 'Apple Inc.', 80),
        row('MSFT', 'Microsoft', -90),
        row('BRK.B', 'Berkshire Hathaway, Inc.', 0),
        row('NVDA', 'Nvidia', 66),
        row('JPM', 'JPMorgan Chase', -10),
      ],
    },
  ]).toBuffer();
  await writeFile(join(source, 'signals-2026-11-20.xlsx'), workbook);
  const site: BuiltSite = {
    work,
    distDir: join(work, 'dist'),
    archiveDir: join(work, 'archive'),
    companyInfoFile: join(work, 'companies.json'),
    universeFile: join(ROOT, 'data/universe/sp500-constituents.csv'),
  };
  await runDaily({
    source,
    archiveDir: site.archiveDir,
    distDir: site.distDir,
    universeFile: site.universeFile,
    companyInfoFile: site.companyInfoFile,
    force: true,
  });
  return site;
}

/** The universe companies, for the demo provider. */
export function universeOf(site: BuiltSite) {
  return readUniverse(site.universeFile);
}

/** A running app: its origin, and every response seen through `get`/`send`, for the key-leak checks. */
export interface RunningApi {
  origin: string;
  seen: string[];
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Serves the real app (static build + live API) on 127.0.0.1, port 0. */
export async function startApi(site: BuiltSite, provider: MarketDataProvider, now?: () => number): Promise<RunningApi> {
  const api = createApi({
    distDir: site.distDir,
    archiveDir: site.archiveDir,
    companyInfoFile: site.companyInfoFile,
    provider,
    siteUrl: 'https://signals.example',
    now,
  });
  const app = createApp({ distDir: site.distDir, api });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const seen: string[] = [];
  return {
    origin,
    seen,
    async get(path, init) {
      const response = await fetch(`${origin}${path}`, { redirect: 'manual', ...init });
      const body = await response.clone().text();
      seen.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}`);
      return response;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** How the fake Polygon server answers. */
export type FakeMode = 'ok' | 401 | 403 | 429 | 500 | 'hang' | 'malformed';

/** The fake Polygon server and what it saw. */
export interface FakePolygon {
  origin: string;
  mode: FakeMode;
  /** Extra wait before every answer, to hold requests in flight. */
  delayMs: number;
  /** Paths answered 403 (not in the plan) while the mode is 'ok'. */
  forbid: RegExp | null;
  /** Full request URLs, query included. */
  urls: string[];
  /** Paths asked for, without the query. */
  calls: string[];
  /** Authorization headers seen. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const fixture = async (name: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(FIXTURES, `${name}.json`), 'utf8'));

/** Starts the fake Polygon server; `key` is the only Bearer token it accepts. */
export async function startFakePolygon(key: string): Promise<FakePolygon> {
  const [details, news, aggs, prev, snapshot] = (await Promise.all(['ticker-details', 'news', 'aggs', 'prev', 'snapshot'].map(fixture))) as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];
  const hanging: ServerResponse[] = [];
  const fake: FakePolygon = {
    origin: '',
    mode: 'ok',
    delayMs: 0,
    forbid: null,
    urls: [],
    calls: [],
    authorizations: [],
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.calls.push(url.pathname);
    fake.urls.push(request.url ?? '');
    fake.authorizations.push(request.headers.authorization);
    if (request.headers.authorization !== `Bearer ${key}`) return json(response, 401, { status: 'ERROR', request_id: 'x', error: 'Unknown API Key' });
    switch (fake.mode) {
      case 401:
        return json(response, 401, { status: 'ERROR', request_id: 'x', error: 'Unknown API Key' });
      case 403:
        return json(response, 403, { status: 'NOT_AUTHORIZED', request_id: 'x', message: "You are not entitled to this data. Please upgrade your plan." });
      case 429:
        return json(response, 429, { status: 'ERROR', request_id: 'x', error: "You've exceeded the maximum requests per minute." });
      case 500:
        response.writeHead(500, { 'Content-Type': 'text/html' });
        return response.end('<html><head><title>500</title></head><body><h1>Internal Server Error</h1></body></html>');
      case 'hang':
        hanging.push(response);
        return;
      case 'malformed':
        response.writeHead(200, { 'Content-Type': 'application/json' });
        return response.end('{"status":"OK","results": [');
    }
    const path = url.pathname;
    if (fake.forbid?.test(path)) return json(response, 403, { status: 'NOT_AUTHORIZED', request_id: 'x', message: 'Not in your plan.' });
    let match: RegExpExecArray | null;
    if ((match = /^\/v3\/reference\/tickers\/([^/]+)$/.exec(path))) {
      const ticker = decodeURIComponent(match[1]!);
      if (ticker === 'JPM') return json(response, 404, { status: 'NOT_FOUND', request_id: 'x', message: 'Ticker not found.' });
      const branding = { logo_url: `${fake.origin}/v1/reference/company-branding/${ticker}/logo.svg`, icon_url: 'https://example.com/icon.png' };
      const results = { ...(details.results as Record<string, unknown>), ticker, branding };
      return json(response, 200, { ...details, results });
    }
    if (path === '/v2/reference/news') return json(response, 200, news);
    if (/^\/v2\/aggs\/ticker\/[^/]+\/range\/1\/day\/[^/]+\/[^/]+$/.test(path)) return json(response, 200, aggs);
    if (/^\/v2\/aggs\/ticker\/[^/]+\/prev$/.test(path)) return json(response, 200, prev);
    if (/^\/v2\/snapshot\/locale\/us\/markets\/stocks\/tickers\/[^/]+$/.test(path)) return json(response, 200, snapshot);
    if (/^\/v1\/reference\/company-branding\/[^/]+\/logo\.svg$/.test(path)) {
      response.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      return response.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    }
    return json(response, 404, { status: 'NOT_FOUND', request_id: 'x', message: 'Route not found.' });
  };
  const server: Server = createServer((request, response) => {
    if (fake.delayMs > 0) setTimeout(() => answer(request, response), fake.delayMs);
    else answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
