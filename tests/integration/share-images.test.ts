import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startShareImages, type ShareImageOptions } from '../../src/ingest/share-images';
import type { SignalRecord } from '../../src/lib/domain/report/schemas';

function record(ticker: string, cScore: number, reportDate = '2026-11-20'): SignalRecord {
  return {
    ticker, companyName: `${ticker} Holdings, Inc.`, cScore, yesterdayCScore: 0, reportDate, isTopTicker: false, deltaScore: 0,
    accuracyScore: 0, marketScore: 0, relevanceScore: 0, avgCScoreL7D: 0, avgCScoreL14D: 0, countL7DWithSignal: 0, countL14DWithSignal: 0,
  };
}

/** Draws `latest`'s images while `build` runs, then places them in `clientDir`, as the daily job does. */
async function drawAndPlace(
  latest: SignalRecord[],
  clientDir: string,
  options: ShareImageOptions,
  build: () => Promise<void> = async () => undefined,
  onImage: (done: number, total: number) => void = () => undefined,
) {
  const images = startShareImages(latest, options);
  images.onImage(onImage);
  await Promise.all([build(), images.drawn]);
  return images.place(clientDir);
}

/** The pixel rows of a PNG written by the drawing (one IDAT), inflated: zlib checks the stream's Adler-32 on the way. */
function pixelRows(png: Buffer): Buffer {
  const idat = png.indexOf('IDAT', 0, 'latin1');
  return inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
}

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceness(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return [];
    }
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function workDir(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'share-images-'));
  dirs.push(root);
  return root;
}

const many = (count: number) => Array.from({ length: count }, (_, i) => record(`T${i}`, ((i * 37) % 200) - 99.5));

describe('share images', () => {
  it('writes a 1200x630 PNG per ticker while the build runs, and draws again only what changed', async () => {
    const root = await workDir();
    const cache = join(root, 'cache');
    let built = false;
    const counts: string[] = [];
    const first = await drawAndPlace(
      [record('AAPL', 72.5), record('T', -80), record('MMM', 10)],
      join(root, 'a'),
      { cacheDir: cache, siteName: 'C-Score Signals' },
      async () => {
        built = true;
      },
      (done, total) => counts.push(`${done}/${total}`),
    );
    expect(built).toBe(true);
    expect(first).toMatchObject({ rendered: 3, reused: 0 });
    expect(counts).toEqual(['0/3', '1/3', '2/3', '3/3']);
    const png = await readFile(join(root, 'a', 'og', 'signal', 'AAPL.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    // 630 rows of a filter byte and 1,200 palette indices.
    expect(pixelRows(png)).toHaveLength(630 * 1201);
    expect((await readdir(join(root, 'a', 'og', 'signal'))).sort()).toEqual(['AAPL.png', 'MMM.png', 'T.png']);

    // Only T's score changed: one image is drawn, two come from the cache, and T's old image leaves the cache.
    const second = await drawAndPlace([record('AAPL', 72.5), record('T', -81), record('MMM', 10)], join(root, 'b'), { cacheDir: cache, siteName: 'C-Score Signals' });
    expect(second).toMatchObject({ rendered: 1, reused: 2 });
    expect(await readdir(cache)).toHaveLength(3);
    expect(await readFile(join(root, 'b', 'og', 'signal', 'AAPL.png'))).toEqual(png);
  });

  it('draws each image on a clean canvas: an image drawn after others is the same as when drawn alone', async () => {
    const root = await workDir();
    const options = (name: string) => ({ cacheDir: join(root, name), siteName: 'C-Score Signals' });
    // A long name and a notice-free bearish image first, then MMM: nothing of them may remain in MMM's pixels.
    await drawAndPlace([record('GOOGL', -99.5), record('BRK.B', 88), record('MMM', 10)], join(root, 'after'), options('c1'));
    await drawAndPlace([record('MMM', 10)], join(root, 'alone'), options('c2'));
    const after = await readFile(join(root, 'after', 'og', 'signal', 'MMM.png'));
    expect(after).toEqual(await readFile(join(root, 'alone', 'og', 'signal', 'MMM.png')));
    expect(after).not.toEqual(await readFile(join(root, 'after', 'og', 'signal', 'GOOGL.png')));
  });

  it('draws on a thread of its own at the lowest priority, so the build and the job go first', async () => {
    const root = await workDir();
    const before = threadNiceness();
    expect(before.length).toBeGreaterThan(0);
    expect(before).not.toContain(19);
    const images = startShareImages(many(40), { cacheDir: join(root, 'cache'), siteName: 'C-Score Signals' });
    const seen = new Set<number>();
    let drawing = true;
    void images.drawn.finally(() => (drawing = false));
    while (drawing) {
      for (const nice of threadNiceness()) seen.add(nice);
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
    }
    await images.drawn;
    expect(seen).toContain(19);
    // This thread keeps its priority.
    expect(threadNiceness()[0]).toBe(before[0]);
  });

  it('stops when the run fails: the images drawn stay whole in the cache, and the next run draws only the rest', async () => {
    const root = await workDir();
    const cache = join(root, 'cache');
    const latest = many(400);
    let firstImage: () => void = () => undefined;
    const begun = new Promise<void>((resolveBegun) => (firstImage = resolveBegun));
    const images = startShareImages(latest, { cacheDir: cache, siteName: 'C-Score Signals' });
    images.onImage((done) => done > 0 && firstImage());
    await begun;
    await images.stop();
    await expect(images.drawn).rejects.toThrow('The share images were stopped.');
    const kept = (await readdir(cache)).filter((name) => name.endsWith('.png'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(latest.length);
    for (const name of kept) expect(pixelRows(await readFile(join(cache, name)))).toHaveLength(630 * 1201);

    // A killed run's half-written file is cleared away by the next run, which draws only what the cache lacks.
    await writeFile(join(cache, `${kept[0]}.123.1.tmp`), 'half');
    const next = await drawAndPlace(latest, join(root, 'site'), { cacheDir: cache, siteName: 'C-Score Signals' });
    expect(next).toMatchObject({ rendered: latest.length - kept.length, reused: kept.length });
    expect((await readdir(cache)).filter((name) => !name.endsWith('.png'))).toEqual([]);
    expect(await readdir(join(root, 'site', 'og', 'signal'))).toHaveLength(latest.length);
  });

  it('fails with the drawing error when the cache cannot be written', async () => {
    const root = await workDir();
    const cache = join(root, 'cache');
    const images = startShareImages([record('AAPL', 72.5)], { cacheDir: cache, siteName: 'C-Score Signals' });
    // The cache folder is replaced by a file before the thread writes to it.
    await rm(cache, { recursive: true });
    await writeFile(cache, 'not a folder');
    await expect(images.drawn).rejects.toThrow(/ENOTDIR/);
  });
});
