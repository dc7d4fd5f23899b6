// @ts-check
/**
 * Astro renders the static pages one after another on one thread, and waits for each page's file to be written
 * before it asks for the next. At thousands of stock pages that one thread is the daily build's longest stage. This
 * prerenderer renders ahead of Astro: on prerender threads (src/build/prerender-worker.mjs), each loading the build's
 * own prerender bundle, while Astro's thread writes what they rendered; with none, the next page on Astro's thread
 * while it writes. Astro still asks for every page in its order and writes every file itself, so the pages, the files
 * and the log are the same with any number of threads.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Pages in flight on one thread: one rendering, one waiting, so a thread never idles for its next page. */
const PER_THREAD = 2;

/**
 * @typedef {import('astro').AstroPrerenderer} AstroPrerenderer
 * @typedef {import('astro').RouteData} RouteData
 * @typedef {{ id: number; error?: { message: string; stack?: string }; status?: number; statusText?: string; headers?: [string, string][]; body?: ArrayBuffer | null }} Reply
 * @typedef {{ worker: Worker; load: number; broken: Error | null; waiting: Map<number, { resolve: (r: Response) => void; reject: (e: Error) => void }> }} Thread
 */

/** The folder Astro writes its prerender bundle to (astro/dist/prerender/utils.js: inside the project, else `.astro/`). */
function prerenderFolder(/** @type {URL} */ outDir) {
  const cwd = process.cwd();
  const base = fileURLToPath(outDir).startsWith(cwd) ? outDir : new URL('./.astro/', pathToFileURL(`${cwd}/`));
  return new URL('./.prerender/', base);
}

/** The address Astro asks a page under: a page's path with a trailing slash (build.format 'directory'), an endpoint's as it is. */
function addressOf(/** @type {{ pathname: string; route: RouteData }} */ { pathname, route }) {
  return (route.type === 'page' || route.type === 'redirect') && pathname !== '/' ? `${pathname.replace(/\/$/, '')}/` : pathname;
}

/** @param {{ threads: number }} options */
export function parallelPrerender({ threads }) {
  /** @type {URL | undefined} */
  let outDir;
  /** @type {Map<string, { styles: unknown[] }> | undefined} */
  let pagesByKeys;
  return {
    name: 'c-score:parallel-prerender',
    hooks: {
      /** @param {{ config: { outDir: URL } }} options */
      'astro:config:done': ({ config }) => {
        outDir = config.outDir;
      },
      // The build's page table: by the time pages render it holds each page's stylesheets, which a thread needs.
      /** @param {{ pages: Map<string, { styles: unknown[] }> }} options */
      'astro:build:setup': ({ pages }) => {
        pagesByKeys = pages;
      },
      /** @param {{ setPrerenderer: (make: (base: AstroPrerenderer) => AstroPrerenderer) => void; logger: import('astro').AstroIntegrationLogger }} options */
      'astro:build:start': ({ setPrerenderer, logger }) =>
        setPrerenderer((base) => {
          /** @type {{ pathname: string; route: RouteData }[]} */
          let paths = [];
          /** @type {Map<string, number>} */
          const at = new Map();
          /** Pages asked ahead of Astro, by address: Astro takes a Response or the default prerenderer's result. @type {Map<string, Promise<any>>} */
          const ahead = new Map();
          let onAstroThread = 0;
          /** @type {Thread[]} */
          const pool = [];
          let nextId = 0;
          let onThreads = 0;
          let origin = 'http://localhost';

          function startThreads() {
            if (threads < 1 || outDir === undefined || pagesByKeys === undefined) return;
            const app = /** @type {{ app?: { getSettings(): { scripts: { stage: string; content: string }[] } } }} */ (/** @type {unknown} */ (base)).app;
            const scripts = app?.getSettings().scripts ?? [];
            const folder = prerenderFolder(outDir);
            const entries = readdirSync(folder).filter((name) => /^prerender-entry\b.*\.mjs$/.test(name));
            // A page script is found through the build's bundle map, which a thread does not have.
            if (entries.length !== 1 || scripts.some((script) => script.stage === 'page')) {
              logger.warn(`Rendering on Astro's thread only: ${entries.length === 1 ? 'the build has page scripts' : `found ${entries.length} prerender entries in ${fileURLToPath(folder)}`}.`);
              return;
            }
            const workerData = {
              entry: new URL(/** @type {string} */ (entries[0]), folder).href,
              pages: [...pagesByKeys].map(([key, page]) => [key, { styles: page.styles }]),
              scripts: scripts.map(({ stage, content }) => ({ stage, content })),
            };
            for (let i = 0; i < threads; i += 1) {
              const worker = new Worker(new URL('./prerender-worker.mjs', import.meta.url), { workerData });
              /** @type {Thread} */
              const thread = { worker, load: 0, broken: null, waiting: new Map() };
              worker.on('message', (/** @type {Reply} */ reply) => {
                const job = thread.waiting.get(reply.id);
                if (job === undefined) return;
                thread.waiting.delete(reply.id);
                thread.load -= 1;
                if (reply.error) job.reject(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
                else job.resolve(new Response(reply.body ?? null, { status: reply.status, statusText: reply.statusText, headers: reply.headers }));
              });
              // A thread that dies takes no more pages; the ones it held are rendered on Astro's thread when asked for.
              const fail = (/** @type {Error} */ error) => {
                thread.broken = Object.assign(error, { threadDied: true });
                for (const job of thread.waiting.values()) job.reject(error);
                thread.waiting.clear();
              };
              worker.on('error', fail);
              worker.on('exit', (code) => code !== 0 && fail(new Error(`A prerender thread stopped (exit code ${code}).`)));
              pool.push(thread);
            }
          }

          /** @param {{ pathname: string; route: RouteData }} path */
          function renderOnThread(path, /** @type {Thread} */ thread) {
            const id = (nextId += 1);
            thread.load += 1;
            onThreads += 1;
            const url = new URL(addressOf(path), origin).href;
            return new Promise((resolve, reject) => {
              thread.waiting.set(id, { resolve, reject });
              thread.worker.postMessage({ id, url, route: path.route.route, component: path.route.component });
            });
          }

          /** Starts the pages after `index` that are not started yet, while a thread (else Astro's own) has room. */
          function fillAhead(/** @type {number} */ index) {
            const window = pool.length * PER_THREAD + 1;
            for (let i = index + 1; i <= index + window && i < paths.length; i += 1) {
              const path = /** @type {{ pathname: string; route: RouteData }} */ (paths[i]);
              const address = addressOf(path);
              if (ahead.has(address)) continue;
              // Only what Astro asks the same way: pages and endpoints rendered without incremental-build metadata.
              if (!path.route.prerender || (path.route.type !== 'page' && path.route.type !== 'endpoint')) break;
              const thread = pool.find((t) => t.broken === null && t.load < PER_THREAD);
              /** @type {Promise<unknown>} */
              let rendered;
              if (thread !== undefined) rendered = renderOnThread(path, thread);
              else if (pool.length === 0 && onAstroThread === 0) {
                onAstroThread += 1;
                rendered = base.render(new Request(new URL(address, origin)), { routeData: path.route, collectMetadata: false });
                rendered.finally(() => (onAstroThread -= 1)).catch(() => undefined);
              } else break;
              // A failure is Astro's to report when it asks for that page, not an unhandled rejection now.
              rendered.catch(() => undefined);
              ahead.set(address, rendered);
            }
          }

          return {
            name: 'c-score:parallel-prerender',
            async setup() {
              await base.setup?.();
              startThreads();
            },
            async teardown() {
              if (pool.length > 0) logger.info(`${onThreads} of ${paths.length} pages rendered on ${pool.length} prerender thread(s).`);
              await Promise.all(pool.map((thread) => thread.worker.terminate()));
              await base.teardown?.();
            },
            async getStaticPaths() {
              paths = await base.getStaticPaths();
              paths.forEach((path, i) => at.set(addressOf(path), i));
              return paths;
            },
            render(request, options) {
              const url = new URL(request.url);
              origin = url.origin;
              const started = ahead.get(url.pathname);
              ahead.delete(url.pathname);
              const rendered = started?.catch((error) => (error?.threadDied ? base.render(request, options) : Promise.reject(error))) ?? base.render(request, options);
              if (!options.collectMetadata) fillAhead(at.get(url.pathname) ?? -2);
              return rendered;
            },
          };
        }),
    },
  };
}
