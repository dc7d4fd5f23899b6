/**
 * Alerts in Chromium against the real demo server: the watch button's Alerts section by keyboard, signed
 * out (an offer to sign in) and signed in (watching a stock offers to turn alerts on); the Alerts section of /account
 * (its form saved, the private feed address made and served).
 */
import { expect, test } from '@playwright/test';

test('signed out, the Alerts section of the watch button offers to sign in, by keyboard', async ({ page }) => {
  await page.goto('/signal/AAPL');
  await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');
  const toggle = page.getByRole('button', { name: 'Alerts', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('region', { name: 'Alerts' });
  await expect(panel.getByText('Get an email when AAPL starts, stops or reverses a signal.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Sign in for email alerts' })).toHaveAttribute('href', '/login?returnTo=%2Fsignal%2FAAPL');
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('link', { name: 'Sign in for email alerts' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(toggle).toBeFocused();
});

test('signed in, watching a stock offers its alerts; /account saves the settings and makes the private feed', async ({ page }) => {
  // Sign-up, two pages and five API round trips: on a loaded CI machine that can pass the 30 s default.
  test.slow();
  const email = `alerts-${Date.now()}@example.com`;
  await page.goto('/login?returnTo=%2Fsignal%2FAAPL');
  const ways = page.getByRole('navigation', { name: 'Ways in' });
  await ways.getByRole('link', { name: 'Create an account' }).click();
  const signUp = page.getByRole('region', { name: 'Create an account' });
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill('a long enough password');
  await signUp.getByRole('button', { name: 'Sign up' }).click();
  // Sign-up never signs in: the password signs in before the address is confirmed.
  await expect(page).toHaveURL(/#sign-up-sent$/);
  await ways.getByRole('link', { name: 'Sign in' }).click();
  const signIn = page.getByRole('region', { name: 'Sign in with your password' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill('a long enough password');
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/signal\/AAPL$/);
  await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');

  await page.getByTestId('watch-toggle').click();
  const panel = page.getByRole('region', { name: 'Alerts' });
  await expect(panel.getByText('Get an email when AAPL starts, stops or reverses a signal. Email alerts are off.')).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/alerts/settings') && r.request().method() === 'PUT');
  await panel.getByRole('button', { name: 'Turn on email alerts' }).click();
  expect((await saved).status()).toBe(200);
  await expect(panel.getByText('Email alerts are on for your watchlist, AAPL included.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Turn off email alerts' })).toBeVisible();

  await page.goto('/account');
  const alerts = page.getByRole('region', { name: 'Alerts' });
  await expect(alerts.getByRole('checkbox', { name: 'Email me alerts for the stocks I watch' })).toBeChecked();
  await expect(alerts.getByLabel('Digest address')).toHaveAttribute('placeholder', email);
  await alerts.getByRole('checkbox', { name: /^Borderline crossings/ }).check();
  await alerts.getByLabel('Digest address').fill('Other.Box@example.com');
  await alerts.getByRole('button', { name: 'Save alert settings' }).click();
  await expect(page).toHaveURL(/\/account#alerts-saved$/);
  await expect(alerts.getByText('Your alert settings are saved.')).toBeVisible();
  await expect(alerts.getByLabel('Digest address')).toHaveValue('other.box@example.com');
  await expect(alerts.getByRole('checkbox', { name: /^Borderline crossings/ })).toBeChecked();

  await alerts.getByLabel('Digest address').fill('not an address');
  // The browser's own check would stop the form first: the server's answer is what this asserts.
  await alerts.locator('form[data-alert-settings]').evaluate((form: HTMLFormElement) => form.setAttribute('novalidate', ''));
  await alerts.getByRole('button', { name: 'Save alert settings' }).click();
  await expect(page).toHaveURL(/\/account#alerts-address$/);
  await expect(alerts.getByLabel('Digest address')).toHaveAccessibleDescription(/Error: Enter an email address for the digest/);

  await alerts.getByRole('button', { name: 'Make a new feed address' }).click();
  const atom = alerts.locator('[data-feed-url="Atom"]');
  await expect(atom).toHaveText(/\/api\/alerts\/feed\/[A-Za-z0-9_-]{43}\.xml$/);
  const feed = await page.request.get(new URL((await atom.textContent())!).pathname);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
});
