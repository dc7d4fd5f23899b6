/**
 * Rules over the plan's limit in Chromium against the PAYWALL=on server: a Free account that kept 8 rules from its
 * Pro days (written to its database as the API stored them then) sees on /account that only its 5 oldest fire and
 * which 3 are paused, with Upgrade to Pro (the paywall) and each rule's Delete; deleting an old rule un-pauses the next.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { expect, test } from '@playwright/test';
import { PAYWALL_DB, PAYWALL_URL } from './servers';

test.use({ baseURL: PAYWALL_URL });

test('a downgraded account sees which rules are paused, with Upgrade to Pro and Delete', async ({ page }) => {
  test.slow();
  const email = `paused-${Date.now()}@example.com`;
  expect((await page.request.post('/api/auth/sign-up/email', { headers: { origin: PAYWALL_URL }, data: { email, password: 'correct horse battery', name: '' } })).status()).toBe(200);
  expect((await page.request.post('/api/auth/sign-in/email', { headers: { origin: PAYWALL_URL }, data: { email, password: 'correct horse battery' } })).status()).toBe(200);
  // Eight rules made a minute apart, their values out of order: the oldest five are 7, 3, 8, 1 and 5.
  const db = new DatabaseSync(PAYWALL_DB);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const { id } = db.prepare('select id from "user" where email = ?').get(email) as { id: string };
    const insert = db.prepare('insert into alert_rule (id, user_id, ticker, kind, value, created_at) values (?, ?, ?, ?, ?, ?)');
    [7, 3, 8, 1, 5, 2, 6, 4].forEach((value, i) => insert.run(randomUUID(), id, 'AAPL', 'move', value, `2026-11-01T10:0${i}:00.000Z`));
  } finally {
    db.close();
  }

  await page.goto('/account');
  const rules = page.locator('[data-alert-rules-root]');
  const note = rules.getByTestId('alert-rules-paused');
  await expect(note.getByText('Your plan allows 5 alert rules and you have 8: only your 5 oldest fire; the 3 newest are paused and do not fire. Upgrade to Pro or delete rules to have them fire again.')).toBeVisible();
  const paused = / \(paused: over your plan's limit, it does not fire\)/;
  await expect(rules.locator('li[data-paused]')).toHaveText([/^AAPL: C-Score moves by 2 points/, /^AAPL: C-Score moves by 6 points/, /^AAPL: C-Score moves by 4 points/]);
  await expect(rules.locator('li[data-paused]').first()).toContainText(paused);
  await expect(rules.locator('li:not([data-paused])')).toHaveCount(5);

  await note.getByRole('button', { name: 'Upgrade to Pro' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Your Plan' });
  await expect(dialog).toContainText('A limit of 200 alert rules is part of Pro.');
  await dialog.getByRole('button', { name: 'Continue with free' }).click();
  await expect(dialog).toBeHidden();

  await rules.getByRole('button', { name: 'Delete the rule AAPL: C-Score moves by 7 points or more in one report' }).click();
  await expect(note.getByText('Your plan allows 5 alert rules and you have 7: only your 5 oldest fire; the 2 newest are paused and do not fire. Upgrade to Pro or delete rules to have them fire again.')).toBeVisible();
  await expect(rules.locator('li[data-paused]')).toHaveText([/^AAPL: C-Score moves by 6 points/, /^AAPL: C-Score moves by 4 points/]);
});
