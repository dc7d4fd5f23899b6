import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { EMPTY_TRACK } from '../../src/lib/domain/track-data';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withShareImages } from '../../src/ingest/share-images';
import type { SignalRecord, SiteData } from '../../src/lib/domain/schemas';

function record(ticker: string, cScore: number, reportDate = '2026-11-20'): SignalRecord {
  return {
    ticker, companyName: `${ticker} Holdings, Inc.`, cScore, yesterdayCScore: 0, reportDate, isTopTicker: false, deltaScore: 0,
    accuracyScore: 0, marketScore: 0, relevanceScore: 0, avgCScoreL7D: 0, avgCScoreL14D: 0, countL7DWithSignal: 0, countL14DWithSignal: 0,
  };
}

function site(latest: SignalRecord[]): SiteData {
  return { builtAt: '', reportDate: '2026-11-20', history: { dates: ['2026-11-20'], latest, scores: {} }, files: [], universe: [], companies: {}, fundamentals: {}, source: 'exports', track: EMPTY_TRACK };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('share images', () => {
  it('writes a 1200x630 PNG per ticker while the build runs, and draws again only what changed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'share-images-'));
    dirs.push(root);
    const cache = join(root, 'cache');
    let built = false;
    const first = await withShareImages(site([record('AAPL', 72.5), record('T', -80), record('MMM', 10)]), join(root, 'a'), async () => {
      built = true;
    }, { cacheDir: cache, siteName: 'C-Score Signals' });
    expect(built).toBe(true);
    expect(first).toMatchObject({ rendered: 3, reused: 0 });
    const png = await readFile(join(root, 'a', 'og', 'signal', 'AAPL.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect((await readdir(join(root, 'a', 'og', 'signal'))).sort()).toEqual(['AAPL.png', 'MMM.png', 'T.png']);

    // Only T's score changed: one image is drawn, two come from the cache, and T's old image leaves the cache.
    const second = await withShareImages(site([record('AAPL', 72.5), record('T', -81), record('MMM', 10)]), join(root, 'b'), async () => undefined, { cacheDir: cache, siteName: 'C-Score Signals' });
    expect(second).toMatchObject({ rendered: 1, reused: 2 });
    expect(await readdir(cache)).toHaveLength(3);
    expect(await readFile(join(root, 'b', 'og', 'signal', 'AAPL.png'))).toEqual(png);
  });

  it('draws each image on a clean canvas: an image drawn after others is the same as when drawn alone', async () => {
    const root = await mkdtemp(join(tmpdir(), 'share-images-'));
    dirs.push(root);
    const options = (name: string) => ({ cacheDir: join(root, name), siteName: 'C-Score Signals' });
    // A long name and a notice-free bearish image first, then MMM: nothing of them may remain in MMM's pixels.
    await withShareImages(site([record('GOOGL', -99.5), record('BRK.B', 88), record('MMM', 10)]), join(root, 'after'), async () => undefined, options('c1'));
    await withShareImages(site([record('MMM', 10)]), join(root, 'alone'), async () => undefined, options('c2'));
    const after = await readFile(join(root, 'after', 'og', 'signal', 'MMM.png'));
    expect(after).toEqual(await readFile(join(root, 'alone', 'og', 'signal', 'MMM.png')));
    expect(after).not.toEqual(await readFile(join(root, 'after', 'og', 'signal', 'GOOGL.png')));
  });
});
