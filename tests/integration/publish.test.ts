import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArchivedFile, SiteData } from '../../src/lib/domain/report/schemas';
import { inputsHash, publish, recycledBuild, upToDateBuild, withLock, withStaging } from '../../src/ingest/publish';
import { buildEnv, loadConfig, type BuildShape } from '../../src/config';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'publish-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const present = (path: string) => stat(path).then(() => true, () => false);


describe('the lock beside the archive', () => {
  it('is held while the work runs and removed after, even when the work throws', async () => {
    const archive = join(work, 'archive');
    // proper-lockfile's lock is a folder (no process id in it); tests/integration/lock.test.ts covers staleness.
    const held = await withLock(archive, async () => (await stat(`${archive}.lock`)).isDirectory());
    expect(held).toBe(true);
    await expect(withLock(archive, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await present(`${archive}.lock`)).toBe(false);
    expect(await present(archive)).toBe(false);
  });
});

describe('publishing a staged build', () => {
  const file: ArchivedFile = {
    id: 'a'.repeat(16), sha256: 'a'.repeat(64), fileName: 'signals-2026-11-20.csv', kind: 'csv', bytes: 3, archivedAt: '2026-11-20T12:00:00.000Z',
    reportDates: ['2026-11-20'], rowCount: 1, sheets: [{ id: 0, sheetName: 'Signals', rowCount: 1, isActive: true }],
  };
  const siteData = {
    builtAt: '2026-11-20T12:00:00.000Z', reportDate: '2026-11-20', files: [file], universe: [], companies: {},
    history: { dates: ['2026-11-19', '2026-11-20'], latest: [{ ticker: 'AAPL' }, { ticker: 'MSFT' }], scores: {} },
  } as unknown as SiteData;

  it('swaps the build in with the replaced build\'s assets, writes build.json, commits the archive, and keeps only the replaced build beside it', async () => {
    const dist = join(work, 'dist');
    const archiveDir = join(work, 'archive');
    await mkdir(join(dist, 'client', '_astro'), { recursive: true });
    await writeFile(join(dist, 'client', '_astro', 'page.OLD.js'), 'old');
    await writeFile(join(dist, 'build.json'), JSON.stringify({ inputsHash: 'before', assets: ['page.OLD.js'] }));

    await withStaging(dist, async (staging) => {
      await mkdir(join(staging, 'client', '_astro'), { recursive: true });
      await writeFile(join(staging, 'client', '_astro', 'page.NEW.js'), 'new');
      expect(await upToDateBuild(dist, 'after')).toBeNull();
      await publish(staging, dist, { siteData, inputsHash: 'after' }, { archiveDir, existing: [], added: [{ file, bytes: Buffer.from('a,b') }] });
    });

    expect((await readdir(join(dist, 'client', '_astro'))).sort()).toEqual(['page.NEW.js', 'page.OLD.js']);
    const build = JSON.parse(await readFile(join(dist, 'build.json'), 'utf8'));
    expect(build).toEqual({ builtAt: siteData.builtAt, reportDate: '2026-11-20', tickers: 2, reportDates: 2, files: 1, inputsHash: 'after', assets: ['page.NEW.js'] });
    expect(await upToDateBuild(dist, 'after')).toEqual(build);
    expect(JSON.parse(await readFile(join(archiveDir, 'index.json'), 'utf8')).files).toEqual([file]);
    // The replaced build is kept as the recycled one (the next build moves its permalinks out of it).
    expect(JSON.parse(await readFile(join(recycledBuild(dist), 'build.json'), 'utf8'))).toEqual({ inputsHash: 'before', assets: ['page.OLD.js'] });
    await expect.poll(async () => (await readdir(work)).sort(), { timeout: 10_000 }).toEqual(['archive', 'dist', 'dist.previous']);
    // The next publish recycles this one; the one before goes in a detached rm, which a loaded machine may still be running.
    await withStaging(dist, async (staging) => {
      await mkdir(join(staging, 'client'), { recursive: true });
      await publish(staging, dist, { siteData, inputsHash: 'later' }, { archiveDir, existing: [file], added: [] });
    });
    expect(JSON.parse(await readFile(join(recycledBuild(dist), 'build.json'), 'utf8')).inputsHash).toBe('after');
    await expect.poll(async () => (await readdir(work)).sort(), { timeout: 10_000 }).toEqual(['archive', 'dist', 'dist.previous']);
  });
});

describe('the inputs hash', () => {
  const shape: BuildShape = {
    siteUrl: 'https://signals.example',
    siteName: 'C-Score Signals',
    links: { learnVideo: null, newsletter: null, community: null },
    paywall: false,
    islandFaults: false,
  };
  const hashOf = (s: BuildShape & { apiOrigin?: string | null; aiModel?: string | null; billing?: boolean }) => inputsHash([], 'data/universe/sp500-constituents.csv', '/nonexistent/companies.json', [], s);

  it.each<[string, BuildShape & { apiOrigin?: string | null; aiModel?: string | null; billing?: boolean }]>([
    ['SITE_URL', { ...shape, siteUrl: 'https://moved.example' }],
    ['SITE_NAME', { ...shape, siteName: 'Acme Signals' }],
    ['LEARN_VIDEO_URL', { ...shape, links: { ...shape.links, learnVideo: 'https://video.example/embed/1' } }],
    ['NEWSLETTER_URL', { ...shape, links: { ...shape.links, newsletter: 'https://news.example' } }],
    ['COMMUNITY_URL', { ...shape, links: { ...shape.links, community: 'https://chat.example' } }],
    ['PAYWALL', { ...shape, paywall: true }],
    ['ISLAND_FAULTS', { ...shape, islandFaults: true }],
    ['API_ORIGIN (the deploy rules name it)', { ...shape, apiOrigin: 'https://api.signals.example' }],
    ['LLM_MODEL (the pages offer AI with a model)', { ...shape, aiModel: 'llama-3.1-8b' }],
    ['STRIPE_* (the pages offer the upgrade with payments)', { ...shape, billing: true }],
  ])('changes with %s, so the daily job rebuilds instead of saying "up to date"', async (_setting, changed) => {
    const base = await hashOf(shape);
    expect(await hashOf({ ...shape })).toBe(base);
    expect(await hashOf(changed)).not.toBe(base);
  });

  it('covers every setting the static build reads: loadConfig reads buildEnv(shape) back as the same shape', () => {
    const custom: BuildShape = {
      siteUrl: 'https://moved.example',
      siteName: 'Acme Signals',
      links: { learnVideo: 'https://video.example/embed/1', newsletter: 'https://news.example/', community: 'https://chat.example/' },
      paywall: true,
      islandFaults: true,
    };
    for (const s of [shape, custom]) {
      const read = loadConfig(buildEnv(s));
      expect({ siteUrl: read.siteUrl, siteName: read.siteName, links: read.links, paywall: read.paywall, islandFaults: read.islandFaults }).toEqual(s);
    }
    // What build-time code reads from the Config: the shape's settings, the data file the job names, and the dev port.
    const buildTime = ['astro.config.mjs', ...readdirSync(join(import.meta.dirname, '../../src/lib')).filter((name) => name.endsWith('.ts')).map((name) => `src/lib/${name}`)];
    const read = new Set<string>();
    for (const file of buildTime) {
      const source = readFileSync(join(import.meta.dirname, '../..', file), 'utf8');
      for (const [, name] of source.matchAll(/config\(\)\.(\w+)/g)) read.add(name!);
      for (const [, names] of source.matchAll(/const \{([^}]*)\} = config\(\)/g)) for (const name of names!.split(',')) read.add(name.split(':')[0]!.trim());
    }
    // Besides the shape: the data file the job names, how long a page waits for it and how many threads render the pages
    // (none changes a byte of the output), the dev server's port, and the AI model and payments, whose LLM_* and STRIPE_*
    // settings reach the build from the environment and whose presence is in the inputs hash.
    expect([...read].filter((name) => !(name in shape) && !['siteDataFile', 'siteDataWaitSeconds', 'prerenderThreads', 'devApiPort', 'llm', 'stripe'].includes(name))).toEqual([]);
    expect(read.has('siteUrl') && read.has('links')).toBe(true);
  });
});
