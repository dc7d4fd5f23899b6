/**
 * `npm run bench [-- --only build,weight,lighthouse,api,client,limits,history,deploy,alerts,ai] [-- --quick] [-- --long]`: measures build scaling, page weight,
 * Lighthouse, API throughput, client work and the export limits against the budgets of the issues. A full run writes bench/results.json
 * and bench/RESULTS.md; a partial one (--only or --quick) writes them to bench/tmp/ so the committed figures stay
 * whole. Misses are listed at the end; the exit code is 0 even with misses and 1 only when a section could not run.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { ALERTS_NOTE, alertsSection } from './bench/alerts';
import { AI_NOTE, aiSection, aiServerEnv, startBenchModel, tokenFigures } from './bench/ai';
import { accountRoutes, API_NOTE, apiRoutes, apiSection, keyedRoutes, measureReference, signInSection } from './bench/api';
import { launchChromium } from './bench/browser';
import { BUILD_NOTE, buildSection, ensureSite } from './bench/build';
import { CLIENT_NOTE, clientSection } from './bench/client';
import { SCREENER_NOTE, screenerSection } from './bench/screener';
import { type BenchContext, type Figure, SECTIONS, type SectionName } from './bench/figures';
import { LIGHTHOUSE_NOTE, lighthouseSection } from './bench/lighthouse';
import { TRACK_NOTE, trackSection } from './bench/track';
import { HISTORY_NOTE, historySection } from './bench/history';
import { LIMITS_NOTE, limitsSection } from './bench/limits';
import { benchPages } from './bench/pages';
import type { Reference } from './bench/reference';
import { type BenchResults, describeMachine, describeReference, missLines, toMarkdown } from './bench/report';
import { type BenchServer, startServer } from './bench/server';
import { WEIGHT_NOTE, weightSection } from './bench/weight';
import { DEPLOY_NOTE, deploySection } from './bench/deploy';

const USAGE = `usage: npm run bench [-- --only ${SECTIONS.join(',')}] [-- --quick]
  --only   run only these sections (comma-separated)
  --quick  503 tickers only, 1 Lighthouse run, 3 s of load per route: for trying the bench out
  --long   also the history section's 6,000 x 1,260 archive (about 35 minutes more)`;

function fail(message: string): never {
  console.error(`bench: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseOptions(): { sections: SectionName[]; quick: boolean; long: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false }, long: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  } catch (error) {
    fail((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = parsed.values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only ?? []) if (!(SECTIONS as readonly string[]).includes(name)) fail(`unknown section "${name}"`);
  return { sections: only ? SECTIONS.filter((s) => only.includes(s)) : [...SECTIONS], quick: parsed.values.quick ?? false, long: parsed.values.long ?? false };
}

// Exit through process.exit on Ctrl-C, so the servers the bench started are stopped too (server.ts).
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.on(signal, () => process.exit(code));

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { sections, quick, long } = parseOptions();
const ctx: BenchContext = {
  root,
  tmp: join(root, 'bench/tmp'),
  quick,
  long,
  chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  log: (line) => console.log(line),
};
await mkdir(ctx.tmp, { recursive: true });

const startedAt = new Date();
const started = performance.now();
const machine = describeMachine(ctx.chromiumPath);
const figures: Figure[] = [];
const failedSections: BenchResults['failedSections'] = [];
let browser: Browser | undefined;

// The host's yardstick, measured before any section loads the machine: the load budgets are ratios to it.
let reference: Reference | null = null;
try {
  reference = await measureReference(ctx);
  console.log(`Reference: ${describeReference(reference)}`);
} catch (error) {
  console.error(`The bare node:http reference could not be measured, so every budget stated against it misses: ${(error as Error).message}`);
}

/** Runs one section; a section that throws is recorded and the others still run. */
async function run(section: SectionName, work: () => Promise<Figure[]>): Promise<void> {
  if (!sections.includes(section)) return;
  const sectionStart = performance.now();
  console.log(`\n== ${section} ==`);
  try {
    figures.push(...(await work()));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`The ${section} section could not run: ${message}`);
    failedSections.push({ section, error: message });
  }
  console.log(`   (${Math.round((performance.now() - sectionStart) / 1000)} s)`);
}

async function chromium(): Promise<Browser> {
  browser ??= await launchChromium(ctx.chromiumPath);
  return browser;
}

/** Serves a bench build with the real server for the duration of `work`. */
async function withServer<T>(tickers: number, work: (server: BenchServer, clientDir: string) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const dirs = await ensureSite(ctx, tickers);
  const server = await startServer(root, dirs.dist, env);
  try {
    return await work(server, join(dirs.dist, 'client'));
  } finally {
    await server.stop();
  }
}

try {
  await run('build', () => buildSection(ctx));

  const served = sections.filter((s) => s === 'weight' || s === 'lighthouse' || s === 'api');
  if (served.length > 0) {
    try {
      await withServer(503, async (server, clientDir) => {
        console.log(`\nServing the 503-ticker build on ${server.origin}`);
        const pages = benchPages(clientDir);
        const ticker = pages.find((p) => p.kind === 'ticker')!.path.split('/').pop()!;
        await run('weight', async () => weightSection(ctx, clientDir, server.origin, pages, await chromium()));
        await run('lighthouse', () => lighthouseSection(ctx, server.origin, pages));
        await run('api', async () => [
          ...(await apiSection(ctx, server.origin, [...apiRoutes(ticker), ...(await accountRoutes(server.origin)), ...(await keyedRoutes(server.origin, server.databaseFile, ticker))], reference)),
          ...(await signInSection(ctx, server.origin)),
        ]);
      });
    } catch (error) {
      for (const section of served) {
        if (!failedSections.some((f) => f.section === section)) failedSections.push({ section, error: `no server: ${(error as Error).message}` });
      }
      console.error(`Could not serve the 503-ticker build: ${(error as Error).message}`);
    }
  }

  const clientTickers = quick ? 503 : 6000;
  await run('client', () => withServer(clientTickers, async (server) => clientSection(ctx, server.origin, clientTickers, await chromium())));
  await run('screener', () => withServer(clientTickers, async (server) => screenerSection(ctx, server.origin, clientTickers, await chromium())));
  await run('limits', () => limitsSection(ctx));
  await run('history', () => historySection(ctx));
  await run('deploy', async () => deploySection(ctx, (await ensureSite(ctx, 503)).dist));
  await run('alerts', () => alertsSection(ctx));
  await run('track', () => trackSection(ctx));
  await run('ai', async () => {
    const fake = await startBenchModel();
    try {
      const figures: Figure[] = [];
      for (const tickers of quick ? [503] : [503, 6000]) {
        // A fresh accounts database: stored texts would make the token counts 0.
        const database = join(ctx.tmp, `ai-bench-${tickers}.db`);
        await rm(database, { force: true });
        for (const suffix of ['-wal', '-shm']) await rm(database + suffix, { force: true });
        const env = { ...aiServerEnv(fake.baseUrl), DATABASE_FILE: database };
        figures.push(
          ...(await withServer(
            tickers,
            async (server) => [...(await tokenFigures(ctx, server.origin, fake, tickers)), ...(tickers === 503 ? await aiSection(ctx, server, await chromium(), reference) : [])],
            env,
          )),
        );
      }
      return figures;
    } finally {
      await fake.close();
    }
  });
} finally {
  await browser?.close();
}

const results: BenchResults = {
  startedAt: startedAt.toISOString(),
  durationSeconds: Math.round((performance.now() - started) / 1000),
  quick,
  sections,
  machine,
  reference,
  figures,
  notes: { build: BUILD_NOTE, weight: WEIGHT_NOTE, lighthouse: LIGHTHOUSE_NOTE, api: API_NOTE, client: CLIENT_NOTE, screener: SCREENER_NOTE, limits: LIMITS_NOTE, history: HISTORY_NOTE, deploy: DEPLOY_NOTE, alerts: ALERTS_NOTE, ai: AI_NOTE, track: TRACK_NOTE },
  failedSections,
};
const partial = quick || sections.length < SECTIONS.length;
const outDir = partial ? ctx.tmp : join(root, 'bench');
await writeFile(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(join(outDir, 'RESULTS.md'), toMarkdown(results));

const missed = missLines(figures);
console.log(`\nBenchmark finished in ${results.durationSeconds} s; wrote ${relative(process.cwd(), join(outDir, 'RESULTS.md'))} and results.json${partial ? ' (a partial run: bench/tmp/)' : ''}.`);
console.log(missed.length === 0 ? 'Every figure meets its budget.' : `${missed.length} figure(s) miss their budget:`);
for (const line of missed) console.log(`  - ${line}`);
for (const failed of failedSections) console.log(`  - ${failed.section}: the section could not run: ${failed.error.split('\n')[0]}`);
process.exit(failedSections.length > 0 ? 1 : 0);
