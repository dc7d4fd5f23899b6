// The share images' drawing thread (startShareImages in share-images.ts). Plain JavaScript, so that it starts whatever
// runs the job (node with tsx, vitest): it loads the TypeScript through tsx's API, then draws what it is handed.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

// The lowest priority, for this thread only (Linux's nice is per thread: /proc/thread-self names it): the images are
// needed only at the end of the build, so they take what CPU the site data, `astro build` and the compression leave.
// Where there is no such file, or no right to lower it, the thread keeps the job's priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {
  // Another system: drawn at the job's priority.
}

const { drawShareImages } = await tsImport('./share-images.ts', import.meta.url);
drawShareImages(workerData, (done) => parentPort.postMessage(done));
