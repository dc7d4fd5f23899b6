/**
 * The open API in a browser: /developers shows the examples and limits and links the OpenAPI document; /account makes
 * a key (shown once), a program's request with it gets the RateLimit fields, and Revoke refuses it at once.
 */
import { expect, test } from '@playwright/test';

test('/developers shows curl and fetch examples, the limits and how to get a key; the OpenAPI document answers', async ({ page }) => {
  await page.goto('/developers');
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
  await expect(page.locator('pre').filter({ hasText: 'curl -i -H "Authorization: Bearer $CSS_API_KEY"' })).toBeVisible();
  await expect(page.locator('pre').filter({ hasText: 'await fetch(' }).first()).toBeVisible();
  await expect(page.getByRole('row', { name: /Requests a key may make/ })).toContainText('1,000 a day');
  await expect(page.getByRole('heading', { name: 'How to get a key' })).toBeVisible();
  await expect(page.getByRole('link', { name: '/api/openapi.json' })).toHaveAttribute('href', '/api/openapi.json');
  const document = await page.request.get('/api/openapi.json');
  expect(document.status()).toBe(200);
  expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0');
});

test('a key made on /account is shown once, answers with the RateLimit fields, and is refused once revoked', async ({ page, request }) => {
  test.slow();
  const email = `keys-${Date.now()}@example.com`;
  await page.goto('/login?returnTo=%2Faccount');
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
  await expect(page).toHaveURL(/\/account$/);

  const keys = page.getByRole('region', { name: 'API keys' });
  await expect(keys).toBeVisible();
  await expect(keys.getByRole('link', { name: 'Developers' })).toHaveAttribute('href', '/developers');
  await keys.getByLabel('Name of the new key').fill('my script');
  await keys.getByRole('button', { name: 'Create key' }).click();
  const shown = keys.locator('[data-api-key-text]');
  await expect(shown).toHaveText(/^csk_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent())!;
  await expect(keys.getByRole('listitem')).toHaveText([/my script \(csk_.{6}…\), 0 requests today/]);

  // A program's request: its own context (no cookie), the key in the header.
  const keyed = await request.get('/api/stock-price/AAPL', { headers: { authorization: `Bearer ${key}` } });
  expect(keyed.status()).toBe(200);
  expect(keyed.headers()['ratelimit-limit']).toBe('1000');
  expect(keyed.headers()['ratelimit-remaining']).toBe('999');

  // A reload shows the key no more: only its start.
  await page.reload();
  await expect(keys.getByRole('listitem')).toHaveText([/my script \(csk_.{6}…\), 1 request today/]);
  await expect(page.getByText(key)).toHaveCount(0);

  page.once('dialog', (dialog) => void dialog.accept());
  await keys.getByRole('button', { name: 'Revoke the key my script' }).click();
  await expect(keys.getByRole('listitem')).toHaveCount(0);
  const refused = await request.get('/api/stock-price/AAPL', { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});
