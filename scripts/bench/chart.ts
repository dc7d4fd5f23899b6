/**
 * The stock page's live chart and main-thread work, in Chromium at 4x CPU slowdown: the library's bytes when it
 * loads, the time from scrolling the trend card into view to a drawn interactive chart, and the page's long tasks
 * before any interaction.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { MAIN_THREAD_QUIET_MS, settleMainThread, settleNetwork } from './browser';
import { type FigureInput, median, round } from './figures';

const RUNS = 3;
const CPU_SLOWDOWN = 4;
/** A short window, so the trend card starts beyond the island's margin below the fold. */
const SHORT_VIEWPORT = { width: 1280, height: 500 };
/** Lighthouse's mobile screen. */
const PHONE_VIEWPORT = { width: 412, height: 823 };
const DRAWN = '[data-testid=trend-chart][data-drawn=true]';

async function slowed(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return page;
}

/** Gzip bytes of the scripts the page fetches once the trend card is scrolled into view: the chart's module alone, and all. */
async function libraryBytes(browser: Browser, url: string): Promise<{ kb: number; files: number; libraryKb: number } | null> {
  const context = await browser.newContext({ viewport: SHORT_VIEWPORT, extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await settleNetwork(page);
    let bytes = 0;
    let files = 0;
    let library = 0;
    const pending: Promise<void>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      pending.push(
        request.sizes().then((sizes) => {
          bytes += sizes.responseBodySize;
          files += 1;
          // The chart's own module and the library's chunk, which the bundler may name after either.
          if (/\/(live-chart|lightweight-charts)[.-]/.test(request.url())) library += sizes.responseBodySize;
        }),
      );
    });
    await page.locator('[data-testid=trend-chart]').scrollIntoViewIfNeeded();
    await page.waitForSelector(DRAWN, { timeout: 15_000 });
    await settleNetwork(page);
    await Promise.all(pending);
    return { kb: round(bytes / 1024, 1), files, libraryKb: round(library / 1024, 1) };
  } finally {
    await context.close();
  }
}

/** The stock page in the short window at 4x CPU, loaded and settled: its own islands have run, so a figure is the chart's. */
async function settledPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await slowed(context);
  await page.goto(url, { waitUntil: 'load' });
  await settleNetwork(page);
  await settleMainThread(page);
  await settleNetwork(page);
  return page;
}

/** Milliseconds from scrolling the card into view to the chart drawn by the library and a frame painted. */
async function scrollToInteractive(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: SHORT_VIEWPORT });
  try {
    const page = await settledPage(context, url);
    // A string, not a function: tsx would add its __name helper, which the page lacks.
    return await page.evaluate<number>(`new Promise((resolve, reject) => {
      const chart = document.querySelector('[data-testid=trend-chart]');
      if (!chart) return reject(new Error('the page has no trend chart'));
      const started = performance.now();
      new MutationObserver((_, observer) => {
        if (!document.querySelector(${JSON.stringify(DRAWN)})) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
      }).observe(chart, { attributes: true, attributeFilter: ['data-drawn'] });
      chart.scrollIntoView({ block: 'center' });
      setTimeout(() => reject(new Error('the chart was not drawn within 15 s')), 15000);
    })`);
  } finally {
    await context.close();
  }
}

/** The page's long tasks (over 50 ms) from navigation to load + network idle + 1 s, with no interaction. */
async function longTasks(browser: Browser, url: string): Promise<{ total: number; blocking: number; count: number }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
  try {
    await context.addInitScript({
      content: 'window.benchLongTasks = []; new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.benchLongTasks.push(entry.duration); }).observe({ type: "longtask", buffered: true });',
    });
    const page = await slowed(context);
    await page.goto(url, { waitUntil: 'load' });
    await settleNetwork(page);
    await page.waitForTimeout(1000);
    const tasks = await page.evaluate<number[]>('window.benchLongTasks');
    return { total: tasks.reduce((a, b) => a + b, 0), blocking: tasks.reduce((a, b) => a + Math.max(0, b - 50), 0), count: tasks.length };
  } finally {
    await context.close();
  }
}

/** A reader's wheel: a notch of 100 px every 100 ms (1,000 px/s), over the page's right column, clear of the chart. */
const WHEEL_NOTCH = 100;
const WHEEL_EVERY_MS = 100;
const WHEEL_AT = { x: SHORT_VIEWPORT.width - 30, y: SHORT_VIEWPORT.height / 2 };

/**
 * Milliseconds from the card's first pixel entering the viewport to the chart drawn by the library and a frame
 * painted (0 when it was ready before), the page scrolled from the top by the wheel at a reader's pace until the card
 * is centred. Wheel scrolling runs on the compositor, so a busy main thread does not slow the scroll down.
 */
async function readerScrollToInteractive(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: SHORT_VIEWPORT });
  try {
    const page = await settledPage(context, url);
    const distance = await page.evaluate<number>(`(() => {
      const chart = document.querySelector('[data-testid=trend-chart]');
      if (!chart) throw new Error('the page has no trend chart');
      window.benchEntered = null;
      window.benchDrawn = null;
      new IntersectionObserver((entries, observer) => {
        const entry = entries.find((e) => e.isIntersecting);
        if (!entry) return;
        window.benchEntered = entry.time;
        observer.disconnect();
      }).observe(chart);
      const drawn = () => requestAnimationFrame(() => setTimeout(() => { window.benchDrawn = performance.now(); }, 0));
      if (document.querySelector(${JSON.stringify(DRAWN)})) drawn();
      else new MutationObserver((_, observer) => {
        if (!document.querySelector(${JSON.stringify(DRAWN)})) return;
        observer.disconnect();
        drawn();
      }).observe(chart, { attributes: true, attributeFilter: ['data-drawn'] });
      const box = chart.getBoundingClientRect();
      return box.top + box.height / 2 - innerHeight / 2;
    })()`);
    await page.mouse.move(WHEEL_AT.x, WHEEL_AT.y);
    for (let scrolled = 0; scrolled < distance; scrolled += WHEEL_NOTCH) {
      await page.mouse.wheel(0, WHEEL_NOTCH);
      await page.waitForTimeout(WHEEL_EVERY_MS);
    }
    await page.waitForFunction('window.benchEntered !== null && window.benchDrawn !== null', null, { timeout: 15_000 });
    return await page.evaluate<number>('Math.max(0, window.benchDrawn - window.benchEntered)');
  } finally {
    await context.close();
  }
}

/** The chart's figures for the stock page at `url`. */
export async function chartFigures(browser: Browser, url: string, path: string): Promise<FigureInput[]> {
  const figures: FigureInput[] = [];
  const library = await libraryBytes(browser, url);
  const how = `Chromium, ${SHORT_VIEWPORT.width}x${SHORT_VIEWPORT.height}, Accept-Encoding gzip: script responses after load + network idle, from scrolling the trend card into view to the chart drawn and the network idle`;
  figures.push({ name: `${path}: chart library JS gzip, loaded on scroll`, value: library?.libraryKb ?? null, unit: 'KB', method: `${how}: the live-chart chunk (lightweight-charts and the chart module)` });
  figures.push({ name: `${path}: all JS gzip loaded on scroll to the chart`, value: library?.kb ?? null, unit: 'KB', method: `${how}: every script (${library?.files ?? 0} file(s); React and the island's own when no island ran before)` });
  const settled = `loaded, network idle, then no long task for ${MAIN_THREAD_QUIET_MS} ms`;
  const read: number[] = [];
  for (let i = 0; i < RUNS; i++) read.push(await readerScrollToInteractive(browser, url));
  figures.push({
    name: `${path}: scroll to interactive chart, ${CPU_SLOWDOWN}x CPU`,
    value: round(median(read), 0),
    unit: 'ms',
    budget: { op: '<=', limit: 300 },
    method: `Chromium ${SHORT_VIEWPORT.width}x${SHORT_VIEWPORT.height}, ${CPU_SLOWDOWN}x CPU slowdown (CDP), fresh context each run (${settled}): the wheel scrolls from the top at ${WHEEL_NOTCH} px every ${WHEEL_EVERY_MS} ms until the card is centred; from the card's first pixel in view (IntersectionObserver time) to its data-drawn="true" and the next frame, 0 if drawn before; median of ${RUNS}: ${read.map((t) => round(t, 0)).join(', ')} ms`,
  });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await scrollToInteractive(browser, url));
  figures.push({
    name: `${path}: jump to the chart (scrollIntoView) to interactive, ${CPU_SLOWDOWN}x CPU`,
    value: round(median(times), 0),
    unit: 'ms',
    method: `Chromium, ${CPU_SLOWDOWN}x CPU slowdown (CDP), fresh context each run: from scrollIntoView of the card (${settled}) to its data-drawn="true" and the next frame, no scroll before: every step of the chart's start after the jump; median of ${RUNS}: ${times.map((t) => round(t, 0)).join(', ')} ms`,
  });
  const runs: { total: number; blocking: number; count: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await longTasks(browser, url));
  const middle = [...runs].sort((a, b) => a.total - b.total)[Math.floor(RUNS / 2)]!;
  figures.push({
    name: `${path}: long tasks before interaction, ${CPU_SLOWDOWN}x CPU`,
    value: round(middle.total, 0),
    unit: 'ms',
    method: `Chromium, ${PHONE_VIEWPORT.width}x${PHONE_VIEWPORT.height} mobile, ${CPU_SLOWDOWN}x CPU slowdown: the sum of PerformanceObserver longtask durations from navigation to load + network idle + 1 s, no interaction; median run of ${RUNS} (${middle.count} task(s), ${round(middle.blocking, 0)} ms over 50 ms each); runs: ${runs.map((r) => round(r.total, 0)).join(', ')} ms`,
  });
  return figures;
}
