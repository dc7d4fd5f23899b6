/**
 * The static API tells the daily job of each file as soon as it is whole, with its bytes, so the job
 * compresses it while `astro build` still renders (not after, and without reading it back). The track record's
 * routes come first, on their own: the job lets the ledger go once they are written.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticApi, writeTrackApi } from '../../src/ingest/static-api';
import { LEDGER_CSV_PATH, PER_TICKER_ROUTES, REPORT_ROUTES } from '../../src/lib/domain/site/routes';
import type { SiteData } from '../../src/lib/domain/report/schemas';
import { EMPTY_TRACK, ledgerCsv, publishedTrack } from '../../src/lib/domain/track-record/track-data';
import { historyLedger } from '../../src/lib/domain/track-record/track-record';
import { publishSampleReport } from '../fixtures/published-report';

let root: string;
let site: SiteData;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'static-api-'));
  const published = await publishSampleReport(join(root, 'report'), 30);
  site = { ...published, track: { ...EMPTY_TRACK, entries: historyLedger(published.history) } };
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

describe('the static API as the daily job writes it', () => {
  it('reports every file it writes once, with the bytes on disk (the ledger CSV, written in chunks, without them)', async () => {
    const client = join(root, 'client');
    const told = new Map<string, Buffer | null>();
    const onWritten = (path: string, bytes: Buffer | null) => {
      expect(told.has(path), `${path} reported twice`).toBe(false);
      told.set(path, bytes);
    };
    const tickers = site.history.latest.map((r) => r.ticker);
    const track = publishedTrack(site, new Set());
    const trackFiles = await writeTrackApi(client, tickers, track, onWritten);
    // The track record's files are all there before the other routes are written.
    expect(trackFiles).toBe(tickers.length + 2);
    expect([...told.keys()].filter((path) => path.startsWith('api/track-record/'))).toHaveLength(tickers.length);
    const otherFiles = await writeStaticApi(client, site, 'C-Score Signals', false, onWritten);

    const onDisk = await filesUnder(client);
    expect(onDisk.sort()).toEqual([...told.keys()].sort());
    expect(onDisk).toHaveLength(trackFiles + otherFiles);
    // Every route of the contract, for every ticker.
    for (const route of REPORT_ROUTES) expect(told.has(`api/${route}.json`), route).toBe(true);
    for (const route of PER_TICKER_ROUTES) expect(told.has(`api/${route}/${tickers[0]}.json`), route).toBe(true);
    for (const [path, bytes] of told) {
      if (path === LEDGER_CSV_PATH) continue;
      expect(bytes?.equals(await readFile(join(client, path))), path).toBe(true);
    }
    expect(told.get(LEDGER_CSV_PATH)).toBeNull();
    const csv = await readFile(join(client, LEDGER_CSV_PATH), 'utf8');
    expect(csv).toBe(ledgerCsv(track.report));
    expect(track.report.ledger.length).toBeGreaterThan(0);
  });
});
