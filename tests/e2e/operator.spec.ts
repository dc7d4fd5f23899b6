/**
 * The operator tools in Chromium against the operator app (its own build, archive and accounts, so the
 * site the other specs read never changes): an operator uploads a valid XLSX, reads the preview, publishes and
 * sees the new report date on /; a malformed CSV shows its row and column and / keeps its report; a signed-in
 * non-operator gets 403 on every operator page and route.
 */
import { expect, test, type Page } from '@playwright/test';
import writeExcelFile from 'write-excel-file/node';
import { formatDate } from '../../src/lib/domain/text/format';
import { EXPORT_COLUMNS, exportCsv, exportRow } from '../fixtures/exports';
import { OPERATOR_ROUTES } from '../fixtures/operator-routes';
import { OPERATOR_EMAIL, OPERATOR_FIRST_REPORT, OPERATOR_URL, SMTP_CATCHER_READ_URL } from './servers';

test.use({ baseURL: OPERATOR_URL });
// The two uploads publish into one site, one after the other.
test.describe.configure({ mode: 'serial' });

const NEW_REPORT = '2026-11-23';
// A publish runs the whole static build of the site (seconds on a quiet machine, more while other builds run).
const PUBLISH_WAIT = { timeout: 120_000 };

/** The confirmation link this app mailed to `email` (read from the SMTP catcher), once it has arrived. */
async function confirmationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const messages = (await (await fetch(`${SMTP_CATCHER_READ_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string }[];
      link = messages
        .filter((m) => m.subject.startsWith('Confirm your email'))
        .map((m) => /https?:\/\/\S+/.exec(m.text)?.[0])
        .findLast((url) => url?.startsWith(OPERATOR_URL));
      return link !== undefined;
    })
    .toBe(true);
  return link!;
}

/** Signs up and confirms the address by the mailed link: an operator's role needs a confirmed email. */
async function signUp(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-up/email', { headers: { origin: OPERATOR_URL }, data: { email, password: 'correct horse battery', name: '' } });
  expect(response.status()).toBe(200);
  expect((await page.request.get(await confirmationLink(email))).ok()).toBe(true);
}

async function signIn(page: Page, email: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-in/email', { headers: { origin: OPERATOR_URL }, data: { email, password: 'correct horse battery' } });
  if (response.status() !== 200) await signUp(page, email);
}

/** A whole day's export for the app's tickers (a file with fewer would be held by the ticker-drop gate): one bullish, one bearish. */
async function workbook(): Promise<{ buffer: Buffer; tickers: number }> {
  const published = (await (await fetch(`${OPERATOR_URL}/api/all-signals`)).json()) as { ticker: string; companyName: string }[];
  const date = { value: new Date(Date.UTC(2026, 10, 23)), format: 'yyyy-mm-dd' };
  const scores = [88, -77];
  const rows = published.map((r, i) => [r.ticker, r.companyName, date, scores[i] ?? 12, 0, 1, 2, 3, 4, 5, 6, 0, 0, false]);
  const buffer = await writeExcelFile([
    { sheet: 'Notes', data: [['Exported by'], ['the signal desk']] },
    { sheet: 'Signals', data: [[...EXPORT_COLUMNS], ...rows] },
  ]).toBuffer();
  return { buffer, tickers: rows.length };
}

const reportLead = (date: string) => `report of ${formatDate(date)}`;

test('an operator uploads a valid XLSX, reads the preview, publishes, and / shows the new report date', async ({ page }) => {
  test.slow();
  await signIn(page, OPERATOR_EMAIL);
  await page.goto('/');
  await expect(page.locator('.page-lead').first()).toContainText(reportLead(OPERATOR_FIRST_REPORT));

  const upload = await workbook();
  expect(upload.tickers).toBe(12);
  await page.goto('/upload');
  await page.getByLabel('Drop the files here, or choose them').setInputFiles({
    name: `signals-${NEW_REPORT}.xlsx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: upload.buffer,
  });
  await page.getByRole('button', { name: 'Check the files' }).click();
  const preview = page.getByRole('region', { name: '2. Preview' });
  const file = preview.getByRole('row', { name: new RegExp(`signals-${NEW_REPORT}\\.xlsx`) });
  await expect(file).toContainText(NEW_REPORT);
  await expect(file.getByRole('cell')).toHaveText([NEW_REPORT, '12', '12', 'Notes (1 row); Signals (12 rows, signals)', '1', '1', 'No archived report']);
  await expect(preview).toContainText(`After publishing, the latest report is ${NEW_REPORT} (the site shows ${OPERATOR_FIRST_REPORT} today).`);
  await expect(preview.getByRole('heading', { name: /^New signals \(\d+\)$/ })).toBeVisible();
  await expect(preview.getByRole('heading', { name: /^Exits \(\d+\)$/ })).toBeVisible();
  await expect(preview.getByRole('heading', { name: /^Reversals \(\d+\)$/ })).toBeVisible();

  await preview.getByRole('button', { name: 'Publish' }).click();
  const progress = page.getByRole('region', { name: '3. Publishing' });
  await expect(progress.getByRole('listitem')).toHaveCount(5);
  await expect(progress.getByRole('alert')).toContainText(`Published: the site now shows the report of ${NEW_REPORT}.`, PUBLISH_WAIT);
  await expect(progress.getByRole('listitem')).toHaveText([
    'Pull and validate the new files: done',
    'Read the archive and the new files: done',
    'Build the site: done',
    'Smoke check: done',
    'Swap the new build in: done',
  ]);

  await progress.getByRole('link', { name: 'Open the dashboard' }).click();
  await expect(page.locator('.page-lead').first()).toContainText(reportLead(NEW_REPORT));

  await page.goto('/admin');
  const runs = page.getByRole('region', { name: 'Run log' });
  await expect(runs.getByRole('row').nth(1)).toContainText(`UploadPublished${NEW_REPORT}signals-${NEW_REPORT}.xlsx`);
  await expect(runs.getByRole('row').nth(2)).toContainText(`npm startPublished${OPERATOR_FIRST_REPORT}`);
});

test('a malformed CSV shows its row and column, nothing is published, and / keeps its report', async ({ page }) => {
  await signIn(page, OPERATOR_EMAIL);
  await page.goto('/');
  const lead = (await page.locator('.page-lead').first().textContent()) ?? '';
  const csv = exportCsv([exportRow('MMM', '3M', NEW_REPORT, 88), exportRow('AOS', 'A. O. Smith', NEW_REPORT, 140)]);

  await page.goto('/upload');
  await page.getByLabel('Drop the files here, or choose them').setInputFiles({ name: 'signals-bad.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check the files' }).click();
  const refused = page.getByRole('region', { name: 'Refused: nothing was stored or published' });
  await expect(refused.getByRole('listitem')).toHaveCount(1);
  await expect(refused.getByRole('listitem')).toContainText('signals-bad.csv (row 3, column "C-Score"):');
  await expect(page.getByRole('region', { name: '2. Preview' })).toBeHidden();

  await page.goto('/');
  await expect(page.locator('.page-lead').first()).toHaveText(lead);
  expect(lead).toContain(reportLead(NEW_REPORT));
});

test('a signed-in non-operator gets 403 on every operator page and route; signed out, the pages ask to sign in', async ({ page }) => {
  const anonymous = await page.request.get('/upload', { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toBe('/login?returnTo=%2Fupload');

  await signIn(page, `reader-${Date.now()}@example.com`);
  for (const path of ['/upload', '/admin']) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Operators only');
    await expect(page.getByLabel('Drop the files here, or choose them')).toHaveCount(0);
  }
  // Every operator route, and the operator write routes that were there before.
  const routes = [...OPERATOR_ROUTES, ['POST', '/api/polygon/sync-company-info'], ['POST', '/api/save-company-name']] as const;
  for (const [method, path] of routes) {
    const response = await page.request.fetch(path, { method, headers: { origin: OPERATOR_URL } });
    expect(`${method} ${path} ${response.status()}`).toBe(`${method} ${path} 403`);
  }
});
