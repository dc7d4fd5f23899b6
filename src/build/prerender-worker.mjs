// @ts-check
/**
 * A prerender thread (src/build/parallel-prerender.mjs): loads the build's own prerender bundle, the same module
 * graph Astro renders with on its main thread, and renders the pages it is sent. It gives back each page's bytes;
 * Astro's main thread writes them, so the files, their order and Astro's log are as without it.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ entry: string; pages: [string, { styles: unknown[] }][]; scripts: { stage: string; content: string }[] }} */
const { entry, pages, scripts } = workerData;
const { app } = await import(entry);
// What the build environment reads while it renders: each page's stylesheets and the settings' inline scripts.
app.setInternals({ pagesByKeys: new Map(pages), entrySpecifierToBundleMap: new Map() });
app.setOptions({ settings: { scripts }, logger: { options: { destination: { write: () => true } } } });

/** @type {Map<string, unknown>} */
const routes = new Map(app.manifest.routes.map((/** @type {{ routeData: { route: string; component: string } }} */ { routeData }) => [`${routeData.component}\0${routeData.route}`, routeData]));

parentPort?.on('message', async (/** @type {{ id: number; url: string; route: string; component: string }} */ job) => {
  try {
    const routeData = routes.get(`${job.component}\0${job.route}`);
    if (routeData === undefined) throw new Error(`The prerender thread has no route ${job.route} (${job.component}).`);
    const response = await app.render(new Request(job.url), { routeData });
    const body = response.body === null ? null : await response.arrayBuffer();
    const headers = [...response.headers];
    parentPort?.postMessage({ id: job.id, status: response.status, statusText: response.statusText, headers, body }, body === null ? [] : [body]);
  } catch (error) {
    const { message, stack } = /** @type {Error} */ (error);
    parentPort?.postMessage({ id: job.id, error: { message: String(message ?? error), stack } });
  }
});
