/**
 * The static build (`${distDir}/client`) through @hono/node-server's serveStatic, which sends the `.br`/`.gz` files
 * the daily job writes beside each text file, and hono/etag, which answers a matching If-None-Match with a 304.
 * Around them, what the build's addresses need: the extensionless JSON of DESIGN.md "API routes", the not-found
 * pages with status 404, Cache-Control by kind of file, and the path checks that keep every answer inside client/.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { accepts } from 'hono/accepts';
import { etag, RETAINED_304_HEADERS } from 'hono/etag';
import { hiddenFromVisitors, NOT_FOUND_PAGE, notFoundPageFor } from '../lib/domain/site/routes';
import { isApiPath, refusal } from './errors';
import { readBuildInfo } from '../storage/site-index';
import { pagePolicy, SECURITY_HEADERS } from './security';

/** Where the build lives and which page answers a path with no file. */
export interface StaticSiteOptions {
  /** The build folder: `client/` holds the site. */
  distDir: string;
  /**
   * The page (a file below client/) that answers a path with no file, with status 404; default notFoundPageFor.
   * That page never answers its own address with a 200, and when a build lacks it, `404.html` answers.
   */
  notFoundPage?: (path: string) => string;
  /** How long an answer kept in memory is sent before its file is looked at again; default 1000 ms. */
  recheckMs?: number;
  /** The security headers a kept answer carries; default SECURITY_HEADERS (createApp passes its policy's). */
  securityHeaders?: Readonly<Record<string, string>>;
}

type StaticEnv = { Variables: { staticFile: string } };

/** Cache-Control of a hashed asset (its name changes with its content): a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of every other file and page: the browser asks again each time (a 304 while unchanged). */
export const REVALIDATE = 'public, max-age=0, must-revalidate';
/**
 * What a CDN sends for the same files (`_headers`): browsers still revalidate, the edge keeps a page a minute and
 * serves it while it fetches the new one, so a new day shows within minutes of the swap.
 */
export const EDGE_REVALIDATE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';
/** Where the hashed assets live. */
export const HASHED_ASSETS = '/_astro/';
/** Where the embeddable badges live: other sites show them on every view, so browsers and CDNs keep them a while. */
export const BADGES = '/badge/';
/** A badge changes once a report: a browser keeps it an hour, a CDN a day. */
export const BADGE_CACHE = 'public, max-age=3600, s-maxage=86400';
const MAX_PATH_LENGTH = 1024;
const INDEX = 'index.html';

/** The static site as a sub-app for every path the live API does not answer. */
export function staticSite(options: StaticSiteOptions): Hono<StaticEnv> {
  const root = join(options.distDir, 'client');
  const notFoundPageOf = options.notFoundPage ?? notFoundPageFor;
  const remember = (path: string, c: Context<StaticEnv>) => c.set('staticFile', path);
  // Made once the build exists: serveStatic warns when its root is missing, and the first `npm start` mounts this before its build.
  let serveFiles: MiddlewareHandler<StaticEnv> | undefined;
  const files: MiddlewareHandler<StaticEnv> = (c, next) => {
    if (serveFiles === undefined && !existsSync(root)) return next();
    return (serveFiles ??= serveStatic<StaticEnv>({ root, precompressed: true, rewriteRequestPath: apiJson, onFound: remember }))(c, next);
  };
  const pages = new Map<string, MiddlewareHandler>();

  /** The not-found page of a path with status 404 (compressed like any page, without an entity tag); JSON under /api. */
  async function notFound(c: Context<StaticEnv>, path: string): Promise<Response> {
    if (isApiPath(path)) throw refusal(404, `Not found: ${path}`);
    // No build yet: no page to send (and serveStatic would warn of the missing root).
    const candidates = existsSync(root) ? [notFoundPageOf(path), NOT_FOUND_PAGE] : [];
    for (const file of new Set(candidates)) {
      let serve = pages.get(file);
      if (serve === undefined) pages.set(file, (serve = serveStatic({ root, path: file, precompressed: true })));
      const page = await serve(c, async () => undefined);
      if (page instanceof Response) return policy.apply(finish(new Response(page.body, { status: 404, headers: page.headers }), REVALIDATE));
    }
    return c.text('Page not found.', 404, { 'Cache-Control': REVALIDATE });
  }

  const headers = options.securityHeaders ?? SECURITY_HEADERS;
  const memory = new AnswerMemory(options.recheckMs ?? 1000, headers);
  const policy = new PagePolicy(options.distDir, options.recheckMs ?? 1000, headers['content-security-policy']!);
  const answerFile: MiddlewareHandler<StaticEnv> = async (c, next) => {
    const path = safePath(c.req.url);
    if (namesPage(path, notFoundPageOf(path)) || hiddenFromVisitors(path)) return notFound(c, path);
    preferEncoding(c);
    const key = c.req.header('Range') === undefined ? `${path}\n${c.req.header('Accept-Encoding') ?? ''}` : undefined;
    const kept = key === undefined ? undefined : memory.get(key);
    if (kept !== undefined) return new Response(c.req.method === 'HEAD' ? null : kept.body, { headers: kept.headers });
    if (escapesRoot(root, join(root, apiJson(path)))) return notFound(c, path);
    await next();
    const file = c.get('staticFile');
    if (file === undefined) return;
    await policy.apply(finish(c.res, path.startsWith(HASHED_ASSETS) ? IMMUTABLE : path.startsWith(BADGES) ? BADGE_CACHE : REVALIDATE)).then((answer) => answer.headers.set('ETag', entityTag(file) ?? ''));
    if (key !== undefined && c.req.method === 'GET' && c.res.status === 200) c.res = await memory.keep(key, file, c.res);
  };

  return new Hono<StaticEnv>()
    // A 304 keeps the page's policy: a browser updates its cached page's headers from it, and the general policy
    // would then block the page's inline scripts on a reload.
    .on(['GET', 'HEAD'], '*', etag({ retainedHeaders: [...RETAINED_304_HEADERS, 'content-security-policy'] }), answerFile, files, (c) => notFound(c, c.req.path))
    .all('*', (c) => {
      throw refusal(405, `Method ${c.req.method} is not allowed on ${c.req.path}; use GET or HEAD.`, { Allow: 'GET, HEAD' });
    });
}

/** An /api address without an extension names its `.json` file (`/api/stock/AAPL` is `api/stock/AAPL.json`). */
function apiJson(path: string): string {
  return isApiPath(path) && !path.endsWith('.json') ? `${path}.json` : path;
}

/** Cache-Control, Vary and a JSON type with its charset, as every file and page answer has them. */
function finish(answer: Response, cacheControl: string): Response {
  const headers = answer.headers;
  headers.set('Cache-Control', cacheControl);
  // Every variant names the header it was chosen by, the uncompressed one too.
  if (!headers.has('Vary')) headers.set('Vary', 'Accept-Encoding');
  if (headers.get('Content-Type') === 'application/json') headers.set('Content-Type', 'application/json; charset=utf-8');
  return answer;
}

/** A strong entity tag from the file's identity (inode, modification time in nanoseconds, size), or null when it is gone. */
function entityTag(file: string): string | null {
  const stats = statSync(file, { bigint: true, throwIfNoEntry: false });
  return stats === undefined ? null : `"${stats.ino.toString(16)}-${stats.mtimeNs.toString(16)}-${stats.size.toString(16)}"`;
}

/**
 * A file answer kept in memory, by path and Accept-Encoding. Its headers object is shared by every answer sent from
 * it: building one per answer measured as the largest cost of a kept answer, and what runs after it (hono/etag,
 * hono/secure-headers) only reads it or sets a value it already holds.
 */
interface KeptAnswer {
  file: string;
  body: Uint8Array<ArrayBuffer>;
  headers: Headers;
  checkedAt: number;
}

const MEMORY_BYTES = 64 * 1024 * 1024;
const MEMORY_ENTRY_BYTES = 1024 * 1024;

/**
 * Small file answers kept in memory. serveStatic opens, reads and closes the file on libuv's pool for every
 * request, which alone kept /api/stock/AAPL far below its throughput budget (bench/RESULTS.md, "API throughput"); with this
 * memory it meets it. A kept answer is sent as it is,
 * with the security headers in, and its file is looked at again (one stat: is it still the one kept?) at most
 * once per `recheckMs`, so a new build is served within that time.
 */
class AnswerMemory {
  private readonly answers = new Map<string, KeptAnswer>();
  private bytes = 0;

  constructor(
    private readonly recheckMs: number,
    private readonly securityHeaders: Readonly<Record<string, string>>,
  ) {}

  /** The kept answer while its file is unchanged. */
  get(key: string): KeptAnswer | undefined {
    const kept = this.answers.get(key);
    if (kept === undefined) return undefined;
    const now = Date.now();
    if (now - kept.checkedAt < this.recheckMs) return kept;
    if (entityTag(kept.file) === kept.headers.get('ETag')) {
      kept.checkedAt = now;
      return kept;
    }
    this.drop(key, kept);
    return undefined;
  }

  /** Reads a small answer into memory and returns it as a new answer; a large one is returned as it is. */
  async keep(key: string, file: string, answer: Response): Promise<Response> {
    if (!(Number(answer.headers.get('Content-Length')) <= MEMORY_ENTRY_BYTES)) return answer;
    const headers = new Headers({ ...this.securityHeaders, ...Object.fromEntries(answer.headers) });
    const kept: KeptAnswer = { file, body: new Uint8Array(await answer.arrayBuffer()), headers, checkedAt: Date.now() };
    const old = this.answers.get(key);
    if (old !== undefined) this.drop(key, old);
    this.answers.set(key, kept);
    this.bytes += kept.body.byteLength;
    for (const [oldest, entry] of this.answers) {
      if (this.bytes <= MEMORY_BYTES) break;
      this.drop(oldest, entry);
    }
    return new Response(kept.body, { headers: kept.headers });
  }

  private drop(key: string, kept: KeptAnswer): void {
    this.answers.delete(key);
    this.bytes -= kept.body.byteLength;
  }
}

/**
 * The Content-Security-Policy of the build's pages: the security policy with the inline-script hashes the daily job
 * recorded in build.json, read again at most once per `recheckMs` so a new build's scripts are allowed with it.
 */
class PagePolicy {
  private value: string | null = null;
  private readAt = 0;

  constructor(
    private readonly distDir: string,
    private readonly recheckMs: number,
    private readonly basePolicy: string,
  ) {}

  /** Sets the page policy on an HTML answer (other answers keep the general one) and returns the answer. */
  async apply(answer: Response): Promise<Response> {
    if (!(answer.headers.get('Content-Type') ?? '').startsWith('text/html')) return answer;
    if (this.value === null || Date.now() - this.readAt >= this.recheckMs) {
      this.value = pagePolicy(this.basePolicy, (await readBuildInfo(this.distDir))?.scriptHashes ?? []);
      this.readAt = Date.now();
    }
    answer.headers.set('Content-Security-Policy', this.value);
    return answer;
  }
}

/** Whether the path is a not-found page's own address (`/404.html`, `/signal/`, `/signal`), which answers 404. */
function namesPage(path: string, page: string): boolean {
  if (path === `/${page}`) return true;
  if (!page.endsWith(`/${INDEX}`)) return false;
  const folder = `/${page.slice(0, -INDEX.length)}`;
  return path === folder || path === folder.slice(0, -1);
}

/** Whether the file, or the index.html of the folder, resolves outside client/ (a symlink): those are not served. */
function escapesRoot(root: string, target: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return false;
  }
  return [target, join(target, INDEX)].some((file) => {
    try {
      const real = realpathSync.native(file);
      return real !== realRoot && !real.startsWith(realRoot + sep);
    } catch {
      // Missing: serveStatic answers it.
      return false;
    }
  });
}

/**
 * The request's decoded path, refused with a 400 when it could name something outside client/: malformed
 * percent-encoding, a NUL or backslash, a `.` or `..` segment, or an empty one other than a trailing slash.
 */
function safePath(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  const end = url.indexOf('?', start);
  const raw = url.slice(start, end === -1 ? url.length : end);
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw badPath();
  }
  const segments = path.split('/');
  const last = segments.length - 1;
  if (path.length > MAX_PATH_LENGTH || /[\0\\]/.test(path) || segments.some((s, i) => s === '.' || s === '..' || (s === '' && i !== 0 && i !== last))) throw badPath();
  return path;
}

function badPath(): Error {
  return refusal(400, 'Bad request path: it has malformed percent-encoding, a NUL or backslash, or a ".", ".." or empty segment.');
}

/**
 * serveStatic picks a `.br`, then a `.gz`, by the codings' names alone; with q-values or `*` in Accept-Encoding,
 * it is told the one coding the client prefers: the higher q of br and gzip, br on a tie.
 */
function preferEncoding(c: Context): void {
  const header = c.req.header('Accept-Encoding');
  if (header === undefined || !/[;*]/.test(header)) return;
  const coding = accepts(c, {
    header: 'Accept-Encoding',
    supports: ['br', 'gzip'],
    default: 'identity',
    match: (accepted) => {
      const q = (name: string) => (accepted.find((a) => a.type.toLowerCase() === name) ?? accepted.find((a) => a.type === '*'))?.q ?? 0;
      const br = q('br');
      const gzip = q('gzip');
      return br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : 'identity';
    },
  });
  c.req.raw.headers.set('Accept-Encoding', coding);
}
