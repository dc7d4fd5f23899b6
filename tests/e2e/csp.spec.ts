/**
 * The pages run under a Content-Security-Policy without 'unsafe-inline' for scripts. In Chromium, no page
 * reports a violation, and what the inline scripts do still happens: the theme is applied before the first paint and
 * the islands hydrate.
 */
import { expect, test } from '@playwright/test';

for (const path of ['/', '/all-signals', '/heatmap', '/signal/AAPL', '/learn', '/archives', '/login']) {
  test(`${path} runs its scripts under a policy without 'unsafe-inline', with no violation`, async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    const response = await page.goto(path);
    const policy = response!.headers()['content-security-policy']!;
    expect(/script-src ([^;]*)/.exec(policy)![1]).not.toContain("'unsafe-inline'");
    // The inline theme script ran: dark is the default theme.
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });
}

test('islands hydrate under the policy (Astro\'s inline bootstrap is allowed by its hash)', async ({ page }) => {
  await page.goto('/signal/AAPL');
  // Astro removes `ssr` from an island once it has hydrated.
  await expect(page.locator('astro-island:not([ssr])').first()).toBeAttached();
});
