import { expect as baseExpect, test, type Page } from '@playwright/test';
import { navEntries, pageAt } from '../../src/lib/domain/site/pages';
import { LEARN_VIDEO_URL, POLYGON_URL } from './servers';

// The shared test machine can be slow: the Toaster and Paywall islands load on first use, so allow them time.
const expect = baseExpect.configure({ timeout: 15_000 });

// Every sidebar and footer entry of the page table (its labels are pinned to the spec in tests/unit/site-tables.test.ts),
// with its page's heading: the page's title, but the Terms page's, which is its policy text's own title.
const heading = (href: string) => (href === '/terms' ? 'Terms of use' : pageAt(href)!.title);
const screens = (['main', 'more', 'info'] as const).flatMap((section) => navEntries(section).map((entry) => [entry.label, entry.href, heading(entry.href), section] as const));

/** Turns a local flag on as another tab would: the stores follow storage events. */
async function setFlag(page: Page, key: string, on: boolean): Promise<void> {
  await page.evaluate(([k, v]) => {
    localStorage.setItem(k!, v!);
    dispatchEvent(new StorageEvent('storage', { key: k, newValue: v, storageArea: localStorage }));
  }, [key, String(on)]);
}

test('every sidebar item and footer link opens its screen', async ({ page }) => {
  await page.goto('/learn');
  for (const [label, path, heading, section] of screens) {
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path.replace('/', '\\/')}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    if (section !== 'info') {
      await expect(sidebar.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    }
  }
  for (const path of ['/all-signals', '/explore', '/signals-dao', '/upload', '/ai-analysis', '/ai-chat', '/admin']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});

test('the collapsed sidebar survives a reload', async ({ page }) => {
  await page.goto('/heatmap');
  const sidebar = page.locator('#sidebar');
  expect((await sidebar.boundingBox())!.width).toBe(256);
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(64);
  await page.reload();
  expect((await sidebar.boundingBox())!.width).toBe(64);
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(256);
});

test('the theme survives a reload and the first frame already has its background', async ({ page }) => {
  // Record the root's background in the first animation frame, before the first paint.
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrame: string }).firstFrame = getComputedStyle(document.documentElement).backgroundColor;
    });
  });
  const firstFrame = () => page.evaluate(() => (window as unknown as { firstFrame: string }).firstFrame);
  await page.goto('/');
  expect(await firstFrame()).toBe('rgb(12, 13, 16)');
  expect(await page.evaluate(() => localStorage.getItem('cardify-theme'))).toBe('dark');
  await page.getByRole('button', { name: /^Theme: Dark/ }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('cardify-theme'))).toBe('light');
  await page.reload();
  expect(await firstFrame()).toBe('rgb(255, 255, 255)');
  await expect(page.getByRole('button', { name: /^Theme: Light/ })).toBeVisible();
  await page.getByRole('button', { name: /^Theme: Light/ }).click();
  expect(await page.evaluate(() => localStorage.getItem('cardify-theme'))).toBe('system');
});

test('at 390 px the top bar shows and the drawer opens and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/currently-qualified');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  const open = page.getByRole('button', { name: 'Open navigation' });
  await expect(open).toBeVisible();
  await open.click();
  await expect(nav).toBeVisible();
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await open.click();
  await page.locator('.backdrop').click({ position: { x: 370, y: 400 } });
  await expect(nav).toBeHidden();
  await open.click();
  await nav.getByRole('link', { name: 'Heatmap' }).click();
  await expect(page).toHaveURL(/\/heatmap$/);
  await expect(nav).toBeHidden();
});

test('the paywall opens only under the spec rules and closes with Continue with free', async ({ page }) => {
  await page.goto('/archives');
  const paywall = page.getByRole('dialog', { name: 'Choose Your Plan' });
  await expect(paywall).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Archive Access is Premium' })).toBeHidden();

  // Flag on: the premium gate replaces the list; its button opens the paywall.
  await setFlag(page, 'top-signals-paywall', true);
  await expect(page.getByRole('heading', { name: 'Archive Access is Premium' })).toBeVisible();
  await expect(page.locator('.archive-card')).toHaveCount(7);
  await expect(page.locator('.archive-card').first()).toBeHidden();
  await page.getByRole('button', { name: 'Upgrade' }).click();
  await expect(paywall).toBeVisible();
  await expect(paywall.getByText('$20.00 per month')).toBeVisible();
  await expect(paywall.getByText('$16.67 per month billed annually')).toBeVisible();
  // The demo app runs with PAYWALL off and no Stripe keys: no limit promised, and how to get Pro instead of a button.
  await expect(paywall.getByText('Every daily signal and top signal')).toBeVisible();
  await expect(paywall.getByText('45 daily signals')).toHaveCount(0);
  await expect(paywall.getByText('Online payment is not set up on this site. Pro is granted by its operator: write to them with the email of your account.')).toBeVisible();
  await expect(paywall.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0);
  await paywall.getByRole('button', { name: 'Continue with free' }).click();
  await expect(paywall).toBeHidden();

  // The flag resets on every load.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Archive Access is Premium' })).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('top-signals-paywall'))).toBe('false');

  // Flag off: a top ticker opens its detail. Flag on: it opens the paywall ('Top Stock Details'), Escape closes it.
  await page.goto('/all-signals');
  const top = page.locator('a[data-detail-link][data-top="true"]').first();
  const href = (await top.getAttribute('href'))!;
  await setFlag(page, 'top-signals-paywall', true);
  await top.click();
  await expect(paywall).toBeVisible();
  await expect(paywall.getByText('Top Stock Details is part of Pro.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(paywall).toBeHidden();
  await page.locator('a[data-detail-link][data-top="false"]').first().click();
  await expect(page).toHaveURL(/\/signal\//);
  await page.goto('/all-signals');
  await page.locator(`a[href="${href}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${href.replace('.', '\\.')}$`));
});

test('signed out, the sidebar offers Sign in (a link back to this view) and no account menu, even with the auth-feature flag on', async ({ page }) => {
  await page.goto('/heatmap');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await setFlag(page, 'auth-feature', true);
  await expect(sidebar.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/api/auth/login?returnTo=%2Fheatmap');
  await expect(page.getByRole('button', { name: /^Account menu/ })).toBeHidden();
});

test('the ticker search finds tickers and companies, with Ctrl+K', async ({ page }) => {
  await page.goto('/heatmap');
  await page.keyboard.press('Control+k');
  const box = page.getByRole('dialog', { name: 'Search' }).getByRole('combobox', { name: 'Search tickers and companies' });
  await expect(box).toBeFocused();
  await box.fill('micro');
  await expect(page.getByRole('option', { name: /MSFT Microsoft/ })).toBeVisible();
  await box.fill('nvda');
  await expect(page.getByRole('option').first()).toHaveText(/^NVDA/);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/signal\/NVDA$/);
});

test('Learn shows the guide video and the community only when configured; the video dialog has a title', async ({ page }) => {
  // The demo app has neither: no placeholder shows through.
  await page.goto('/learn');
  await page.getByText('What is the C-Score?').click();
  await expect(page.getByText(/consumer panel of 25 million credit and debit cards/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Watch the guide' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Guides' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Join Our Community' })).toHaveCount(0);
  await expect(page.getByText(/configured|linked for this site/)).toHaveCount(0);

  // The polygon app has a video and both links. The player is answered here: the test machine is offline.
  await page.route(`${LEARN_VIDEO_URL}**`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>guide</p>' }));
  await page.goto(`${POLYGON_URL}/learn`);
  await page.getByRole('button', { name: 'Watch the guide' }).click();
  const dialog = page.getByRole('dialog', { name: 'Getting started with the C-Score' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('iframe')).toHaveAttribute('src', LEARN_VIDEO_URL);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Join Our Community' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Newsletter/ })).toHaveAttribute('href', 'https://newsletter.example/');
  await expect(page.getByRole('link', { name: /^Chat community/ })).toHaveAttribute('href', 'https://chat.example/');
});

test('toasts: one at a time, F8 focuses the notification area, the close button and a 50 px swipe dismiss, the watch message leaves after 2 s', async ({ page }) => {
  await page.goto('/currently-qualified');
  const rows = page.locator('#currently-qualified tbody tr');
  const [a, b] = [(await rows.nth(0).getAttribute('data-t'))!, (await rows.nth(1).getAttribute('data-t'))!];
  const status = page.getByRole('status');
  await page.getByRole('button', { name: `Watch ${a}`, exact: true }).click();
  await expect(status).toHaveText(new RegExp(`${a} added to watchlist`));
  // A second message replaces the first: one toast at a time.
  await page.getByRole('button', { name: `Watch ${b}`, exact: true }).click();
  await expect(status).toHaveCount(1);
  await expect(status).toHaveText(new RegExp(`${b} added to watchlist`));

  await page.keyboard.press('F8');
  await expect(page.getByRole('list', { name: 'Notifications (F8)' })).toBeFocused();
  await page.getByRole('button', { name: 'Dismiss notification' }).click();
  // Dismissed: closed at once (no longer announced or clickable) while the store keeps it for 1,000,000 ms.
  await expect(status).toHaveCount(0);
  await expect(page.locator('.toast[data-state="closed"]')).toBeHidden();

  // A swipe right past 50 px dismisses; a shorter one snaps back.
  await page.getByRole('button', { name: `Watch ${a}`, exact: true }).click();
  await expect(status).toHaveText(new RegExp(`${a} removed from watchlist`));
  const swipe = async (dx: number) => {
    // hover() waits until the toast has stopped sliding in.
    await status.hover({ position: { x: 20, y: 10 } });
    const box = (await status.boundingBox())!;
    await page.mouse.down();
    await page.mouse.move(box.x + 20 + dx, box.y + 10, { steps: 5 });
    await page.mouse.up();
  };
  await swipe(30);
  await expect(status).toHaveCount(1);
  await swipe(80);
  await expect(status).toHaveCount(0);

  // The watch message (spec: 2 s) closes by itself.
  await page.getByRole('button', { name: `Watch ${b}`, exact: true }).click();
  await expect(status).toHaveText(new RegExp(`${b} removed from watchlist`));
  await expect(status).toHaveCount(0, { timeout: 4_000 });
});
