import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import writeExcelFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/db';
import { RunLog } from '../../src/storage/run-log';
import { EXPORT_COLUMNS, EXPORT_HEADER_LINE, exportCsv, writeExports } from '../fixtures/exports';
import { readSitemaps } from '../fixtures/sitemap';

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

const DAY1 = exportCsv([
  'AAPL,Apple Inc.,2026-11-18,70.00,60.00,12.5,80,30,40,66,60,3,5,TRUE',
  'MSFT,Microsoft,2026-11-18,-40.00,-45.00,1,70,-3,40,-42,-40,0,0,FALSE',
  'BRK.B,"Berkshire Hathaway, Inc.",2026-11-18,10.00,12.00,0,50,0,50,11,10,0,0,FALSE',
]);
const CAMEL_DAY2 = [
  'ticker,companyName,reportDate,cScore,yesterdayCScore,delta,accuracy,market,relevance,avgCScoreL7D,avgCScoreL14D,countL7DWithSignal,countL14DWithSignal,isTopTicker',
  'aapl,Apple Inc.,11/19/2026," 72.5 ",70,1,2,3,4,68,61,4,6,true',
  'MSFT,Microsoft,11/19/2026,-66,-40,1,2,3,4,-50,-45,1,1,false',
  'BRK.B,"Berkshire Hathaway, Inc.",11/19/2026,5,10,1,2,3,4,9,9,0,0,false',
].join('\n');

async function day3Workbook(): Promise<Buffer> {
  const header = [...EXPORT_COLUMNS];
  const row = (ticker: string, name: string, score: number) => [
    ticker, name, { value: new Date(Date.UTC(2026, 10, 20)), format: 'yyyy-mm-dd' }, score, 1, 2, 3, 4, 5, 6, 7, 0, 0, false,
  ];
  return writeExcelFile([
    { sheet: 'Summary', data: [['Sector', 'Tickers'], ['All', 3]] },
    {
      sheet: 'Signals',
      data: [header, row('AAPL', 'Apple Inc.', 80), row('MSFT', 'Microsoft', -90), row('BRK.B', 'Berkshire Hathaway, Inc.', 0)],
    },
  ]).toBuffer();
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runDaily(env: Record<string, string>, args: string[] = []): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSX, 'scripts/daily.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A digest of every file's path and bytes under a folder: equal digests mean byte-for-byte the same tree. */
async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
  for (const file of files) hash.update(file.slice(dir.length)).update(await readFile(file));
  return `${files.length}:${hash.digest('hex')}`;
}

let work: string;
let env: Record<string, string>;
let source: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'daily-'));
  source = join(work, 'source');
  await writeExports(source, {
    'signals-2026-11-18.csv': `\uFEFF${DAY1}\n`,
    'signals-2026-11-19.csv': CAMEL_DAY2,
    'signals-2026-11-20.xlsx': await day3Workbook(),
    'README.txt.bak': 'not an export',
  });
  env = {
    SIGNALS_SOURCE: source,
    ARCHIVE_DIR: join(work, 'archive'),
    DIST_DIR: join(work, 'dist'),
    DATABASE_FILE: join(work, 'app.db'),
    SITE_URL: 'https://signals.example',
    // Its own share-image cache: the checkout's is shared with every other build on the machine.
    SHARE_IMAGE_CACHE: join(work, 'share-images'),
  };
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

// Each test runs the whole job (an astro build): on a loaded 2-core machine one takes up to about 30 s.
describe('npm run daily', { timeout: 90_000 }, () => {
  it('publishes CSV (both label styles) and a two-sheet XLSX, and prints the summary', async () => {
    const result = await runDaily(env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/files:\s+3 pulled, 3 new, 0 already archived, 1 ignored \(README\.txt\.bak\)/);
    expect(result.stdout).toMatch(/rows:\s+9/);
    expect(result.stdout).toMatch(/tickers:\s+3 on 2026-11-20/);
    expect(result.stdout).toMatch(/report dates: 3 \(2026-11-18 to 2026-11-20\)/);
    expect(result.stdout).toMatch(/warnings:\s+0/);
    expect(result.stdout).toMatch(/seconds:\s+\d+\.\d/);
    // Not a terminal: one line per stage as it ends, and the summary's time per stage.
    expect(result.stdout).toMatch(/^stage parse: \d+\.\d s$/m);
    expect(result.stdout).toMatch(/^stage pages and images: [\d.]+ s \(\d+ pages, 3 images\)$/m);
    expect(result.stdout).toMatch(/^ {2}stages: {7}pull [\d.]+ s, prices [\d.]+ s, parse [\d.]+ s, site data [\d.]+ s, pages and images [\d.]+ s, static api [\d.]+ s, compress [\d.]+ s, smoke check [\d.]+ s, swap [\d.]+ s(, alerts [\d.]+ s)?$/m);

    const site = JSON.parse(await readFile(join(work, 'dist/data/site.json'), 'utf8'));
    expect(site.reportDate).toBe('2026-11-20');
    expect(site.history.dates).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(site.history.scores.AAPL).toEqual([70, 72.5, 80]);
    expect(site.history.scores.MSFT).toEqual([-40, -66, -90]);
    const xlsx = site.files.find((f: { kind: string }) => f.kind === 'xlsx');
    expect(xlsx.sheets).toEqual([
      { id: 0, sheetName: 'Summary', rowCount: 1, isActive: false },
      { id: 1, sheetName: 'Signals', rowCount: 3, isActive: true },
    ]);
    const page = await readFile(join(work, 'dist/client/signal/BRK.B/index.html'), 'utf8');
    expect(page).toContain('Berkshire Hathaway, Inc.');
    // One address for the ticker page, as it is served and linked: canonical, og:url, JSON-LD and sitemap agree.
    const address = 'https://signals.example/signal/BRK.B';
    expect(page).toContain(`<link rel="canonical" href="${address}">`);
    expect(page).toContain(`<meta property="og:url" content="${address}">`);
    const ld = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)![1]!);
    const [webPage, , breadcrumbs] = ld['@graph'];
    expect([webPage['@id'], webPage.url, breadcrumbs.itemListElement.at(-1).item]).toEqual([address, address, address]);
    const locs = (await readSitemaps(join(work, 'dist/client'))).map((entry) => entry.loc);
    expect(locs).toContain(address);
    expect(locs).toContain('https://signals.example/');
    expect(locs.filter((loc) => loc!.endsWith('/') && loc !== 'https://signals.example/')).toEqual([]);
    // The not-found pages (404 and the Stock Not Found screen) stay out of it.
    expect(locs.filter((loc) => /^https:\/\/signals\.example\/(404|signal)\/?$/.test(loc!))).toEqual([]);
    const home = await readFile(join(work, 'dist/client/index.html'), 'utf8');
    expect(home).toContain('href="/signal/MSFT"');
    const archived = await readdir(join(work, 'archive/files'));
    expect(archived).toHaveLength(3);
  });

  it('is a no-op for files already archived (by content hash)', async () => {
    const before = await treeDigest(join(work, 'archive'));
    const dist = await treeDigest(join(work, 'dist'));
    const result = await runDaily(env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/files:\s+3 pulled, 0 new, 3 already archived/);
    expect(result.stdout).toContain('up to date');
    expect(await treeDigest(join(work, 'archive'))).toBe(before);
    expect(await treeDigest(join(work, 'dist'))).toBe(dist);
  });

  const AAPL_DAY4 = 'AAPL,Apple Inc.,2026-11-23,70.00,80.00,12.5,80,30,40,66,60,3,5,TRUE';
  const MSFT_DAY4 = 'MSFT,Microsoft,2026-11-23,-40.00,-90.00,12.5,80,30,40,66,60,3,5,FALSE';
  it.each<[string, string | Buffer, RegExp]>([
    ['a duplicate ticker', exportCsv([AAPL_DAY4, MSFT_DAY4, AAPL_DAY4]), /bad\.csv \(row 4, column "Ticker"\): .*AAPL appears twice/],
    ['a C-Score of 150', exportCsv([AAPL_DAY4.replace('70.00', '150')]), /bad\.csv \(row 2, column "C-Score"\): .*C-Score is 150; it must be from -100 to 100/],
    ['a ragged row', exportCsv([AAPL_DAY4, 'MSFT,Microsoft,2026-11-23,-40.00']), /bad\.csv \(row 3, column "Yesterday C-Score"\): .*ragged/],
    ['an empty file', '', /bad\.csv: The file is empty/],
    ['a binary file named .csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]), /bad\.csv: The file is binary/],
    ['no C-Score column', [EXPORT_HEADER_LINE.replace('C-Score,Yesterday', 'Score,Yesterday'), AAPL_DAY4].join('\n'), /bad\.csv \(row 1, column "C-Score"\): There is no "C-Score" column/],
  ])('refuses %s: exit 1, names file, row and column, and changes neither dist/ nor the archive', async (_name, content, message) => {
    const badSource = join(work, `bad-${createHash('md5').update(_name).digest('hex').slice(0, 6)}`);
    await cp(source, badSource, { recursive: true });
    await writeExports(badSource, { 'bad.csv': content });
    const dist = await treeDigest(join(work, 'dist'));
    const archive = await treeDigest(join(work, 'archive'));
    const result = await runDaily({ ...env, SIGNALS_SOURCE: badSource });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('nothing was archived or published');
    expect(await treeDigest(join(work, 'dist'))).toBe(dist);
    expect(await treeDigest(join(work, 'archive'))).toBe(archive);
  });

  it('publishes a new day from an http(s) URL, keeps the earlier days and the replaced build\'s assets', async () => {
    // A page still open from the replaced build must find its hashed assets after the swap.
    const buildFile = join(work, 'dist/build.json');
    const previous = JSON.parse(await readFile(buildFile, 'utf8'));
    await writeFile(join(work, 'dist/client/_astro/island.OLD123.js'), 'export {};');
    await writeFile(buildFile, JSON.stringify({ ...previous, assets: [...previous.assets, 'island.OLD123.js'] }));

    const body = exportCsv([AAPL_DAY4, MSFT_DAY4]);
    const server = createServer((req, res) => {
      if (req.url !== '/exports/latest') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="signals-2026-11-23.csv"' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Two tickers against three is a 33% drop: the ticker-drop gate holds it unless the operator accepts it.
    const result = await runDaily({ ...env, SIGNALS_SOURCE: `http://127.0.0.1:${port}/exports/latest` }, ['--accept', 'ticker-drop']).finally(() => server.close());
    expect(result.stderr).toBe('');
    const index = JSON.parse(await readFile(join(work, 'archive/index.json'), 'utf8'));
    expect(index.files.at(-1).fileName).toBe('signals-2026-11-23.csv');
    expect(await readFile(join(work, 'dist/client/_astro/island.OLD123.js'), 'utf8')).toBe('export {};');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/report dates: 4 \(2026-11-18 to 2026-11-23\)/);
    expect(result.stdout).toMatch(/tickers:\s+2 on 2026-11-23/);
    expect(result.stdout).toContain('accepted:     --accept ticker-drop for signals-2026-11-23.csv: held by the gate ticker-drop: the latest report (2026-11-23) would have 2 ticker(s) against 3 on 2026-11-20');
    const build = JSON.parse(await readFile(join(work, 'dist/build.json'), 'utf8'));
    expect(build).toMatchObject({ reportDate: '2026-11-23', tickers: 2, reportDates: 4, files: 4 });
    expect(build.assets).not.toContain('island.OLD123.js');
    await expect(readFile(join(work, 'dist/client/signal/BRK.B/index.html'))).rejects.toThrow();
  });

  it('writes every run to the run log of the accounts database, refusals with their messages', async () => {
    const database = openDatabase({ url: null, file: join(work, 'app.db') });
    try {
      const runs = (await new RunLog(database.db).recent()).reverse();
      expect(runs.every((run) => run.trigger === 'cli' && run.finishedAt !== null && run.durationMs !== null)).toBe(true);
      expect(runs[0]).toMatchObject({ outcome: 'published', reportDate: '2026-11-20', files: ['signals-2026-11-18.csv', 'signals-2026-11-19.csv', 'signals-2026-11-20.xlsx'], notes: { ignored: ['README.txt.bak'] } });
      expect(runs[1]).toMatchObject({ outcome: 'up-to-date', files: [] });
      const refused = runs.filter((run) => run.outcome === 'refused');
      expect(refused).toHaveLength(6);
      expect(refused.every((run) => run.messages[0]?.startsWith('Refused 1 file(s); nothing was archived or published'))).toBe(true);
      expect(runs.at(-1)).toMatchObject({ outcome: 'published', reportDate: '2026-11-23', files: ['signals-2026-11-23.csv'] });
    } finally {
      await database.close();
    }
  });

  it('rebuilds when SITE_URL alone changes: canonical links, og:url, JSON-LD and the sitemap name the new origin', async () => {
    const moved = { ...env, SITE_URL: 'https://moved.example' };
    const result = await runDaily(moved);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('published the site');
    const page = await readFile(join(work, 'dist/client/signal/AAPL/index.html'), 'utf8');
    expect(page).toContain('<link rel="canonical" href="https://moved.example/signal/AAPL">');
    expect(page).toContain('<meta property="og:url" content="https://moved.example/signal/AAPL">');
    expect(page).not.toContain('signals.example');
    const locs = (await readSitemaps(join(work, 'dist/client'))).map((entry) => entry.loc);
    expect(locs).toContain('https://moved.example/signal/AAPL');
    expect(locs.filter((loc) => loc.includes('signals.example'))).toEqual([]);
    expect(await readFile(join(work, 'dist/client/sitemap-index.xml'), 'utf8')).not.toContain('signals.example');
    // The same settings again: nothing to do.
    expect((await runDaily(moved)).stdout).toContain('up to date');
  });

  it('warns on every run when SITE_URL is unset or not https, and refuses to run so under NODE_ENV=production', async () => {
    const warned = await runDaily({ ...env, SITE_URL: '' });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('Warning: SITE_URL is "http://localhost:4321" (unset or not https)');
    const refused = await runDaily({ ...env, SITE_URL: 'http://signals.example', NODE_ENV: 'production' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SITE_URL is "http://signals.example" (unset or not https)');
    expect(refused.stderr).toContain('It is required when NODE_ENV=production.');
    expect(refused.stdout).not.toContain('Daily job');
  });
});
