/** The system Chromium, as every browser section of the bench drives it (no browser is ever downloaded). */
import { type Browser, chromium } from '@playwright/test';

/** The flags DESIGN.md gives for the system Chromium, plus headless. */
export const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Launches the system Chromium through Playwright. */
export function launchChromium(chromiumPath: string): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless=new') });
}
