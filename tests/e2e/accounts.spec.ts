/**
 * Accounts (issue 12) in Chromium against the real demo server, its mail caught by tests/fixtures/smtp-catcher.ts:
 * the plain forms of /login and /account before any script, and the journey of signing up, signing in by the
 * emailed link and signing out.
 */
import { expect, test, type Page } from '@playwright/test';
import { SMTP_CATCHER_READ_URL } from './servers';

/** The newest message the catcher holds for `email`, waiting for it to arrive. */
async function mailFor(email: string, subject: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const messages = (await (await fetch(`${SMTP_CATCHER_READ_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string }[];
      text = messages.filter((m) => subject.test(m.subject)).at(-1)?.text ?? '';
      return text;
    })
    .not.toBe('');
  return text;
}

async function setFlag(page: Page, key: string, on: boolean): Promise<void> {
  await page.evaluate(([k, v]) => {
    localStorage.setItem(k!, v!);
    dispatchEvent(new StorageEvent('storage', { key: k, newValue: v, storageArea: localStorage }));
  }, [key, String(on)]);
}

test.describe('before any script runs', () => {
  test.use({ javaScriptEnabled: false });

  test('a wrong password comes back to /login with the error on the password field', async ({ page }) => {
    await page.goto('/login?returnTo=%2Farchives');
    const signIn = page.getByRole('region', { name: 'Sign in with your password' });
    await signIn.getByLabel('Email').fill('nobody@example.com');
    await signIn.getByLabel('Password').fill('not the password');
    await signIn.getByRole('button', { name: 'Sign in' }).press('Enter');
    await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount#sign-in-invalid$/);
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

test('sign up, sign out, then sign in with the emailed link; the menu shows the account', async ({ page }) => {
  const email = `reader-${Date.now()}@example.com`;
  const password = 'a long enough password';

  await page.goto('/login?returnTo=%2Faccount');
  const signUp = page.getByRole('region', { name: 'Create an account' });
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password').fill(password);
  await signUp.getByRole('button', { name: 'Sign up' }).click();
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

  await page.goto('/login?returnTo=%2Faccount');
  const link = page.getByRole('region', { name: 'Email me a link' });
  await link.getByLabel('Email').fill(email);
  await link.getByRole('button', { name: 'Email me a link' }).click();
  await expect(link.getByText('If that address can sign in, a link is on its way.')).toBeVisible();
  const mail = await mailFor(email, /sign-in link/);
  const url = /https?:\/\/\S+/.exec(mail)![0];
  await page.goto(url);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('region', { name: 'Your details' }).getByText(email)).toBeVisible();

  await setFlag(page, 'auth-feature', true);
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  const menu = page.locator('#account-menu');
  await expect(menu.getByText('Free Account')).toBeVisible();
  await expect(menu.getByText(email)).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Upgrade to Premium' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeHidden();
});
