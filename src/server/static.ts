import { createHash } from 'node:crypto';
import { open, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Context, Handler } from 'hono';
import { SECURITY_HEADERS, markSecured } from './headers';
import { type Encoding, etagMatches, mediaTypeFor, preferredEncoding } from './http';

/** Where the build lives and how much of it to keep in memory. */
export interface StaticSiteOptions {
  /** The build folder: `client/` holds the site, `build.json` changes with every published build. */
  distDir: string;
  /** Upper bound of the bytes kept in memory (bodies plus their gzip and brotli copies); default 128 MiB. */
  cacheMaxBytes?: number;
  /** Shortest time between two looks at build.json for a new build; default 1000 ms. */
  buildCheckIntervalMs?: number;
  /**
   * The page (a file below client/) that answers a path with no file, with status 404; default `404.html` for
   * every path. That file never answers its own address with a 200, and when a build lacks it, `404.html` answers.
   */
  notFoundPage?: (path: string) => string;
}

/** The static build as a Hono handler, with a cache that follows build swaps. */
export interface StaticSite {
  /** Serves `${distDir}/client` for every method and path it is mounted on. */
  handler: Handler;
  /** Drops everything cached, for callers that changed files without a new build.json. */
  invalidate(): void;
}

type HeaderRecord = Readonly<Record<string, string>>;

/** One representation of a file: its body and the headers for a full and a 304 answer. */
interface Variant {
  body: Uint8Array<ArrayBuffer>;
  headers: HeaderRecord;
  etag: string | undefined;
  notModified: HeaderRecord;
}

/** A file ready to send, with compressed variants when they are smaller. */
interface Entry {
  status: number;
  identity: Variant;
  gzip: Variant | undefined;
  br: Variant | undefined;
  bytes: number;
}

/** What is cached for one published build; a new build gets a new snapshot. */
interface Snapshot {
  root: Promise<string | null> | undefined;
  entries: Map<string, Entry>;
  pending: Map<string, Promise<Entry | null>>;
  /** The not-found pages read so far, by file. */
  notFoundPages: Map<string, Promise<Entry | null>>;
  bytes: number;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';
const HASHED_ASSETS = '/_astro/';
const MIN_COMPRESS_BYTES = 256;
const MAX_PATH_LENGTH = 1024;
const DEFAULT_NOT_FOUND_PAGE = '404.html';
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'EISDIR', 'ELOOP', 'EACCES', 'EINVAL']);

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Creates the static site handler for `${distDir}/client` (DESIGN.md "API routes" for the extensionless JSON). */
export function createStaticSite(options: StaticSiteOptions): StaticSite {
  const clientDir = join(options.distDir, 'client');
  const buildFile = join(options.distDir, 'build.json');
  const maxBytes = options.cacheMaxBytes ?? 128 * 1024 * 1024;
  // A single file may take a quarter of the cache; a larger one is read for each request and sent uncompressed.
  const maxEntryBytes = Math.floor(maxBytes / 4);
  const checkInterval = options.buildCheckIntervalMs ?? 1000;
  const notFoundPageOf = options.notFoundPage ?? (() => DEFAULT_NOT_FOUND_PAGE);

  let snapshot = newSnapshot();
  let buildSignature: string | undefined;
  let nextCheck = 0;
  let checking: Promise<void> | undefined;

  function newSnapshot(): Snapshot {
    return { root: undefined, entries: new Map(), pending: new Map(), notFoundPages: new Map(), bytes: 0 };
  }

  /** The real path of client/ for this build (null when there is none), so symlinks cannot lead outside it. */
  function rootOf(current: Snapshot): Promise<string | null> {
    current.root ??= realpath(clientDir).catch((error: unknown) => {
      // Not remembered: the next request looks again, the folder may be mid-swap.
      current.root = undefined;
      if (isMissing(error)) return null;
      throw error;
    });
    return current.root;
  }

  function invalidate(): void {
    snapshot = newSnapshot();
  }

  /** At most once per interval: compares build.json (or client/ when there is none) with what was seen. */
  function checkBuild(): Promise<void> | undefined {
    const now = Date.now();
    if (now < nextCheck) return undefined;
    nextCheck = now + checkInterval;
    checking ??= readBuildSignature()
      .then((signature) => {
        if (signature === buildSignature) return;
        buildSignature = signature;
        invalidate();
      })
      .finally(() => {
        checking = undefined;
      });
    return checking;
  }

  async function readBuildSignature(): Promise<string> {
    for (const file of [buildFile, clientDir]) {
      try {
        const info = await stat(file);
        return `${file}:${info.ino}:${info.size}:${info.mtimeMs}`;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return 'missing';
  }

  function serve(c: Context): Response | Promise<Response> {
    const path = requestPath(c.req.url);
    if (path === null) return badPath(c, c.req.path);
    const current = snapshot;
    const entry = current.entries.get(path);
    if (entry !== undefined) {
      // Re-inserting keeps the Map in least-recently-used order for eviction.
      current.entries.delete(path);
      current.entries.set(path, entry);
      return respond(c, path, entry);
    }
    // Only paths that passed this check are ever cached, so a hit needs no second look.
    if (!isSafePath(path)) return badPath(c, path);
    return load(current, path).then((found) => (found === null ? notFound(c, path, current) : respond(c, path, found)));
  }

  function load(current: Snapshot, path: string): Promise<Entry | null> {
    let pending = current.pending.get(path);
    if (pending === undefined) {
      pending = resolveEntry(current, path).finally(() => current.pending.delete(path));
      current.pending.set(path, pending);
    }
    return pending;
  }

  async function resolveEntry(current: Snapshot, path: string): Promise<Entry | null> {
    const root = await rootOf(current);
    if (root === null) return null;
    const notFoundFile = notFoundPageOf(path);
    for (const candidate of candidateFiles(path)) {
      // A not-found page is the 404 answer of the paths it covers, never a page of its own (/404.html, /signal/).
      if (candidate === notFoundFile) continue;
      const bytes = await readInside(root, candidate);
      if (bytes === null) continue;
      const cacheable = bytes.byteLength <= maxEntryBytes;
      const entry = await buildEntry(bytes, candidate, 200, path.startsWith(HASHED_ASSETS) ? IMMUTABLE : REVALIDATE, cacheable);
      if (cacheable) remember(current, path, entry);
      return entry;
    }
    return null;
  }

  function remember(current: Snapshot, path: string, entry: Entry): void {
    current.entries.set(path, entry);
    current.bytes += entry.bytes;
    for (const [key, old] of current.entries) {
      if (current.bytes <= maxBytes) break;
      current.entries.delete(key);
      current.bytes -= old.bytes;
    }
  }

  function notFound(c: Context, path: string, current: Snapshot): Response | Promise<Response> {
    if (isApiPath(path)) return c.json({ error: `Not found: ${path}` }, 404);
    return notFoundEntry(current, notFoundPageOf(path)).then((page) =>
      page === null ? c.text('Page not found.', 404, { 'Cache-Control': REVALIDATE }) : sendVariant(page.status, pickVariant(page, c)),
    );
  }

  /** A not-found page read once per build, compressed like any page; `404.html` stands in for one the build lacks. */
  function notFoundEntry(current: Snapshot, file: string): Promise<Entry | null> {
    let page = current.notFoundPages.get(file);
    if (page === undefined) {
      page = rootOf(current)
        .then(async (root) => {
          const bytes = root === null ? null : await readInside(root, file);
          if (bytes !== null) return buildEntry(bytes, file, 404, REVALIDATE, true);
          return file === DEFAULT_NOT_FOUND_PAGE ? null : notFoundEntry(current, DEFAULT_NOT_FOUND_PAGE);
        })
        .catch((error: unknown) => {
          current.notFoundPages.delete(file);
          throw error;
        });
      current.notFoundPages.set(file, page);
    }
    return page;
  }

  const handler: Handler = (c) => {
    const check = checkBuild();
    return check === undefined ? serve(c) : check.then(() => serve(c));
  };

  return { handler, invalidate };
}

function respond(c: Context, path: string, entry: Entry): Response {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD') {
    const message = `Method ${method} is not allowed on ${path}; use GET or HEAD.`;
    const allow = { Allow: 'GET, HEAD' };
    return isApiPath(path) ? c.json({ error: message }, 405, allow) : c.text(message, 405, allow);
  }
  const variant = pickVariant(entry, c);
  if (variant.etag !== undefined) {
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, variant.etag)) {
      return markSecured(new Response(null, { status: 304, headers: variant.notModified }));
    }
  }
  return sendVariant(entry.status, variant);
}

function sendVariant(status: number, variant: Variant): Response {
  return markSecured(new Response(variant.body, { status, headers: variant.headers }));
}

function pickVariant(entry: Entry, c: Context): Variant {
  if (entry.br === undefined && entry.gzip === undefined) return entry.identity;
  const encoding = preferredEncoding(c.req.header('accept-encoding'));
  if (encoding === 'br') return entry.br ?? entry.gzip ?? entry.identity;
  if (encoding === 'gzip') return entry.gzip ?? entry.identity;
  return entry.identity;
}

function badPath(c: Context, path: string): Response {
  const message = 'Bad request path: it has malformed percent-encoding, a NUL or backslash, or a ".", ".." or empty segment.';
  return isApiPath(path) ? c.json({ error: message }, 400) : c.text(message, 400);
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** The decoded path of a request URL, or null when its percent-encoding is malformed. */
function requestPath(url: string): string | null {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  let end = url.indexOf('?', start);
  if (end === -1) end = url.length;
  const raw = url.slice(start, end);
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A decoded path that can only name something inside client/: no NUL, backslash, `.`/`..` or empty segment. */
function isSafePath(path: string): boolean {
  if (path.length > MAX_PATH_LENGTH || !path.startsWith('/')) return false;
  if (path.includes('\0') || path.includes('\\')) return false;
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '.' || segment === '..') return false;
    // An empty segment is only allowed last, as a trailing slash.
    if (segment === '' && i !== segments.length - 1) return false;
  }
  return true;
}

/** Files that may answer a path, in order: exact, directory index, `.html`, and `.json` under /api. */
function candidateFiles(path: string): string[] {
  const rel = path.slice(1);
  if (rel === '' || rel.endsWith('/')) return [`${rel}index.html`];
  const files = [rel, `${rel}/index.html`, `${rel}.html`];
  if (isApiPath(path) && !rel.endsWith('.json')) files.push(`${rel}.json`);
  return files;
}

/** Reads a regular file at `relative` below `root`, or null when it is missing or resolves outside root. */
async function readInside(root: string, relative: string): Promise<Buffer<ArrayBuffer> | null> {
  try {
    const real = await realpath(join(root, relative));
    if (!real.startsWith(root + sep)) return null;
    const handle = await open(real, 'r');
    try {
      if (!(await handle.stat()).isFile()) return null;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function buildEntry(
  bytes: Buffer<ArrayBuffer>,
  fileName: string,
  status: number,
  cacheControl: string,
  compress: boolean,
): Promise<Entry> {
  const media = mediaTypeFor(fileName);
  const tag = status === 200 ? createHash('sha256').update(bytes).digest('base64url').slice(0, 27) : undefined;
  let gzipped: Buffer<ArrayBuffer> | undefined;
  let brotli: Buffer<ArrayBuffer> | undefined;
  if (compress && media.compressible && bytes.byteLength >= MIN_COMPRESS_BYTES) {
    [gzipped, brotli] = await Promise.all([
      gzipAsync(bytes, { level: 9 }),
      brotliAsync(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.byteLength),
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      }),
    ]);
    if (gzipped.byteLength >= bytes.byteLength) gzipped = undefined;
    if (brotli.byteLength >= bytes.byteLength) brotli = undefined;
  }
  const common: Record<string, string> = { ...SECURITY_HEADERS, 'Cache-Control': cacheControl };
  if (gzipped !== undefined || brotli !== undefined) common.Vary = 'Accept-Encoding';
  const variant = (body: Buffer<ArrayBuffer>, encoding: Encoding): Variant => {
    const etag = tag === undefined ? undefined : `"${encoding === 'identity' ? tag : `${tag}-${encoding}`}"`;
    const withTag = etag === undefined ? common : { ...common, ETag: etag };
    const headers: Record<string, string> = { ...withTag, 'Content-Type': media.type, 'Content-Length': String(body.byteLength) };
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    return { body, headers: Object.freeze(headers), etag, notModified: Object.freeze(withTag) };
  };
  return {
    status,
    identity: variant(bytes, 'identity'),
    gzip: gzipped && variant(gzipped, 'gzip'),
    br: brotli && variant(brotli, 'br'),
    bytes: bytes.byteLength + (gzipped?.byteLength ?? 0) + (brotli?.byteLength ?? 0),
  };
}

/**
 * Brotli quality for a body compressed while its first request waits: 11 costs about four times 10 for a few
 * percent, and 10 on a 2 MB JSON would take seconds where 9 takes about 150 ms.
 */
function brotliQuality(size: number): number {
  return size <= 64 * 1024 ? 10 : 9;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && MISSING_CODES.has(String(error.code));
}
