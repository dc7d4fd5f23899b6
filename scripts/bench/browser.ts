/** The system Chromium, as every browser section of the bench drives it (no browser is ever downloaded). */
import { type Browser, type Page, chromium } from '@playwright/test';

/** The flags DESIGN.md gives for the system Chromium, plus headless. */
export const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Launches the system Chromium through Playwright. */
export function launchChromium(chromiumPath: string): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless=new') });
}

/** How long after load the bench waits for network idle: a page that polls or streams never gets there. */
export const NETWORK_IDLE_TIMEOUT_MS = 10_000;

/** Waits for network idle (500 ms without requests), at most NETWORK_IDLE_TIMEOUT_MS; says whether it got there. */
export async function settleNetwork(page: Page): Promise<boolean> {
  try {
    await page.waitForLoadState('networkidle', { timeout: NETWORK_IDLE_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}

/** How long the main thread must have run no long task for the page to count as settled. */
export const MAIN_THREAD_QUIET_MS = 1000;

/**
 * Waits until the page's main thread has run no long task (over 50 ms) for MAIN_THREAD_QUIET_MS, at most
 * NETWORK_IDLE_TIMEOUT_MS; says whether it got there. Network idle alone comes before the islands that hydrate after
 * the first paint have even loaded, at a slowed CPU.
 */
export async function settleMainThread(page: Page): Promise<boolean> {
  // A string, not a function: tsx would add its __name helper, which the page lacks.
  return page.evaluate<boolean>(`new Promise((resolve) => {
    let last = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) last = Math.max(last, entry.startTime + entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    const started = performance.now();
    const check = () => {
      const now = performance.now();
      if (now - last >= ${MAIN_THREAD_QUIET_MS}) resolve(true);
      else if (now - started > ${NETWORK_IDLE_TIMEOUT_MS}) resolve(false);
      else setTimeout(check, 100);
    };
    setTimeout(check, 100);
  })`);
}
