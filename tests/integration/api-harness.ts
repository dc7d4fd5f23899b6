/**
 * Shared by the api-*.test.ts files: a small built site and the real Hono app served on loopback (the fake
 * Polygon server they run it against is tests/fixtures/fake-polygon.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import writeExcelFile from 'write-excel-file/node';
import { runDaily, type DailyConfig } from '../../src/ingest/daily';
import { readUniverse } from '../../src/storage/universe';
import { createApi } from '../../src/server/api';
import { createApp } from '../../src/server/app';
import type { MarketDataProvider } from '../../src/server/providers/provider';
import { confirmEmail, testAccounts } from '../fixtures/accounts';
import { EXPORT_COLUMNS, exportCsv, exportRow, writeExports } from '../fixtures/exports';
import type { Accounts } from '../../src/server/accounts';

const ROOT = join(import.meta.dirname, '../..');

/** The tickers of the small report: AAPL, MSFT, BRK.B, NVDA, JPM. */
export const TICKERS = ['AAPL', 'MSFT', 'BRK.B', 'NVDA', 'JPM'] as const;

function day(date: string, scores: number[], firstName = 'Apple Inc.'): string {
  const names = [firstName, 'Microsoft', '"Berkshire Hathaway, Inc."', 'Nvidia', 'JPMorgan Chase'];
  return exportCsv(TICKERS.map((ticker, i) => exportRow(ticker, names[i]!, date, scores[i]!, `0,1,50,2,40,${scores[i]},${scores[i]},1,2,FALSE`)));
}

/** A built site: its folders, and the ids of its archived files. */
export interface BuiltSite {
  work: string;
  distDir: string;
  archiveDir: string;
  companyInfoFile: string;
  universeFile: string;
}

/** Builds a three-day site (two CSV files, one two-sheet XLSX with a formula-like cell) into a temp folder; `daily` adds settings of the job. */
export async function buildSite(daily: Partial<DailyConfig> = {}): Promise<BuiltSite> {
  const work = await mkdtemp(join(tmpdir(), 'api-'));
  const source = join(work, 'source');
  await writeExports(source, {
    'signals-2026-11-18.csv': day('2026-11-18', [70, -40, 10, 80, -70]),
    'signals-2026-11-19.csv': day('2026-11-19', [72, -66, 5, 60, -20], '=HYPERLINK("http://evil")'),
  });
  const header = [...EXPORT_COLUMNS];
  const row = (ticker: string, name: string, score: number) => [
    ticker, name, { value: new Date(Date.UTC(2026, 10, 20)), format: 'yyyy-mm-dd' }, score, 1, 2, 3, 4, 5, 6, 7, 0, 0, false,
  ];
  const workbook = await writeExcelFile([
    { sheet: 'Summary', data: [['Note', 'Count'], ['@SUM(1+1)', 5], ['-2+3', -4.5]] },
    {
      sheet: 'Signals',
      data: [
        header,
        row('AAPL', 'Apple Inc.', 80),
        row('MSFT', 'Microsoft', -90),
        row('BRK.B', 'Berkshire Hathaway, Inc.', 0),
        row('NVDA', 'Nvidia', 66),
        row('JPM', 'JPMorgan Chase', -10),
      ],
    },
  ]).toBuffer();
  await writeExports(source, { 'signals-2026-11-20.xlsx': workbook });
  const site: BuiltSite = {
    work,
    distDir: join(work, 'dist'),
    archiveDir: join(work, 'archive'),
    companyInfoFile: join(work, 'companies.json'),
    universeFile: join(ROOT, 'data/universe/sp500-constituents.csv'),
  };
  await runDaily({
    source,
    archiveDir: site.archiveDir,
    distDir: site.distDir,
    universeFile: site.universeFile,
    companyInfoFile: site.companyInfoFile,
    shareImageCache: join(work, 'share-images'),
    siteName: 'C-Score Signals',
    force: true,
    ...daily,
  });
  return site;
}

/** The universe companies, for the demo provider. */
export function universeOf(site: BuiltSite) {
  return readUniverse(site.universeFile);
}

/** A running app: its origin, and every response seen through `get`/`send`, for the key-leak checks. */
export interface RunningApi {
  origin: string;
  /** The app's account layer (its database), for tests that grant Pro. */
  accounts: Accounts;
  seen: string[];
  get(path: string, init?: RequestInit): Promise<Response>;
  /** Headers of a signed-in operator (ADMIN_EMAILS has ops@example.com) and of a signed-in user who is not one. */
  operator: Record<string, string>;
  member: Record<string, string>;
  close(): Promise<void>;
}

/** The site origin the harness's app trusts (SITE_URL). */
export const SITE = 'https://signals.example';

/** Signs up through the real Better Auth handler; the session cookie and a trusted Origin, as headers. */
export async function signUp(origin: string, email: string, password = 'correct horse battery'): Promise<Record<string, string>> {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password, name: '' }),
  });
  if (response.status !== 200) throw new Error(`sign-up of ${email}: ${response.status} ${await response.text()}`);
  // Sign-up never signs in: the session comes from signing in.
  const signedIn = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password }),
  });
  if (signedIn.status !== 200) throw new Error(`sign-in of ${email}: ${signedIn.status} ${await signedIn.text()}`);
  const cookie = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!).join('; ');
  return { cookie, origin: SITE };
}

/** Serves the real app (static build + live API) on 127.0.0.1, port 0. */
export async function startApi(
  site: BuiltSite,
  provider: MarketDataProvider,
  now?: () => number,
  access: { paywall?: boolean; databaseUrl?: string | null } = {},
): Promise<RunningApi> {
  const accounts = await testAccounts({ adminEmails: ['ops@example.com'], paywall: access.paywall ?? false, databaseUrl: access.databaseUrl ?? null });
  const api = createApi({
    accounts,
    distDir: site.distDir,
    archiveDir: site.archiveDir,
    companyInfoFile: site.companyInfoFile,
    provider,
    siteUrl: 'https://signals.example',
    now,
  });
  const app = createApp({ distDir: site.distDir, api });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const seen: string[] = [];
  const operator = await signUp(origin, 'ops@example.com');
  await confirmEmail(accounts, 'ops@example.com');
  const member = await signUp(origin, 'member@example.com');
  await confirmEmail(accounts, 'member@example.com');
  return {
    origin,
    accounts,
    seen,
    operator,
    member,
    async get(path, init) {
      const response = await fetch(`${origin}${path}`, { redirect: 'manual', ...init });
      const body = await response.clone().text();
      seen.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}`);
      return response;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await accounts.dispose();
    },
  };
}
