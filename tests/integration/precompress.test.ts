import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompressionPool, createCompressor } from '../../src/ingest/precompress';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'precompress-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(dir: string, path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

const page = (n: number) => `<!doctype html><title>Page ${n}</title>${'<p>C-Score 72.40, Bullish</p>'.repeat(80)}`;

describe('createCompressor', () => {
  it('links the published build\'s .br and .gz for an unchanged file, compresses a changed or new one, and leaves small files alone', async () => {
    const published = join(root, 'published');
    const fresh = join(root, 'fresh');
    await write(published, 'learn/index.html', page(1));
    await write(published, 'signal/AAPL/index.html', page(2));
    await createCompressor(published).finish();

    await write(fresh, 'learn/index.html', page(1));
    await write(fresh, 'signal/AAPL/index.html', page(3));
    await write(fresh, 'signal/MSFT/index.html', page(4));
    await write(fresh, 'robots.txt', 'User-agent: *\n');
    const compressor = createCompressor(fresh, { previousDir: published });
    compressor.add('signal/AAPL/index.html');
    const summary = await compressor.finish();

    expect(summary).toMatchObject({ compressed: 2, reused: 1 });
    expect(summary.handled.sort()).toEqual(['learn/index.html', 'robots.txt', 'signal/AAPL/index.html', 'signal/MSFT/index.html']);
    // The same file on disk: a hard link, no bytes compressed or written again.
    for (const ext of ['.br', '.gz']) {
      expect((await stat(join(fresh, `learn/index.html${ext}`))).ino).toBe((await stat(join(published, `learn/index.html${ext}`))).ino);
    }
    expect(brotliDecompressSync(await readFile(join(fresh, 'signal/AAPL/index.html.br'))).toString()).toBe(page(3));
    expect(gunzipSync(await readFile(join(fresh, 'signal/MSFT/index.html.gz'))).toString()).toBe(page(4));
    await expect(stat(join(fresh, 'robots.txt.br'))).rejects.toThrow(/ENOENT/);
  });

  it('compresses a file again when the published build lacks its compressed copies', async () => {
    const published = join(root, 'published');
    const fresh = join(root, 'fresh');
    await write(published, 'index.html', page(1));
    await write(fresh, 'index.html', page(1));
    const summary = await createCompressor(fresh, { previousDir: published }).finish();
    expect(summary).toMatchObject({ compressed: 1, reused: 0 });
    expect(brotliDecompressSync(await readFile(join(fresh, 'index.html.br'))).toString()).toBe(page(1));
  });

  it('compresses the bytes it is handed with a file, without reading the file back', async () => {
    await mkdir(join(root, 'api/c-score-trend'), { recursive: true });
    const compressor = createCompressor(root);
    // No such file on disk: only the handed bytes can be compressed.
    compressor.add('api/c-score-trend/AAPL.json', Buffer.from(page(5)));
    expect(await compressor.finish()).toMatchObject({ compressed: 1, handled: ['api/c-score-trend/AAPL.json'] });
    expect(brotliDecompressSync(await readFile(join(root, 'api/c-score-trend/AAPL.json.br'))).toString()).toBe(page(5));
    expect(gunzipSync(await readFile(join(root, 'api/c-score-trend/AAPL.json.gz'))).toString()).toBe(page(5));
  });

  it('leaves excluded files to whoever did them', async () => {
    await write(root, 'api/stock/AAPL.json', JSON.stringify({ ticker: 'AAPL', pad: 'x'.repeat(2000) }));
    const compressor = createCompressor(root);
    compressor.exclude(['api/stock/AAPL.json']);
    expect(await compressor.finish()).toMatchObject({ compressed: 0, reused: 0 });
  });

  it("fails with the compression thread's error when a file cannot be written", async () => {
    const compressor = createCompressor(root);
    // No folder api/stock under root: the thread cannot write the .br beside the handed bytes.
    compressor.add('api/stock/AAPL.json', Buffer.from(page(6)));
    await expect(compressor.finish()).rejects.toThrow(/ENOENT.*AAPL\.json\.br/);
  });

  it('shares one pool between compressors until its owner closes it; a closed pool takes no more files', async () => {
    const pool = new CompressionPool(1);
    await write(root, 'a/index.html', page(7));
    await write(root, 'b/data.json', page(8));
    const pages = createCompressor(join(root, 'a'), { pool });
    const data = createCompressor(join(root, 'b'), { pool });
    const [first, second] = await Promise.all([pages.finish(), data.finish()]);
    expect([first.compressed, second.compressed]).toEqual([1, 1]);
    expect(gunzipSync(await readFile(join(root, 'b/data.json.gz'))).toString()).toBe(page(8));
    // Closed while files wait for its one thread: each of them fails, none is left unsettled.
    const waiting = [1, 2, 3].map(() => pool.run({ dir: root, relativePath: 'a/index.html', previousDir: null, inspect: true }));
    const settled = Promise.allSettled(waiting);
    await pool.close();
    for (const file of await settled) expect(file).toMatchObject({ status: 'rejected', reason: new Error('The compression threads were closed.') });
    await expect(pool.run({ dir: root, relativePath: 'a/index.html', previousDir: null, inspect: false })).rejects.toThrow('The compression threads were closed.');
  });

  it('keeps the process alive while its threads hold files, and lets it end once they are idle', async () => {
    await write(root, 'site/index.html', page(9));
    // A process with nothing else to do: it must see its file compressed, then end without closing the pool.
    await writeFile(
      join(root, 'run.mts'),
      `import { CompressionPool } from ${JSON.stringify(join(process.cwd(), 'src/ingest/precompress.ts'))};
const pool = new CompressionPool(1);
console.log(JSON.stringify(await pool.run({ dir: ${JSON.stringify(join(root, 'site'))}, relativePath: 'index.html', previousDir: null, inspect: false })));`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'run.mts')], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ result: 'compressed' });
    expect(brotliDecompressSync(await readFile(join(root, 'site/index.html.br'))).toString()).toBe(page(9));
  });
});
