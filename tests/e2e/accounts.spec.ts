/**
 * Accounts in Chromium against the real demo server, its mail caught by tests/fixtures/smtp-catcher.ts:
 * the plain forms of /login and /account before any script, and the journey of signing up, signing in by the
 * emailed link, watching a ticker seen from a second browser, signing out, and Pro granted from the command line.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { E2E_DIR, SMTP_CATCHER_READ_URL } from './servers';

/** The messages the catcher holds for `email` whose subject matches, oldest first. */
async function mailFor(email: string, subject: RegExp): Promise<string[]> {
  const messages = (await (await fetch(`${SMTP_CATCHER_READ_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string }[];
  return messages.filter((m) => subject.test(m.subject)).map((m) => m.text);
}

/** Asks /login's "Email me a link" form for a link, reads the new message from the catcher and follows its link. */
async function signInByLink(page: Page, email: string, returnTo: string): Promise<void> {
  const before = (await mailFor(email, /sign-in link/)).length;
  await page.goto(`/login?returnTo=${encodeURIComponent(returnTo)}`);
  await page.getByRole('navigation', { name: 'Ways in' }).getByRole('link', { name: 'Email me a link' }).click();
  const form = page.getByRole('region', { name: 'Email me a link' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Email me a link' }).click();
  await expect(form.getByText('If that address can sign in, a link is on its way.')).toBeVisible();
  await expect.poll(async () => (await mailFor(email, /sign-in link/)).length).toBe(before + 1);
  const mail = (await mailFor(email, /sign-in link/)).at(-1)!;
  await page.goto(/https?:\/\/\S+/.exec(mail)![0]);
  await expect(page).toHaveURL(new RegExp(`${returnTo}$`));
}

test.describe('before any script runs', () => {
  test.use({ javaScriptEnabled: false });

  test('a wrong password comes back to /login with the error on the password field', async ({ page }) => {
    await page.goto('/login?returnTo=%2Farchives');
    const signIn = page.getByRole('region', { name: 'Sign in with your password' });
    await signIn.getByLabel('Email').fill('nobody@example.com');
    await signIn.getByLabel('Password').fill('not the password');
    await signIn.getByRole('button', { name: 'Sign in' }).press('Enter');
    await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount&email=nobody%40example\.com#sign-in-invalid$/);
    // The email typed is kept (without script the page cannot put it back; the address still says it).
    const message = 'That email and password do not match an account. Check both, or email yourself a sign-in link.';
    await expect(signIn.getByText(message)).toBeVisible();
    await expect(signIn.getByLabel('Password')).toHaveAccessibleDescription(`Error: ${message}`);
    // Other outcomes stay hidden and out of the description.
    await expect(signIn.getByLabel('Email')).toHaveAccessibleDescription('');
  });

  test('the account page asks to type DELETE, tied to that field', async ({ page }) => {
    await page.goto('/account');
    const remove = page.getByRole('region', { name: 'Delete my account' });
    await remove.getByLabel('Password').fill('any password 123');
    await remove.getByLabel('Type DELETE to confirm').fill('delete');
    await remove.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/account#delete-account-confirm$/);
    await expect(remove.getByLabel('Type DELETE to confirm')).toHaveAccessibleDescription(
      'In capitals: DELETE. Error: Type DELETE in capitals to confirm that the account should go.',
    );
  });
});

test('sign up, sign out, sign in with the emailed link, watch a ticker seen from a second browser, sign out, and Pro granted by an operator', async ({
  page,
  browser,
}) => {
  // A dozen page loads, two browsers and the admin command: on a loaded machine that passes the 30 s default.
  test.slow();
  const email = `reader-${Date.now()}@example.com`;
  const password = 'a long enough password';

  await page.goto('/login?returnTo=%2Faccount#create-account');
  const signUp = page.getByRole('region', { name: 'Create an account' });
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill(password);
  await signUp.getByRole('button', { name: 'Sign up' }).click();
  // Sign-up never signs in (it answers an address that has an account as a new one): the mailed link confirms the
  // address and signs in; a confirmed address keeps its password when it later signs in by link.
  await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount#sign-up-sent$/);
  await expect(page.getByText('Check your inbox to confirm your address: the link we sent signs you in (within 24 hours).')).toBeVisible();
  await expect.poll(async () => (await mailFor(email, /^Confirm your email for /)).length).toBe(1);
  await page.goto(/https?:\/\/\S+/.exec((await mailFor(email, /^Confirm your email for /))[0]!)![0]);
  await expect(page).toHaveURL(/\/account$/);
  const details = page.getByRole('region', { name: 'Your details' });
  await expect(details.getByText(email)).toBeVisible();
  await expect(details.getByText('Free (Free Account)')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sign in to see your account' })).toBeHidden();

  await details.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Sign in to see your account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your details' })).toBeHidden();

  await signInByLink(page, email, '/account');
  await expect(page.getByRole('region', { name: 'Your details' }).getByText(email)).toBeVisible();
  // The password set at sign-up still works after the link (the address was confirmed first).
  await page.getByRole('region', { name: 'Your details' }).getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/login?returnTo=%2Faccount');
  const signIn = page.getByRole('region', { name: 'Sign in with your password' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('region', { name: 'Your details' }).getByText(email)).toBeVisible();

  // Signed in, the account menu shows without any flag; this site takes no payments, so it offers no upgrade.
  await page.getByRole('button', { name: /^Account menu/ }).click();
  const menu = page.locator('#account-menu');
  await expect(menu.getByText('Free Account')).toBeVisible();
  await expect(menu.getByText(email)).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Upgrade to Premium' })).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Sign in' })).toBeHidden();

  // Watch a ticker (once this page has the account's list); a second browser signed in to the account sees it.
  const listed = page.waitForResponse((r) => r.url().endsWith('/api/watchlist') && r.request().method() === 'GET');
  await page.goto('/currently-qualified');
  await listed;
  const first = page.locator('#currently-qualified tbody tr').first();
  const ticker = (await first.getAttribute('data-t'))!;
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/watchlist') && r.request().method() === 'PUT');
  await first.getByRole('button', { name: `Watch ${ticker}` }).click();
  expect((await saved).status()).toBe(200);
  const other = await browser.newContext();
  const second = await other.newPage();
  await signInByLink(second, email, '/currently-qualified');
  await expect(second.getByRole('button', { name: `Watch ${ticker}` })).toHaveAttribute('aria-pressed', 'true');
  await other.close();

  // Sign out; an operator grants Pro from the command line; signed in again, the account is Pro.
  await page.goto('/account');
  await page.getByRole('region', { name: 'Your details' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  const said = execFileSync('npm', ['run', '--silent', 'admin', '--', 'grant-pro', email], {
    env: { ...process.env, DATABASE_FILE: `${E2E_DIR}/app.db` },
    encoding: 'utf8',
  });
  expect(said).toContain(`${email} now has Pro (granted by an operator).`);
  await signInByLink(page, email, '/account');
  await expect(page.getByRole('region', { name: 'Your details' }).getByText('Pro (Premium Account)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade to Pro' })).toBeHidden();
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await expect(menu.getByText('Premium Account')).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Upgrade to Premium' })).toBeHidden();
});
