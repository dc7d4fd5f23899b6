/**
 * The operator API over loopback, with the real daily job behind it: the token route publishes, a revoked
 * token gets 401, two publishes run one after the other, an upload over the limits gets 413, a build that fails
 * leaves dist/ byte-identical, and every route refuses anonymous (401) and non-operator (403) callers.
 */
import { readSitemaps } from '../fixtures/sitemap';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import writeExcelFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { operatorTools } from '../../src/ingest/operator-tools';
import { MAX_UPLOAD_FILE_BYTES } from '../../src/lib/domain/operator/operator';
import type { PublishJobView } from '../../src/server/publish-queue';
import { operatorPages } from '../../src/server/routes/pages';
import { RunLog, type RunLogEntry } from '../../src/storage/run-log';
import { confirmEmail, keepingMailer, testAccounts } from '../fixtures/accounts';
import { cookiesOf } from '../fixtures/account-server';
import { OPERATOR_ROUTES } from '../fixtures/operator-routes';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { EXPORT_COLUMNS, exportCsv, exportRow, writeExports } from '../fixtures/exports';

const SITE = 'https://signals.example';

/** A day's export of three tickers as CSV; `names` overrides company names. */
function dayCsv(date: string, scores: [number, number, number], names: Partial<Record<'AAPL' | 'MSFT' | 'XOM', string>> = {}): string {
  const row = (ticker: 'AAPL' | 'MSFT' | 'XOM', name: string, score: number) => exportRow(ticker, names[ticker] ?? name, date, score);
  return exportCsv([row('AAPL', 'Apple Inc.', scores[0]), row('MSFT', 'Microsoft', scores[1]), row('XOM', 'Exxon Mobil', scores[2])]);
}

async function dayXlsx(date: string, scores: [number, number, number]): Promise<Buffer> {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const row = (ticker: string, name: string, score: number) => [ticker, name, { value: new Date(Date.UTC(y, m - 1, d)), format: 'yyyy-mm-dd' }, score, 0, 1, 2, 3, 4, 5, 6, 0, 0, false];
  return writeExcelFile([
    { sheet: 'Signals', data: [[...EXPORT_COLUMNS], row('AAPL', 'Apple Inc.', scores[0]), row('MSFT', 'Microsoft', scores[1]), row('XOM', 'Exxon Mobil', scores[2])] },
  ]).toBuffer();
}

async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  for (const file of files) hash.update(file.slice(dir.length)).update('\0').update(await readFile(file)).update('\0');
  return `${files.length}:${hash.digest('hex')}`;
}

function form(files: { name: string; body: string | Uint8Array; type?: string }[]): FormData {
  const data = new FormData();
  for (const f of files) data.append('files', new Blob([typeof f.body === 'string' ? f.body : new Uint8Array(f.body)], { type: f.type ?? 'text/csv' }), f.name);
  return data;
}

let work: string;
let server: ServerType;
let origin: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;
let runLog: RunLog;
let daily: DailyConfig;
let operator: string;
let reader: string;

const request = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });
const asOperator = (path: string, init: RequestInit = {}) => request(path, { ...init, headers: { origin: SITE, cookie: operator, ...(init.headers ?? {}) } });

async function signUp(email: string): Promise<string> {
  const response = await request('/api/auth/sign-up/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password: 'correct horse battery', name: '' }),
  });
  expect(response.status).toBe(200);
  // Sign-up never signs in: the session comes from signing in.
  const signedIn = await request('/api/auth/sign-in/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  expect(signedIn.status).toBe(200);
  return cookiesOf(signedIn);
}

async function waitForJob(id: string, headers: Record<string, string>): Promise<PublishJobView> {
  for (;;) {
    const response = await request(`/api/admin/jobs/${id}`, { headers });
    expect(response.status).toBe(200);
    const { job } = (await response.json()) as { job: PublishJobView };
    if (job.state === 'done') return job;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function publishedReportDate(): Promise<string> {
  return (JSON.parse(await readFile(join(work, 'dist/build.json'), 'utf8')) as { reportDate: string }).reportDate;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'operator-'));
  await writeExports(join(work, 'source'), { 'signals-2026-11-18.csv': dayCsv('2026-11-18', [70, -40, 10]), 'signals-2026-11-19.csv': dayCsv('2026-11-19', [72, -66, 20]) });
  accounts = await testAccounts({ mail: keepingMailer(), adminEmails: ['ops@example.com'] });
  runLog = new RunLog(accounts.database.db);
  // The future-date gate judges the uploads' dates (up to 2026-11-25) against 2026-11-24, not the machine's day.
  daily = dailyIn(work);
  await runDaily({ ...daily, runLog: { log: runLog, trigger: 'cli' } });
  ({ server, origin } = await serveDaily(daily, accounts, { siteUrl: SITE, operatorTools: operatorTools(daily, runLog) }, { operatorPages: operatorPages(accounts.session, daily.distDir) }));
  operator = await signUp('ops@example.com');
  await confirmEmail(accounts, 'ops@example.com');
  reader = await signUp('reader@example.com');
  await confirmEmail(accounts, 'reader@example.com');
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await accounts?.dispose();
  await rm(work, { recursive: true, force: true });
});

describe('operator routes and pages: who may use them', () => {
  it.each(OPERATOR_ROUTES)('%s %s: 401 signed out (and with a forged cookie), 403 for a non-operator', async (method, path) => {
    const anonymous = await request(path, { method, headers: { origin: SITE } });
    expect(anonymous.status).toBe(401);
    const forged = await request(path, { method, headers: { origin: SITE, cookie: 'better-auth.session_token=abc.def' } });
    expect(forged.status).toBe(401);
    const nonOperator = await request(path, { method, headers: { origin: SITE, cookie: reader } });
    expect(nonOperator.status).toBe(403);
    expect(((await nonOperator.json()) as { error: string }).error).toBe('Only an operator may do this.');
  });

  it('refuses a stale cookie: a signed-out operator session gets 401 at once', async () => {
    const signIn = await request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: JSON.stringify({ email: 'ops@example.com', password: 'correct horse battery' }),
    });
    const session = cookiesOf(signIn);
    expect((await request('/api/admin/status', { headers: { cookie: session } })).status).toBe(200);
    const signOut = await request('/api/auth/sign-out', { method: 'POST', headers: { origin: SITE, cookie: session, 'content-type': 'application/json' }, body: '{}' });
    expect(signOut.status).toBe(200);
    expect((await request('/api/admin/status', { headers: { cookie: session } })).status).toBe(401);
    expect((await request('/admin', { headers: { cookie: session } })).status).toBe(302);
  });

  it('refuses a change from another site even with the operator\'s cookie', async () => {
    const response = await request('/api/admin/tokens', {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: operator, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'x' }),
    });
    expect(response.status).toBe(403);
    expect((await (await asOperator('/api/admin/tokens')).json()).tokens).toEqual([]);
  });

  it('/upload and /admin: a sign-in redirect signed out, the 403 page for a non-operator, the page for an operator', async () => {
    for (const page of ['/upload', '/admin']) {
      const anonymous = await request(page);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toBe(`/login?returnTo=${encodeURIComponent(page)}`);
      const refused = await request(page, { headers: { cookie: reader } });
      expect(refused.status).toBe(403);
      const html = await refused.text();
      expect(html).toContain('Operators only');
      expect(html).not.toContain('data-upload-form');
      expect(html).not.toContain('data-admin-page');
      const allowed = await request(page, { headers: { cookie: operator } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    }
    // Pages no visitor may open stay out of the sitemap.
    const paths = (await readSitemaps(join(daily.distDir, 'client'))).map((entry) => new URL(entry.loc).pathname);
    expect(paths).toContain('/signal/AAPL');
    expect(paths.filter((path) => /^\/(upload|admin|403)\/?$/.test(path))).toEqual([]);
  });
});

describe('uploads', { timeout: 90_000 }, () => {
  it('answers 413 for a file over 25 MB and for more than 10 files, before anything is read into the job', async () => {
    const big = new Uint8Array(MAX_UPLOAD_FILE_BYTES + 1).fill(0x41);
    const tooBig = await asOperator('/api/admin/uploads/check', { method: 'POST', body: form([{ name: 'big.csv', body: big }]) });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toBe('big.csv is 25.1 MB: a file may be at most 25 MB.');
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `d${i}.csv`, body: dayCsv('2026-11-20', [1, 2, 3]) }));
    const tooMany = await asOperator('/api/admin/uploads', { method: 'POST', body: form(many) });
    expect(tooMany.status).toBe(413);
    expect(((await tooMany.json()) as { error: string }).error).toBe('11 files in one request: send at most 10 at a time.');
  });

  it('answers 413 to a request announcing more than 10 files of 25 MB, before reading its body', async () => {
    const { hostname, port } = new URL(origin);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = httpRequest({ hostname, port, path: '/api/admin/uploads', method: 'POST', headers: { origin: SITE, cookie: operator, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(300 * 1024 * 1024) } }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          sent.destroy();
        });
      });
      sent.on('error', reject);
      sent.write('--x\r\n');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'The request is larger than 251 MB: send at most 10 files of 25 MB each.' });
  });

  it('refuses a file by its content, whatever its name says, and a malformed CSV with its row and column', async () => {
    const pdf = await asOperator('/api/admin/uploads/check', { method: 'POST', body: form([{ name: 'signals.xlsx', body: '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj' }]) });
    expect(pdf.status).toBe(422);
    expect((await pdf.json()).problems).toEqual([{ file: 'signals.xlsx', message: 'The file is application/pdf (.pdf), not a CSV or XLSX export: export the signals as .csv or .xlsx.' }]);
    const bad = dayCsv('2026-11-20', [70, -40, 10]).replace('-40', '140');
    const malformed = await asOperator('/api/admin/uploads/check', { method: 'POST', body: form([{ name: 'signals-2026-11-20.csv', body: bad }]) });
    expect(malformed.status).toBe(422);
    const [problem] = (await malformed.json()).problems;
    expect(problem).toMatchObject({ file: 'signals-2026-11-20.csv', row: 3, column: 'C-Score' });
    expect(problem.message).toMatch(/-100/);
  });

  it('previews an XLSX (named .csv: read by its content) and a re-export of an archived date against the published report', async () => {
    const reExport = dayCsv('2026-11-19', [72, -66, 20], { MSFT: 'Microsoft Corporation' });
    const files = form([
      { name: 'day.csv', body: await dayXlsx('2026-11-20', [-80, -20, 90]) },
      { name: 'signals-2026-11-19-fixed.csv', body: reExport },
    ]);
    const response = await asOperator('/api/admin/uploads/check', { method: 'POST', body: files });
    expect(response.status).toBe(200);
    const { preview } = await response.json();
    expect(preview.files).toEqual([
      {
        file: 'day.xlsx',
        kind: 'xlsx',
        bytes: expect.any(Number),
        reportDates: ['2026-11-20'],
        rows: 3,
        tickers: 3,
        sheets: [{ name: 'Signals', rows: 3, isActive: true }],
        bullish: 1,
        bearish: 1,
        replaces: [],
      },
      {
        file: 'signals-2026-11-19-fixed.csv',
        kind: 'csv',
        bytes: reExport.length,
        reportDates: ['2026-11-19'],
        rows: 3,
        tickers: 3,
        sheets: [{ name: 'Signals', rows: 3, isActive: true }],
        bullish: 1,
        bearish: 1,
        replaces: [{ reportDate: '2026-11-19', file: 'signals-2026-11-19.csv' }],
      },
    ]);
    expect(preview.changes).toEqual({
      reportDate: '2026-11-20',
      publishedReportDate: '2026-11-19',
      newSignals: [{ ticker: 'XOM', cScore: 90, direction: 'bullish' }],
      exits: [{ ticker: 'MSFT', from: 'bearish', to: 'neutral', date: '2026-11-20' }],
      reversals: [{ ticker: 'AAPL', from: 'bullish', to: 'bearish', date: '2026-11-20' }],
    });
    expect(preview.warnings).toContain('day.csv is an Excel workbook by its content: it is read as day.xlsx.');
    expect(preview.warnings).toContain('2026-11-19 is in signals-2026-11-19.csv and signals-2026-11-19-fixed.csv: using signals-2026-11-19-fixed.csv, archived later.');
    // A preview stores and publishes nothing.
    expect(await publishedReportDate()).toBe('2026-11-19');
    expect(await readdir(daily.archiveDir)).not.toContain('day.xlsx');
  });
});

describe('publishing', { timeout: 90_000 }, () => {
  it('the token route publishes; a revoked token gets 401', async () => {
    const created = await asOperator('/api/admin/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ label: 'nightly push' }) });
    expect(created.status).toBe(201);
    const { token, entry } = await created.json();
    expect(token).toMatch(/^css_[A-Za-z0-9_-]{43}$/);
    const stored = await accounts.database.db.selectFrom('api_token').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await (await asOperator('/api/admin/tokens')).json())).not.toContain(token);

    const bearer = { authorization: `Bearer ${token}` };
    const response = await request('/api/admin/exports?wait=1', { method: 'POST', headers: bearer, body: form([{ name: 'signals-2026-11-20.csv', body: dayCsv('2026-11-20', [75, -70, 30]) }]) });
    expect(response.status).toBe(200);
    const { result, job } = await response.json();
    expect(result).toMatchObject({ outcome: 'published', reportDate: '2026-11-20' });
    expect(job).toMatchObject({ trigger: 'token', state: 'done', stagesDone: ['pull', 'parse', 'build', 'smoke', 'swap'] });
    expect(await publishedReportDate()).toBe('2026-11-20');
    const [run] = await runLog.recent();
    expect(run).toMatchObject({ trigger: 'token', outcome: 'published', reportDate: '2026-11-20', files: ['signals-2026-11-20.csv'] });

    const revoked = await asOperator(`/api/admin/tokens/${entry.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    const after = await request('/api/admin/exports', { method: 'POST', headers: bearer, body: form([{ name: 'signals-2026-11-21.csv', body: dayCsv('2026-11-21', [1, 2, 3]) }]) });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
    expect(await publishedReportDate()).toBe('2026-11-20');
  }, 180_000);

  it('two concurrent publishes run one after the other; the second is told it waits', async () => {
    const send = (date: string, scores: [number, number, number]) =>
      asOperator('/api/admin/uploads', { method: 'POST', body: form([{ name: `signals-${date}.csv`, body: dayCsv(date, scores) }]) });
    const [first, second] = await Promise.all([send('2026-11-23', [80, -80, 0]), send('2026-11-24', [81, -81, 66])]);
    expect([first.status, second.status]).toEqual([202, 202]);
    const answers = [await first.json(), await second.json()].sort((a, b) => a.job.ahead - b.job.ahead);
    expect(answers.map((a) => a.job.ahead)).toEqual([0, 1]);
    expect(answers[1].message).toBe('Another publish is running: yours waits in the queue (1 job ahead of it).');
    const jobs = await Promise.all(answers.map((a) => waitForJob(a.job.id, { cookie: operator })));
    expect(jobs.map((j) => j.result?.outcome)).toEqual(['published', 'published']);
    expect(Date.parse(jobs[1]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(jobs[0]!.finishedAt!));
    expect(await publishedReportDate()).toBe('2026-11-24');
    const runs = (await runLog.recent()).slice(0, 2).reverse();
    expect(runs.map((r: RunLogEntry) => [r.trigger, r.outcome])).toEqual([['upload', 'published'], ['upload', 'published']]);
    expect(Date.parse(runs[1]!.startedAt)).toBeGreaterThanOrEqual(Date.parse(runs[0]!.finishedAt!));
  }, 300_000);

  it('a build that fails leaves dist/ byte-identical, and the job and the run log say why', async () => {
    const before = await treeDigest(daily.distDir);
    // A company name the smoke check reads as a broken template: the file is valid, the build is refused.
    const body = dayCsv('2026-11-25', [10, 20, 30], { AAPL: 'NaN Holdings' });
    const response = await asOperator('/api/admin/uploads', { method: 'POST', body: form([{ name: 'signals-2026-11-25.csv', body }]) });
    expect(response.status).toBe(202);
    const job = await waitForJob((await response.json()).job.id, { cookie: operator });
    expect(job.result?.outcome).toBe('refused');
    expect(job.result?.messages[0]).toMatch(/^The smoke check found \d+ problem\(s\); the published site is unchanged:/);
    expect(job.stagesDone).toEqual(['pull', 'parse', 'build']);
    expect(job.stage).toBe('smoke');
    expect(await treeDigest(daily.distDir)).toBe(before);
    const [run] = await runLog.recent();
    expect(run).toMatchObject({ trigger: 'upload', outcome: 'refused', files: ['signals-2026-11-25.csv'] });
    expect(run!.messages[0]).toMatch(/^The smoke check found/);
    const runs = await (await asOperator('/api/admin/runs')).json();
    expect(runs.runs.map((r: RunLogEntry) => r.trigger)).toEqual(['upload', 'upload', 'upload', 'token', 'cli']);
  }, 180_000);
});

describe('users and company information', () => {
  it('counts users, finds one by email and grants and revokes Pro', async () => {
    const counts = await (await asOperator('/api/admin/users?email=READER@example.com')).json();
    expect(counts).toMatchObject({ counts: { total: 2, pro: 0, signedInLately: 2 }, user: { email: 'reader@example.com', plan: 'free', grantedPro: false } });
    const grant = await asOperator('/api/admin/users/pro', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'reader@example.com', pro: true }) });
    expect(await grant.json()).toMatchObject({ outcome: 'granted', message: 'reader@example.com now has Pro (granted by an operator).', user: { plan: 'pro' } });
    expect((await (await asOperator('/api/admin/users')).json()).counts.pro).toBe(1);
    const revoke = await asOperator('/api/admin/users/pro', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'reader@example.com', pro: false }) });
    expect((await revoke.json()).user.plan).toBe('free');
    const unknown = await asOperator('/api/admin/users/pro', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', pro: true }) });
    expect(unknown.status).toBe(404);
  });

  it('says how much of the company information is filled', async () => {
    const info = await (await asOperator('/api/admin/company-info')).json();
    expect(info).toEqual({ provider: 'demo', tickers: 3, stored: 0, withDescription: 0, withWebsite: 0, withLogo: 0 });
  });
});
