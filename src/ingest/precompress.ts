/**
 * Precompression of a fresh build: every compressible file of `client/` gets a `.br` and a `.gz` sibling, so the
 * Node server (serveStatic's `precompressed`) and a CDN send compressed bytes without compressing per request.
 * A file whose bytes equal the published build's copy takes that copy's `.br` and `.gz` as hard links instead of
 * being compressed again, and the daily job hands over each page as soon as `astro build` has written it, so
 * compression runs beside the build while it renders the next pages.
 *
 * Each file is read, compared, compressed and written by a thread of a CompressionPool, with zlib's synchronous calls.
 * At the largest benchmarked archive (tens of thousands of files a new day, most of them the static API's), with zlib's
 * asynchronous calls this process's own thread spent most of the run handing files to the thread pool and back (a stream, a buffer read
 * back and another compared, per call), and those buffers set off a full collection of its heap several times a second.
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { pageFindings, type PageFindings } from './smoke';

/** The types worth compressing (text); images and fonts are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.html', '.json', '.js', '.mjs', '.css', '.svg', '.xml', '.txt', '.webmanifest', '.map']);

/** Files smaller than this are sent as they are: the headers would outweigh the saving. */
export const MIN_COMPRESS_BYTES = 1024;

// Levels: brotli 9 + gzip 9 took more than twice as long as brotli 5 + gzip 6 for a few percent of size, and the
// cheaper pair keeps the largest build within its time budget (bench/RESULTS.md, "Build scaling"). Pages, what a reader
// waits for first, keep that pair. The static API (the full trend, the track record) is fetched after the first
// paint: gzip 4 and brotli 3 compress it in a fraction of the time for a few percent more bytes.
// Brotli is told each file's size (BROTLI_PARAM_SIZE_HINT): it then sizes its tables for the file, not for megabytes,
// which is faster for the same bytes.
const brotliOptions = (quality: number, size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});
const PAGE_OPTIONS = { brotliQuality: 5, gzip: { level: 6 } };
const DATA_OPTIONS = { brotliQuality: 3, gzip: { level: 4 } };
/** Queued files whose bytes the compressor keeps (handed over with `add`); later ones are read back when their turn comes. */
const HELD_BYTES_QUEUE = 64;

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

/** One file for a compression thread. */
export interface CompressTask {
  dir: string;
  /** Under `dir`, `/`-separated. */
  relativePath: string;
  /** The published build's folder of the same layout, or null. */
  previousDir: string | null;
  /** The file's bytes, when the caller has just written them: not read back. */
  given?: Uint8Array;
  /** Look at an HTML page for the smoke check. */
  inspect: boolean;
}

/** What became of a file: too small to compress, linked to the published copies, or compressed; an HTML page's findings. */
export interface CompressOutcome {
  result: 'small' | 'reused' | 'compressed';
  findings?: PageFindings;
}

/**
 * Compresses one file (synchronously: the body of a compression thread). Reading and writing are synchronous too:
 * files of tens of kilobytes, tens of thousands of them.
 */
export function compressFile({ dir, relativePath, previousDir, given, inspect }: CompressTask): CompressOutcome {
  const path = join(dir, relativePath);
  const bytes = given === undefined ? readFileSync(path) : Buffer.from(given.buffer, given.byteOffset, given.byteLength);
  const findings = inspect && relativePath.endsWith('.html') ? pageFindings(bytes.toString('utf8')) : undefined;
  const outcome = (result: CompressOutcome['result']): CompressOutcome => (findings === undefined ? { result } : { result, findings });
  if (bytes.length < MIN_COMPRESS_BYTES) return outcome('small');
  if (previousDir !== null) {
    const previous = join(previousDir, relativePath);
    if (readIfThere(previous)?.equals(bytes) && linkCompressed(previous, path)) return outcome('reused');
  }
  const options = relativePath.endsWith('.html') ? PAGE_OPTIONS : DATA_OPTIONS;
  writeFileSync(`${path}.br`, brotliCompressSync(bytes, brotliOptions(options.brotliQuality, bytes.length)));
  writeFileSync(`${path}.gz`, gzipSync(bytes, options.gzip));
  return outcome('compressed');
}

// The compression threads' entry: plain JavaScript that loads this TypeScript, whatever started the job (tsx, vitest).
const WORKER_ENTRY = new URL('./precompress-worker.mjs', import.meta.url);

/** Files each thread holds at once: the next one is there as soon as it finishes one. */
const TASKS_PER_THREAD = 2;

/** Threads by default: one a core, up to 4 (`astro build` and the job's own thread work beside them). */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

interface Pending {
  resolve: (outcome: CompressOutcome) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  running: Map<number, Pending>;
}

/**
 * Threads that compress files (compressFile), started on the first file and ended by `close`. A thread keeps the
 * process alive only while it holds files, as libuv's pool did for zlib's asynchronous calls; a thread that fails
 * fails every file it held and every one after.
 */
export class CompressionPool {
  private readonly threads: Thread[] = [];
  private readonly queue: { id: number; task: CompressTask; pending: Pending }[] = [];
  private nextId = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(private readonly size = defaultThreads()) {}

  /** How many files the pool works on at once; a compressor keeps this many handed over. */
  get capacity(): number {
    return this.size * TASKS_PER_THREAD;
  }

  run(task: CompressTask): Promise<CompressOutcome> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('The compression threads were closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: (this.nextId += 1), task, pending: { resolve, reject } });
      this.dispatch();
    });
  }

  /** Ends the threads (a file still under way is not finished, and its promise rejects). */
  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    this.fail(new Error('The compression threads were closed.'), threads);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => t.running.size < TASKS_PER_THREAD) ?? (this.threads.length < this.size ? this.start() : null);
      if (thread === null) return;
      const { id, task, pending } = this.queue.shift()!;
      thread.running.set(id, pending);
      thread.worker.ref();
      thread.worker.postMessage({ id, task });
    }
  }

  private start(): Thread {
    // A small young generation: a thread's garbage is each file's bytes and page text, gone as soon as it is written.
    // It keeps the job's peak memory near what the thread pool's zlib used (bench/RESULTS.md, "History at scale").
    const worker = new Worker(WORKER_ENTRY, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    const thread: Thread = { worker, running: new Map() };
    worker.on('message', ({ id, outcome, error }: { id: number; outcome?: CompressOutcome; error?: string }) => {
      const pending = thread.running.get(id);
      thread.running.delete(id);
      // Idle, it lets the process end (a listener added to the worker refs its port, so this comes after them).
      if (thread.running.size === 0) worker.unref();
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(outcome!);
      this.dispatch();
    });
    worker.once('error', (error) => this.fail(error, [thread]));
    worker.once('exit', (code) => {
      if (!this.closed) this.fail(new Error(`A compression thread ended with code ${code}.`), [thread]);
    });
    this.threads.push(thread);
    return thread;
  }

  // The files the threads held fail with `error`, and so does every file still waiting: a failed thread fails the pool,
  // and a closed pool takes no more.
  private fail(error: Error, threads: Thread[]): void {
    if (!this.closed) this.failure ??= error;
    for (const thread of threads) {
      for (const pending of thread.running.values()) pending.reject(error);
      thread.running.clear();
    }
    for (const { pending } of this.queue.splice(0)) pending.reject(this.failure ?? error);
  }
}

async function* compressibleFiles(dir: string, skipped: ReadonlySet<string>, under = ''): AsyncGenerator<string> {
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!skipped.has(path)) yield* compressibleFiles(dir, skipped, path);
    } else if (entry.isFile() && COMPRESSIBLE_EXTENSIONS.has(extname(entry.name))) yield path;
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
  /** Leaves these folders (relative paths) out of the last look at the folder: their files are complete already. */
  skipFolders(relativePaths: Iterable<string>): void;
  /** Queues every compressible file of the folder not handed over yet, and resolves when all are done. */
  finish(): Promise<CompressSummary>;
}

/** How a compressor works: the published build to reuse, the smoke check's look at the pages, the threads. */
export interface CompressorOptions {
  /** The same files of the published build (same layout): a file whose bytes are unchanged reuses its `.br` and `.gz`. */
  previousDir?: string | null;
  /** Told each HTML page's findings as it is read (the smoke check's look, without reading the pages again). */
  inspect?: (relativePath: string, findings: PageFindings) => void;
  /** Threads shared with other compressors (the caller closes them); without, the compressor's own, closed by `finish`. */
  pool?: CompressionPool;
}

/** A compressor for `dir`. */
export function createCompressor(dir: string, { previousDir = null, inspect, pool }: CompressorOptions = {}): Compressor {
  const threads = pool ?? new CompressionPool();
  const summary = { compressed: 0, reused: 0 };
  const queued = new Set<string>();
  const skipped = new Set<string>();
  const waiting: { relativePath: string; given?: Buffer }[] = [];
  const running = new Set<Promise<void>>();
  let failure: unknown = null;

  async function compressOne({ relativePath, given }: { relativePath: string; given?: Buffer }): Promise<void> {
    const outcome = await threads.run({ dir, relativePath, previousDir, given, inspect: inspect !== undefined });
    if (outcome.findings) inspect?.(relativePath, outcome.findings);
    if (outcome.result === 'reused') summary.reused += 1;
    else if (outcome.result === 'compressed') summary.compressed += 1;
  }

  function pump(): void {
    while (running.size < threads.capacity && waiting.length > 0) {
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
    skipFolders(relativePaths) {
      for (const path of relativePaths) skipped.add(keyOf(path));
    },
    async finish() {
      try {
        for await (const path of compressibleFiles(dir, skipped)) add(path);
        while (running.size > 0 || waiting.length > 0) await Promise.race(running);
      } finally {
        if (pool === undefined) await threads.close();
      }
      if (failure !== null) throw failure;
      return { ...summary, handled: [...queued] };
    },
  };
}

