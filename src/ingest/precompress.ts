/**
 * Precompression of a fresh build: every compressible file of `client/` gets a `.br` and a `.gz` sibling, so the
 * Node server (serveStatic's `precompressed`) and a CDN send compressed bytes without compressing per request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The types worth compressing (text); images and fonts are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.html', '.json', '.js', '.mjs', '.css', '.svg', '.xml', '.txt', '.webmanifest', '.map']);

/** Files smaller than this are sent as they are: the headers would outweigh the saving. */
export const MIN_COMPRESS_BYTES = 1024;

// Measured on the 503-ticker sample (25 MB to compress): brotli 9 + gzip 9 took 7.0 s, brotli 5 + gzip 6 3.1 s, for a
// few percent of size; the cheaper pair keeps a 6,000-ticker build within its 120 s.
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
const GZIP_OPTIONS = { level: 6 };
/** Files compressed at once: zlib runs on libuv's thread pool, so this keeps both cores busy without piling up memory. */
const CONCURRENCY = 8;

async function* compressibleFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* compressibleFiles(path);
    else if (entry.isFile() && COMPRESSIBLE_EXTENSIONS.has(extname(entry.name))) yield path;
  }
}

/** Writes `.br` and `.gz` beside every compressible file of `clientDir` of at least MIN_COMPRESS_BYTES; returns how many files it compressed. */
export async function precompressStatic(clientDir: string): Promise<number> {
  let compressed = 0;
  const running = new Set<Promise<void>>();
  for await (const path of compressibleFiles(clientDir)) {
    const task = (async () => {
      const bytes = await readFile(path);
      if (bytes.length < MIN_COMPRESS_BYTES) return;
      const [br, gzipped] = await Promise.all([brotli(bytes, BROTLI_OPTIONS), gz(bytes, GZIP_OPTIONS)]);
      await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
      compressed += 1;
    })();
    running.add(task);
    void task.finally(() => running.delete(task));
    if (running.size >= CONCURRENCY) await Promise.race(running);
  }
  await Promise.all(running);
  return compressed;
}
