/** The screener section: a screen over the big build in Chromium at 4x CPU slowdown, and the server's rendered answer under load. */
import type { Browser } from '@playwright/test';
import { settleNetwork } from './browser';
import { loadTool, measure as loadRun } from './api';
import { type BenchContext, type Figure, type FigureInput, figure, median, round } from './figures';

/** C-Score ranges typed in turn: each run changes the result. */
const RANGES = ['40..', '..-40', '0..', '65..', '..0', '-20..20', '80..'];
const CPU_SLOWDOWN = 4;
/** The server's answer under load: a shared screen (bullish, fastest risers first). */
export const SCREENER_LOAD_PATH = '/screener?cscore=65..&sort=-change';

/** How the section measures, once for the table's header. */
export const SCREENER_NOTE =
  `On the 6,000-ticker build (503 with --quick) served by \`npm start\`. In the browser: /screener (the static page, every row and its data) in the system Chromium with ` +
  `DevTools CPU throttling at ${CPU_SLOWDOWN}x, after load + network idle; the C-Score range field is set to ${RANGES.map((r) => `"${r}"`).join(', ')} in turn and an input event dispatched, first as the page opens (at 1280 x 720 the form fills the view and the table starts below it), then in reverse order with the table scrolled into view; ` +
  'the time is the main thread\'s work from the dispatch to the table updated on screen: the input\'s own task (the page script runs the screen and updates the row window and the count) plus the next frame, from its start ' +
  '(animation-frame callbacks) until its style, layout and paint are done (a task posted from that frame runs). The wait for the frame between the two is not counted. ' +
  `Rows that come into the table are styled and laid out in that frame (content-visibility), so a forced layout at the end of the input's task does not see them. Median of ${RANGES.length} each. ` +
  `On the server: ${SCREENER_LOAD_PATH} (the server-rendered result, no JavaScript needed) loaded as the API section loads its routes (same tool, connections, warm-up and duration).`;

/**
 * Dispatches the input and resolves with the main thread's work until the table is on screen: [the input's own task,
 * the next frame]. The frame's callback is asked for first, so it runs before the page's own in that frame.
 */
function inputToFrame(value: string): Promise<[number, number]> {
  const input = document.querySelector<HTMLInputElement>('input[name="cscore"]')!;
  return new Promise((resolve) => {
    let task = 0;
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      // A task posted now runs once the frame's rendering work is done.
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve([task, performance.now() - frameStart]);
      channel.port2.postMessage(null);
    });
    const started = performance.now();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    task = performance.now() - started;
  });
}

export async function screenerSection(ctx: BenchContext, origin: string, tickers: number, browser: Browser): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('screener', input));
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  try {
    const response = await page.goto(`${origin}/screener`, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`/screener answered ${response?.status()}`);
    await settleNetwork(page);
    await page.waitForSelector('[data-screen-csv]:not([hidden])');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addScriptTag({ content: `var __name = (f) => f;\n${inputToFrame.toString()}` });
    // First as the page opens (the form fills the view, the table starts below it), then with the table's rows in view.
    for (const inView of [false, true]) {
      if (inView) await page.evaluate(() => document.querySelector('#screener')!.scrollIntoView());
      const times: number[] = [];
      const tasks: number[] = [];
      const counts: string[] = [];
      for (const range of inView ? [...RANGES].reverse() : RANGES) {
        const [task, frame] = await page.evaluate((v) => inputToFrame(v), range);
        tasks.push(task);
        times.push(task + frame);
        counts.push((await page.locator('[data-screen-count]').textContent()) ?? '');
      }
      const where = inView ? ', the table in view' : '';
      const runs = times.map((t, i) => `${round(t, 1)} (task ${round(tasks[i]!, 1)})`).join(', ');
      ctx.log(`  /screener${where}: ${runs} ms; ${counts.join('; ')}`);
      add({
        name: `screen ${tickers} stocks at ${CPU_SLOWDOWN}x CPU slowdown: input to updated table on screen${where}`,
        value: round(median(times), 1),
        unit: 'ms',
        budget: { op: '<=', limit: 16 },
        method: `C-Score range typed in /screener${where}; runs (the input's own task in brackets): ${runs}; results: ${counts.join('; ')}`,
      });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  } finally {
    await context.close();
  }

  const seconds = ctx.quick ? 3 : 10;
  const tool = loadTool();
  const url = origin + SCREENER_LOAD_PATH;
  const first = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  const rows = (await first.text()).match(/<tr data-t="/g)?.length ?? 0;
  if (first.status !== 200) {
    add({ name: `server-rendered ${SCREENER_LOAD_PATH}: requests/s`, value: null, unit: 'req/s', budget: { op: '>=', limit: 1000 }, method: tool.name, missing: `not available (${first.status})` });
    return figures;
  }
  const result = await loadRun(tool, url, seconds);
  ctx.log(`  ${SCREENER_LOAD_PATH}: ${rows} rows, ${Math.round(result.requestsPerSecond)} req/s, p99 ${round(result.p99Ms, 2)} ms, ${result.errors} errors`);
  const method = `${tool.name}, 50 connections, ${seconds} s, Accept-Encoding: gzip; ${rows} rows of ${tickers} in the answer`;
  add({ name: `server-rendered ${SCREENER_LOAD_PATH} over ${tickers} stocks: requests/s`, value: Math.round(result.requestsPerSecond), unit: 'req/s', budget: { op: '>=', limit: 1000 }, method });
  add({ name: `server-rendered ${SCREENER_LOAD_PATH}: p99 latency`, value: round(result.p99Ms, 2), unit: 'ms', method });
  add({ name: `server-rendered ${SCREENER_LOAD_PATH}: errors`, value: result.errors, unit: 'requests', budget: { op: '=', limit: 0 }, method });
  return figures;
}
