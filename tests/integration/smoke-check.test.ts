/**
 * The smoke check looks at each page as the build's compression threads read it (the pages are read once), and
 * still reads a page it must have that nobody handed it, without walking the build's folders; a page it was given is
 * not read again. The static API's files are checked
 * where they are written, before they move into the build.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompressor } from '../../src/ingest/precompress';
import { PageCheck } from '../../src/ingest/smoke';
import { checkStaticApi } from '../../src/ingest/static-api';
import { LEDGER_CSV_PATH, PER_TICKER_ROUTES, REPORT_ROUTES } from '../../src/lib/domain/site/routes';

let root: string;
const page = (body: string) => `<!doctype html><html><head><script>window.x = undefined;</script></head><body>${body}${' '.repeat(1100)}</body></html>`;
const write = async (path: string, text: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'smoke-check-'));
  await write('index.html', page('<p>C-Score 72.50</p>'));
  await write('signal/AAPL/index.html', page('<p>C-Score NaN</p>'));
  await write('signal/KO/index.html', page('<p>vs undefined yesterday</p>'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the smoke check fed by the compressor', () => {
  it('finds broken text in the pages the compressor read and in the required ones it did not, and names the missing pages', async () => {
    const check = new PageCheck();
    const read: string[] = [];
    const compressor = createCompressor(root, { inspect: (path, findings) => (read.push(path), check.record(path, findings)) });
    compressor.add('index.html');
    compressor.add('signal/AAPL/index.html');
    compressor.exclude(['signal/KO/index.html']);
    await compressor.finish();
    expect(read.sort()).toEqual(['index.html', 'signal/AAPL/index.html']);

    const { problems, pages, scriptHashes } = await check.result(root, ['AAPL', 'KO', 'MSFT']);
    expect(pages).toBe(3);
    expect(problems).toContain('missing page signal/MSFT/index.html');
    expect(problems).toContain('missing page 404.html');
    expect(problems.filter((p) => p.startsWith('signal/'))).toEqual([
      expect.stringMatching(/^signal\/AAPL\/index\.html shows ".*C-Score NaN/),
      // Not handed to the check by the compressor: read by the check itself.
      expect.stringMatching(/^signal\/KO\/index\.html shows ".*vs undefined yesterday/),
    ]);
    // The inline script is hashed once, whichever way the pages came.
    expect(scriptHashes).toHaveLength(1);
    expect(problems.some((p) => p.startsWith('index.html'))).toBe(false);
  });
});

describe("the smoke check's look at the static API", () => {
  it('names each missing or empty route file of a report ticker, and nothing when every file is there', async () => {
    const api = await mkdtemp(join(tmpdir(), 'smoke-api-'));
    try {
      const put = async (path: string, text = '{}') => {
        await mkdir(dirname(join(api, path)), { recursive: true });
        await writeFile(join(api, path), text);
      };
      for (const route of REPORT_ROUTES) await put(`api/${route}.json`);
      await put(LEDGER_CSV_PATH, 'ticker\r\n');
      for (const ticker of ['AAPL', 'KO']) for (const route of PER_TICKER_ROUTES) await put(`api/${route}/${ticker}.json`);
      expect(await checkStaticApi(api, ['AAPL', 'KO'])).toEqual([]);

      await rm(join(api, 'api/c-score-trend/KO.json'));
      await put('api/track-record/AAPL.json', '');
      await rm(join(api, 'api/all-signals.json'));
      expect((await checkStaticApi(api, ['AAPL', 'KO'])).sort()).toEqual([
        'missing API file api/all-signals.json',
        'missing API file api/c-score-trend/KO.json',
        'missing API file api/track-record/AAPL.json',
      ]);
    } finally {
      await rm(api, { recursive: true, force: true });
    }
  });
});
