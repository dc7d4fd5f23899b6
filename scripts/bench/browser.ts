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
