/** What several e2e specs check on a page: its layout shifts and script errors, and the contrast of two colours. */
import type { Page } from '@playwright/test';

/** Records the page's layout shifts (none from input) from its first paint on in `window.shifts`; returns its script errors as they come. */
export async function watch(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.addInitScript(() => {
    (window as unknown as { shifts: number[] }).shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) (window as unknown as { shifts: number[] }).shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return errors;
}

/** WCAG contrast of two computed CSS colours (`rgb(...)`, or `rgba(...)` over an opaque background). */
export function contrastOf(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = css.match(/[\d.]+/g)!.slice(0, 3).map((v) => Number(v) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}
