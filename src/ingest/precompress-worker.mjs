// A compression thread (CompressionPool in precompress.ts). Plain JavaScript, so that it starts whatever runs the job
// (node with tsx, vitest): it loads the TypeScript through tsx's API, then compresses each file it is handed.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

// Files handed over while the TypeScript loads wait in the port's queue until the listener below is added.
const { compressFile } = await tsImport('./precompress.ts', import.meta.url);
parentPort.on('message', ({ id, task }) => {
  try {
    parentPort.postMessage({ id, outcome: compressFile(task) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
