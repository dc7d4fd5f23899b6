/**
 * An account you can reach, in Chromium against the demo app (no payments set up): signed in, the sidebar's account
 * menu (plan, email, Help & Learn, Sign Out; no Upgrade on a site that takes no payments) at 390 px in the drawer and
 * at 1280 px with the sidebar expanded and collapsed, by keyboard; every page in the navigation; /login one form at a
 * time with sign-up in reach without scrolling at 390x844, keeping the typed email when a form comes back.
 */
import { expect, test, type Page } from '@playwright/test';
import { navEntries } from '../../src/lib/domain/site/pages';
import { DEMO_URL } from './servers';

const PASSWORD = 'a long enough password';

/** A new Free account, signed in in this page's browser context (sign-up never signs in; the password does). */
async function signedIn(page: Page, name: string): Promise<string> {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const up = await page.request.post('/api/auth/sign-up/email', { headers: { origin: DEMO_URL }, data: { email, password: PASSWORD, name: '' } });
  expect(up.status()).toBe(200);
  const inn = await page.request.post('/api/auth/sign-in/email', { headers: { origin: DEMO_URL }, data: { email, password: PASSWORD } });
  expect(inn.status()).toBe(200);
  return email;
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });
const toggle = (page: Page) => page.getByRole('button', { name: /^Account menu/ });

/** The menu's items as the spec names them, and no upgrade on this site (it takes no payments). */
async function expectMenu(page: Page, email: string): Promise<void> {
  const menu = page.getByRole('group', { name: 'Account' });
  await expect(menu).toBeVisible();
  await expect(menu.getByText('Free Account', { exact: true })).toBeVisible();
  await expect(menu.getByText(email)).toBeVisible();
  await expect(menu.getByRole('link', { name: /Free Account/ })).toHaveAttribute('href', '/account');
  await expect(menu.getByRole('link', { name: 'Help & Learn' })).toHaveAttribute('href', '/learn');
  await expect(menu.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Upgrade to Premium' })).toBeHidden();
  // Wholly on screen (not clipped by the sidebar's box).
  const box = (await menu.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('signed in, the account menu opens by keyboard with the plan and email, Escape closes it back to its button, collapsed too; Sign Out signs out', async ({ page }) => {
    // A sign-up, a sign-in and three menu states: on a loaded machine that can pass the 30 s default.
    test.slow();
    const email = await signedIn(page, 'menu-wide');
    await page.goto('/');
    await expect(toggle(page)).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Sign in' })).toBeHidden();
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'true');
    await expectMenu(page, email);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('group', { name: 'Account' })).toBeHidden();
    await expect(toggle(page)).toBeFocused();

    // Collapsed to icons: the menu opens beside the sidebar, whole.
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await toggle(page).click();
    await expectMenu(page, email);
    const menuBox = (await page.getByRole('group', { name: 'Account' }).boundingBox())!;
    const sidebarBox = (await sidebar(page).boundingBox())!;
    expect(menuBox.x).toBeGreaterThanOrEqual(sidebarBox.x + sidebarBox.width);

    // Sign Out is a button of a form that posts; by keyboard.
    await page.getByRole('button', { name: 'Sign Out' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${DEMO_URL}/`);
    await expect(sidebar(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(toggle(page)).toBeHidden();
    const user = await (await page.request.get('/api/auth/user')).json();
    expect(user).toEqual({ isAuthenticated: false, user: null });
  });

  test('every page of the product is in the sidebar: the spec\'s sections, Track Record, AI Analysis, AI Chat and Signals DAO under MORE', async ({ page }) => {
    await page.goto('/');
    const more = sidebar(page).getByRole('list', { name: 'More' });
    for (const label of ['Heatmap', 'Track Record', 'AI Analysis', 'AI Chat', 'Archives', 'Learn', 'Signals DAO']) await expect(more.getByRole('link', { name: label, exact: true })).toBeVisible();
    for (const section of ['main', 'more'] as const) {
      for (const entry of navEntries(section)) await expect(sidebar(page).getByRole('link', { name: entry.label, exact: true })).toHaveAttribute('href', entry.href);
    }
  });
});

/** Opens the phone's drawer. A new page's drawer script may still be loading, and a press before it runs does nothing. */
async function openDrawer(page: Page): Promise<void> {
  const opener = page.getByRole('button', { name: 'Open navigation' });
  await expect(async () => {
    await opener.click();
    await expect(opener).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('signed in, the drawer holds the account menu with the plan and email; Sign Out signs out', async ({ page }) => {
    test.slow();
    const email = await signedIn(page, 'menu-phone');
    await page.goto('/heatmap');
    await openDrawer(page);
    await expect(toggle(page)).toBeVisible();
    for (const entry of [...navEntries('main'), ...navEntries('more')]) await expect(sidebar(page).getByRole('link', { name: entry.label, exact: true })).toBeAttached();
    await toggle(page).click();
    await expectMenu(page, email);
    // Escape closes the menu only; the drawer stays open.
    await page.keyboard.press('Escape');
    await expect(toggle(page)).toBeFocused();
    await expect(toggle(page)).toBeVisible();
    await toggle(page).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(`${DEMO_URL}/`);
    await openDrawer(page);
    await expect(sidebar(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
  });

  test('/login shows one form at a time, sign-up within reach without scrolling, and keeps the typed email when a form comes back', async ({ page }) => {
    await page.goto('/login');
    const visibleEmailBoxes = page.locator('input[type="email"]:visible');
    await expect(visibleEmailBoxes).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Sign in with your password' })).toBeVisible();
    const ways = page.getByRole('navigation', { name: 'Ways in' });
    await expect(ways.getByRole('link', { name: 'Sign in' })).toHaveAttribute('aria-current', 'true');
    const create = ways.getByRole('link', { name: 'Create an account' });
    const box = (await create.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await page.evaluate(() => scrollY)).toBe(0);

    await create.click();
    const signUp = page.getByRole('region', { name: 'Create an account' });
    await expect(signUp).toBeVisible();
    await expect(visibleEmailBoxes).toHaveCount(1);
    await expect(create).toHaveAttribute('aria-current', 'true');
    const email = signUp.getByLabel('Email');
    expect(((await email.boundingBox())!.y)).toBeLessThan(844);
    await ways.getByRole('link', { name: 'Email me a link' }).click();
    await expect(page.getByRole('region', { name: 'Email me a link' })).toBeVisible();
    await expect(visibleEmailBoxes).toHaveCount(1);

    // A password too short comes back to the sign-up form with the message and the email still in its box.
    await ways.getByRole('link', { name: 'Create an account' }).click();
    await email.fill('keep-me@example.com');
    await signUp.getByLabel('Password').fill('short');
    await signUp.getByLabel('Password').evaluate((input: HTMLInputElement) => input.removeAttribute('minlength'));
    await signUp.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount&email=keep-me%40example\.com#sign-up-short$/);
    await expect(signUp.getByText('Use at least 10 characters for your password.')).toBeVisible();
    await expect(signUp.getByLabel('Email')).toHaveValue('keep-me@example.com');
    await expect(visibleEmailBoxes).toHaveCount(1);
  });
});
