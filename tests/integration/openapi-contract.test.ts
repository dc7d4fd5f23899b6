/**
 * The open API's contract: /api/openapi.json from a real server over a build of the real daily job lists every
 * documented path, and every one answers as documented: its example answers 200 with the documented media type, and a
 * JSON answer passes the document's own schema (ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily } from '../../src/ingest/daily';
import { DemoProvider } from '../../src/server/providers/demo';
import { TrackStore } from '../../src/storage/track';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const DATES = ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
const SCORES: Record<string, number[]> = { AAPL: [50, 70, 72, 40], MSFT: [-60, -70, -66, -20], XOM: [10, 12, 14, 16] };
const NAMES: Record<string, string> = { AAPL: 'Apple Inc.', MSFT: 'Microsoft', XOM: 'Exxon Mobil' };
const NOW = Date.parse('2026-11-24T15:00:00Z');

interface Operation {
  parameters: { name: string; in: 'path' | 'query'; example?: string }[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  security: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, { get: Operation }>;
}

let work: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;
let server: ServerType;
let origin: string;
let document: Document;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'openapi-'));
  await writeExports(
    join(work, 'source'),
    Object.fromEntries(DATES.map((date, i) => [`signals-${date}.csv`, exportCsv(Object.keys(SCORES).map((t) => exportRow(t, NAMES[t]!, date, SCORES[t]![i]!)))])),
  );
  accounts = await testAccounts();
  // With the track step (demo closes), so the track record has its benchmark, portfolio and measured outcomes.
  const universe = await readUniverse(join(import.meta.dirname, '../../data/universe/sp500-constituents.csv'));
  const daily = dailyIn(work, { track: { store: new TrackStore(accounts.database.db), source: new DemoProvider({ universe, now: () => NOW }) } });
  await runDaily(daily);
  ({ server, origin } = await serveDaily(daily, accounts));
  const answer = await fetch(`${origin}/api/openapi.json`);
  expect(answer.status).toBe(200);
  document = (await answer.json()) as Document;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await accounts?.dispose();
  await rm(work, { recursive: true, force: true });
});

describe('/api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every public GET route of spec section 7, the track record, the feeds and the dated files', () => {
    expect(document.openapi).toBe('3.1.0');
    const paths = Object.keys(document.paths);
    for (const path of [
      '/api/all-signals',
      '/api/stock/{ticker}',
      '/api/stock-complete-data/{ticker}',
      '/api/market-sentiment/{ticker}',
      '/api/ticker-metrics/{ticker}',
      '/api/company-name/{ticker}',
      '/api/company-names',
      '/api/company-info/{ticker}',
      '/api/company-description/{ticker}',
      '/api/company-descriptions',
      '/api/stock-price/{ticker}',
      '/api/earnings-date/{ticker}',
      '/api/similar-tickers/{ticker}',
      '/api/c-score-trend/{ticker}',
      '/api/polygon/company-info/{ticker}',
      '/api/polygon/ticker-details/{ticker}',
      '/api/polygon/price/{ticker}',
      '/api/polygon/aggs/{ticker}',
      '/api/polygon/news/{ticker}',
      '/api/excel-files',
      '/api/csv-files',
      '/api/download-excel/{id}',
      '/api/download-csv/{id}',
      '/api/auth/user',
      '/api/track-record',
      '/api/track-record/{ticker}',
      '/feeds/signals.json',
      '/feeds/signals.xml',
      '/feeds/signal/{ticker}.json',
      '/feeds/signal/{ticker}.xml',
      '/api/reports/index.json',
      '/api/reports/{date}.json',
    ]) {
      expect(paths, path).toContain(path);
    }
    // The keyed live routes say so, with the RateLimit fields on their 200 and a 429.
    const quote = document.paths['/api/stock-price/{ticker}']!.get;
    expect(quote.security).toEqual([{}, { apiKey: [] }]);
    expect(Object.keys(quote.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
    expect(document.paths['/api/stock/{ticker}']!.get.security).toEqual([]);
  });

  it('every documented path answers as documented: status 200, media type, and the schema of a JSON answer', async () => {
    const ajv = new Ajv2020({ allErrors: true, validateFormats: false, allowUnionTypes: true });
    const checked: string[] = [];
    for (const [template, { get }] of Object.entries(document.paths)) {
      const example = Object.fromEntries(get.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.example]));
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        expect(example[name], `${template}: an example for {${name}}`).toBeTruthy();
        return encodeURIComponent(example[name]!);
      });
      const answer = await fetch(`${origin}${path}`, { redirect: 'manual' });
      const documented = get.responses['200']!.content!;
      const [mediaType, { schema }] = Object.entries(documented)[0]!;
      // The logo is the one route whose example may have nothing to show: the demo provider has no logos.
      if (template === '/api/polygon/logo/{ticker}' && answer.status === 404) {
        await answer.body?.cancel();
        continue;
      }
      expect(answer.status, `${path}: ${answer.status}`).toBe(200);
      const type = answer.headers.get('content-type') ?? '';
      if (mediaType === 'application/json') {
        expect(type, path).toMatch(/^application\/(feed\+)?json/);
        const body: unknown = await answer.json();
        const validate = ajv.compile(schema);
        expect(validate(body) ? [] : validate.errors!.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`), path).toEqual([]);
      } else {
        const expected = mediaType.replace('/*', '/');
        if (!expected.startsWith('application/octet-stream')) expect(type.startsWith(expected), `${path}: ${type} is not ${mediaType}`).toBe(true);
        expect((await answer.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
      }
      checked.push(template);
    }
    expect(checked.length).toBeGreaterThanOrEqual(30);
    // The track record was measured (demo closes): its benchmark, portfolio and outcomes passed their schemas too.
    const track = (await (await fetch(`${origin}/api/track-record`)).json()) as { benchmark: unknown; portfolio: unknown };
    expect(track.benchmark).not.toBeNull();
    expect(track.portfolio).not.toBeNull();
  });

  it('a schema fails an answer of another shape (the check is not vacuous)', async () => {
    const ajv = new Ajv2020({ allErrors: true, validateFormats: false, allowUnionTypes: true });
    const validate = ajv.compile(document.paths['/api/ticker-metrics/{ticker}']!.get.responses['200']!.content!['application/json']!.schema);
    const metrics = (await (await fetch(`${origin}/api/ticker-metrics/AAPL`)).json()) as Record<string, unknown>;
    expect(validate(metrics)).toBe(true);
    expect(validate({ ...metrics, deltaScore: 'high' })).toBe(false);
    const { countL7D: _, ...missing } = metrics;
    expect(validate(missing)).toBe(false);
  });
});
