/**
 * Precompression of a fresh build: every compressible file of `client/` gets a `.br` and a `.gz` sibling, so the
 * Node server (serveStatic's `precompressed`) and a CDN send compressed bytes without compressing per request.
 * A file whose bytes equal the published build's copy takes that copy's `.br` and `.gz` as hard links instead of
 * being compressed again, and the daily job hands over each page as soon as `astro build` has written it, so
 * compression runs on the second core while the build renders the next pages.
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The types worth compressing (text); images and fonts are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.html', '.json', '.js', '.mjs', '.css', '.svg', '.xml', '.txt', '.webmanifest', '.map']);

/** Files smaller than this are sent as they are: the headers would outweigh the saving. */
export const MIN_COMPRESS_BYTES = 1024;

// Measured on the 503-ticker sample (25 MB to compress): brotli 9 + gzip 9 took 7.0 s, brotli 5 + gzip 6 3.1 s, for a
// few percent of size; the cheaper pair keeps a 6,000-ticker build within its 120 s. Pages, what a reader waits for
// first, keep that pair. The rest is mostly the static API, which five years of history make 90 KB a ticker (the full
// trend, the track record) and which the pages' scripts fetch after the first paint: brotli 4 + gzip 4 halved its time
// (6,000 tickers: about 10 s of a core each morning) for 5 to 10% more bytes (measured on /api/c-score-trend/AAPL
// at 1,260 days: 1.4 ms and 6.9 KB against 0.6 ms and 7.4 KB for brotli); brotli 3 then halved brotli's again (below).
// Brotli is told each file's size (BROTLI_PARAM_SIZE_HINT): it then sizes its tables for 50 KB rather than megabytes.
// Measured on 500 stock pages at 6,000 x 1,260: 1.63 → 1.19 ms a page at quality 5, the same bytes (12.65 KB);
// the trend JSON at quality 4: 0.72 → 0.58 ms.
// Brotli 3 for the static API: measured on 1,000 trends at 6,000 x 1,260 (45.9 KB each), 7.13 KB as at
// quality 4 in half the time (0.53 against 1.07 ms, 0.34 against 0.48 in a quieter run); the track records 2.10 KB
// against 2.05 (0.19 against 0.26 ms); the ledger CSV 6.4 MB against 5.9 (0.4 against 0.9 s).
const brotliOptions = (quality: number, size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});
const PAGE_OPTIONS = { brotliQuality: 5, gzip: { level: 6 } };
const DATA_OPTIONS = { brotliQuality: 3, gzip: { level: 4 } };
/** Files compressed at once: zlib runs on libuv's thread pool, so this keeps both cores busy without piling up memory. */
const CONCURRENCY = 8;
/** Queued files whose bytes the compressor keeps (handed over with `add`); later ones are read back when their turn comes. */
const HELD_BYTES_QUEUE = 64;

async function* compressibleFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* compressibleFiles(path);
    else if (entry.isFile() && COMPRESSIBLE_EXTENSIONS.has(extname(entry.name))) yield path;
  }
}

/** What a compressor did: files compressed, and files whose compressed copies came from the published build. */
export interface CompressSummary {
  compressed: number;
  reused: number;
  /** Every file handed over or found (relative, `/`-separated), compressed or too small to be. */
  handled: string[];
}

/** Compresses the files of one folder as they are handed over, then the rest of the folder. */
export interface Compressor {
  /**
   * Queues a finished file of the folder (its path relative to the folder, `/`-separated); others are ignored. With
   * `bytes` (what the caller just wrote there), the file is not read back.
   */
  add(relativePath: string, bytes?: Buffer): void;
  /** Leaves these files (relative paths) alone: another compressor did them. */
  exclude(relativePaths: Iterable<string>): void;
  /** Queues every compressible file of the folder not handed over yet, and resolves when all are done. */
  finish(): Promise<CompressSummary>;
}

// Hard links to the published build's compressed copies; false (and nothing left behind) when either is missing.
function linkCompressed(from: string, to: string): boolean {
  try {
    linkSync(`${from}.br`, `${to}.br`);
  } catch {
    return false;
  }
  try {
    linkSync(`${from}.gz`, `${to}.gz`);
    return true;
  } catch {
    try {
      unlinkSync(`${to}.br`);
    } catch {
      // Already gone.
    }
    return false;
  }
}

function readIfThere(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * A compressor for `dir`. With `previousDir` (the same files of the published build, same layout), a file whose bytes
 * are unchanged reuses that build's `.br` and `.gz`. `inspect` is given each file's bytes as they are read (the smoke
 * check's look at the pages, without reading them again).
 */
export function createCompressor(
  dir: string,
  { previousDir = null, inspect }: { previousDir?: string | null; inspect?: (relativePath: string, bytes: Buffer) => void } = {},
): Compressor {
  const summary = { compressed: 0, reused: 0 };
  const queued = new Set<string>();
  const waiting: { relativePath: string; given?: Buffer }[] = [];
  const running = new Set<Promise<void>>();
  let failure: unknown = null;

  // Reading and writing are synchronous: files of tens of kilobytes, tens of thousands of them. Measured at 6,000
  // tickers, the promise API's open, stat, read and close each took a round trip through the thread pool, queued
  // behind the compression there, and cost this thread more than the system calls themselves.
  async function compressOne({ relativePath, given }: { relativePath: string; given?: Buffer }): Promise<void> {
    const path = join(dir, relativePath);
    const bytes = given ?? readFileSync(path);
    inspect?.(relativePath, bytes);
    if (bytes.length < MIN_COMPRESS_BYTES) return;
    if (previousDir !== null) {
      const previous = join(previousDir, relativePath);
      if (readIfThere(previous)?.equals(bytes) && linkCompressed(previous, path)) {
        summary.reused += 1;
        return;
      }
    }
    const options = relativePath.endsWith('.html') ? PAGE_OPTIONS : DATA_OPTIONS;
    const [br, gzipped] = await Promise.all([brotli(bytes, brotliOptions(options.brotliQuality, bytes.length)), gz(bytes, options.gzip)]);
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gzipped);
    summary.compressed += 1;
  }

  function pump(): void {
    while (running.size < CONCURRENCY && waiting.length > 0) {
      const task = compressOne(waiting.shift()!).catch((error: unknown) => {
        failure ??= error;
      });
      running.add(task);
      void task.finally(() => {
        running.delete(task);
        pump();
      });
    }
  }

  const keyOf = (relativePath: string) => relativePath.split(sep).join('/').replace(/^\/+/, '');
  function add(relativePath: string, given?: Buffer): void {
    const key = keyOf(relativePath);
    if (queued.has(key) || !COMPRESSIBLE_EXTENSIONS.has(extname(key))) return;
    queued.add(key);
    // A long queue holds paths, not bytes: the static API is written faster than it is compressed.
    const keep = given !== undefined && (given.length < MIN_COMPRESS_BYTES || waiting.length < HELD_BYTES_QUEUE);
    waiting.push(keep ? { relativePath: key, given } : { relativePath: key });
    pump();
  }

  return {
    add,
    exclude(relativePaths) {
      for (const path of relativePaths) queued.add(keyOf(path));
    },
    async finish() {
      for await (const path of compressibleFiles(dir)) add(relative(dir, path));
      while (running.size > 0 || waiting.length > 0) await Promise.race(running);
      if (failure !== null) throw failure;
      return { ...summary, handled: [...queued] };
    },
  };
}

/** Writes `.br` and `.gz` beside every compressible file of `clientDir` of at least MIN_COMPRESS_BYTES; returns how many files it compressed. */
export async function precompressStatic(clientDir: string): Promise<number> {
  const { compressed } = await createCompressor(clientDir).finish();
  return compressed;
}
