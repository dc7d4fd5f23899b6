// The workbook reading thread (readWorkbookInThread in parse.ts). Plain JavaScript, so that it starts whatever runs
// the server (node with tsx, vitest): it loads the TypeScript through tsx's API, reads the workbook it is handed and
// sends its sheets back a batch of rows at a time, so that no one message takes the server long to unpack.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const ROWS_A_MESSAGE = 2000;
const { readWorkbook } = await tsImport('./parse.ts', import.meta.url);
try {
  const tables = await readWorkbook(workerData.bytes, workerData.limits);
  for (const table of tables) {
    parentPort.postMessage({ sheet: table.sheet });
    for (let at = 0; at < table.rows.length; at += ROWS_A_MESSAGE) parentPort.postMessage({ rows: table.rows.slice(at, at + ROWS_A_MESSAGE) });
  }
  parentPort.postMessage({ done: true });
} catch (error) {
  parentPort.postMessage({ problem: error?.name === 'ExportError' ? error.problem : null, message: String(error?.message ?? error) });
}
