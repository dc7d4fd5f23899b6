/**
 * Own alert rules, the per-stock feeds and the installable site in Chromium against the real demo server: the
 * stock page's Alerts panel creates a threshold rule (and shows the server's refusal of a bad one on its field); the
 * browser finds the manifest (no installability error) and the service worker, under the site's CSP; the worker's
 * cache holds the app shell only, and the offline page names the last report seen, never a score.
 */
import { expect, test } from '@playwright/test';

test('the Alerts panel creates a threshold rule, and a bad value is refused on its field', async ({ page }) => {
  test.slow();
  const email = `rules-${Date.now()}@example.com`;
  await page.goto('/login?returnTo=%2Fsignal%2FAAPL');
  const ways = page.getByRole('navigation', { name: 'Ways in' });
  await ways.getByRole('link', { name: 'Create an account' }).click();
  const signUp = page.getByRole('region', { name: 'Create an account' });
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill('a long enough password');
  await signUp.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/#sign-up-sent$/);
  await ways.getByRole('link', { name: 'Sign in' }).click();
  const signIn = page.getByRole('region', { name: 'Sign in with your password' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill('a long enough password');
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/signal\/AAPL$/);
  await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');

  await page.getByTestId('alerts-toggle').click();
  const panel = page.getByRole('region', { name: 'Alerts' });
  const rules = panel.getByTestId('alert-rules');
  await expect(rules.getByText('No rules on AAPL yet.')).toBeVisible();
  await rules.getByLabel('When').selectOption('above');
  await rules.getByLabel('Value').fill('150');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByTestId('alert-rule-form').getByRole('status')).toHaveText('Error: value must be a number from -100 to 100 for a "above" rule.');
  await expect(rules.getByLabel('Value')).toHaveAttribute('aria-invalid', 'true');

  await rules.getByLabel('When').selectOption('above');
  await rules.getByLabel('Value').fill('70');
  const created = page.waitForResponse((r) => r.url().endsWith('/api/alert-rules') && r.request().method() === 'POST');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  expect((await created).status()).toBe(201);
  await expect(rules.getByRole('listitem')).toHaveText([/^AAPL: C-Score crosses above 70/]);
  await expect(rules.getByTestId('alert-rule-form').getByRole('status')).toHaveText('Rule added: AAPL: C-Score crosses above 70.');
  // /account lists it too.
  await page.goto('/account');
  await expect(page.locator('[data-alert-rules-root]').getByRole('listitem')).toHaveText([/^AAPL: C-Score crosses above 70/]);
});

test('the browser finds the manifest and the service worker; the stock page links its feeds; the worker keeps the app shell only', async ({ page, context }) => {
  test.slow();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/signal/AAPL');
  const atom = page.locator('head link[rel="alternate"][type="application/atom+xml"][href="/feeds/signal/AAPL.xml"]');
  await expect(atom).toHaveCount(1);
  await expect(page.locator('head link[rel="alternate"][type="application/feed+json"][href="/feeds/signal/AAPL.json"]')).toHaveCount(1);
  const feed = await page.request.get('/feeds/signal/AAPL.xml');
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('<id>http');
  const json = await (await page.request.get('/feeds/signal/AAPL.json')).json();
  expect(json.version).toBe('https://jsonfeed.org/version/1.1');

  const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
  expect(scriptUrl).toMatch(/\/sw\.js$/);
  const cdp = await context.newCDPSession(page);
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
  expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  expect(JSON.parse(manifest.data!)).toMatchObject({ display: 'standalone', theme_color: '#0c0d10', start_url: '/' });
  // Playwright's contexts are incognito, which Chromium names as the one reason not to offer the install.
  const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
  expect(installability.installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  for (const icon of ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-512.png']) {
    const answer = await page.request.get(icon);
    expect(answer.headers()['content-type']).toBe('image/png');
  }
  await expect(page.locator('meta[name="theme-color"]')).toHaveCount(2);

  // The worker controls the page and has cached the app shell only: no page, no API answer, no signal data.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const urls = (await Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname)))).flat();
    return { names, urls: urls.sort() };
  });
  expect(cached).toEqual({ names: ['app-shell-v1'], urls: ['/favicon.svg', '/icons/icon-192.png', '/offline.html', '/offline.js'] });
  // The offline page says so and names the last report a page showed here, never a score.
  const reportDate = await page.locator('meta[name="report-date"]').getAttribute('content');
  await page.goto('/offline.html');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  const shown = new Date(`${reportDate}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  await expect(page.locator('#last-report')).toHaveText(`The last report you saw here was of ${shown}. Reconnect to see the current one.`);
  await expect(page.locator('body')).not.toContainText('C-Score');
  expect(violations).toEqual([]);
});
