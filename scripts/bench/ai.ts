/**
 * Section 7, AI: a stored analysis served under load, /ai-analysis on Lighthouse's mobile preset and the
 * scripts it loads before any interaction, and what a day costs in tokens at 503 and 6,000 tickers, counted from the
 * fake OpenAI-compatible server's usage (tests/fixtures/fake-llm.ts: 4 characters a token, prompt and answer).
 */
import type { Browser } from '@playwright/test';
import { FREE_AI_ALLOWANCE } from '../../src/lib/domain/ai/rules';
import { startFakeLlm } from '../../tests/fixtures/fake-llm';
import { apiSection, LOAD_BUDGETS } from './api';
import { settleNetwork } from './browser';
import { type BenchContext, type Budget, type Figure, type FigureInput, figure } from './figures';
import { lighthouseSection } from './lighthouse';
import type { Reference } from './reference';
import type { BenchServer } from './server';

const MODEL = 'fake-model-bench';
const KEY = 'bench-fake-llm-key';

/** How the section measures, once for the table's header. */
export const AI_NOTE =
  'Against `npm start` with LLM_BASE_URL pointed at the fake OpenAI-compatible server of the tests on loopback (tests/fixtures/fake-llm.ts). ' +
  'Stored analysis: the first ticker\'s analysis, written and stored by the token measure, loaded as the API section loads its routes (wrk when installed, else autocannon; 50 connections, a 2 s warm-up, 10 s, 3 s with --quick), beside a static JSON file of the same server; the p99 budget of the stored analysis is a multiple of the time per request of the bare node:http reference measured at the start of the run (see the top). ' +
  '/ai-analysis: the Lighthouse section\'s method (mobile preset, 3 runs) on the 503-ticker build, and Chromium counting the script requests of a fresh load until the network is idle, with no interaction. ' +
  'Tokens: the fake server\'s usage counts (prompt + answer, 4 characters a token: a real tokenizer differs by some tens of percent) for the daily brief, the analyses of 3 tickers (mean; the Free allowance of the anonymous caller) and the chat question "Which bullish energy stocks are there today?"; a day is the brief plus one analysis of every ticker.';

/** The env that points `npm start` at the fake model. */
export function aiServerEnv(baseUrl: string): Record<string, string> {
  return { LLM_BASE_URL: baseUrl, LLM_API_KEY: KEY, LLM_MODEL: MODEL, LLM_RATE_PER_MIN: '10000', LLM_DAILY_TOKEN_LIMIT: '2000000000' };
}

/** Starts the fake model server for the section. */
export function startBenchModel() {
  return startFakeLlm(0, KEY);
}

async function post(origin: string, path: string, body: unknown): Promise<string> {
  const response = await fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

async function tickersOf(origin: string): Promise<string[]> {
  const rows = (await (await fetch(`${origin}/api/all-signals`)).json()) as { ticker: string }[] | { data: { ticker: string }[] };
  return (Array.isArray(rows) ? rows : rows.data).map((row) => row.ticker);
}

/** The tokens of the brief, of an analysis and of a chat question on the server's build, from the fake's usage. */
export async function tokenFigures(ctx: BenchContext, origin: string, fake: { usage: { total: number } }, tickers: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('ai', input));
  const spent = async (work: () => Promise<unknown>) => {
    const before = fake.usage.total;
    await work();
    return fake.usage.total - before;
  };
  const brief = await spent(async () => {
    const response = await fetch(`${origin}/api/ai/brief`);
    if (response.status !== 200) throw new Error(`GET /api/ai/brief: ${response.status} ${await response.text()}`);
  });
  const all = await tickersOf(origin);
  // The Free allowance (3 analyses a day per address) is what an anonymous caller may ask for.
  const sample = all.slice(0, FREE_AI_ALLOWANCE.analysis);
  let analyses = 0;
  for (const ticker of sample) analyses += await spent(() => post(origin, '/api/ai/analysis', { ticker }));
  const analysis = analyses / sample.length;
  const chat = await spent(() => post(origin, '/api/ai/chat', { id: `bench-${tickers}`, messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'Which bullish energy stocks are there today?' }] }] }));
  const method = `fake server's usage counts, ${all.length} tickers in the report`;
  add({ name: `${tickers} tickers: daily brief`, value: brief, unit: 'tokens', method });
  add({ name: `${tickers} tickers: one analysis (mean of ${sample.length})`, value: Math.round(analysis), unit: 'tokens', method });
  add({ name: `${tickers} tickers: one chat question with a list`, value: chat, unit: 'tokens', method });
  add({ name: `${tickers} tickers: a day (brief + every ticker analysed once)`, value: Math.round(brief + analysis * all.length), unit: 'tokens', method: `${brief} + ${all.length} x ${Math.round(analysis)}` });
  ctx.log(`  ${tickers} tickers: brief ${brief}, analysis ${Math.round(analysis)}, chat ${chat} tokens`);
  return figures;
}

/** A stored analysis under load; /ai-analysis in Lighthouse and its scripts before interaction. */
export async function aiSection(ctx: BenchContext, server: BenchServer, browser: Browser, reference: Reference | null): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('ai', input));
  const origin = server.origin;

  // The first ticker's analysis, which tokenFigures wrote and stored (asking again costs no allowance).
  const ticker = (await tickersOf(origin))[0]!;
  await post(origin, '/api/ai/analysis', { ticker });
  const url = `${origin}/api/ai/analysis/${ticker}`;
  const first = await fetch(url);
  if (first.status !== 200) throw new Error(`GET /api/ai/analysis/${ticker}: ${first.status} ${await first.text()}`);
  // The API section's load (wrk when installed, else autocannon; a warm-up) on the stored analysis and, for scale, a
  // static JSON file of the same server.
  const rows = await apiSection(
    ctx,
    origin,
    [
      { label: `stored analysis /api/ai/analysis/${ticker}`, path: `/api/ai/analysis/${ticker}`, rps: null, ...LOAD_BUDGETS.storedAnalysis },
      { label: `for scale, static JSON /api/stock/${ticker}`, path: `/api/stock/${ticker}`, rps: null, p99: null },
    ],
    reference,
  );
  for (const row of rows) figures.push({ ...row, section: 'ai' });
  ctx.log(`  stored analysis: ${rows.find((r) => r.name.startsWith('stored analysis') && r.name.endsWith('p99 latency'))?.value} ms p99`);

  const page = await browser.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${origin}/ai-analysis`);
  await settleNetwork(page);
  await page.close();
  add({ name: '/ai-analysis: scripts before interaction', value: scripts.length, unit: 'requests', budget: { op: '=', limit: 0 }, method: scripts.length === 0 ? 'Chromium, fresh load, no interaction' : `Chromium: ${scripts.join(', ')}` });

  const budgets: Record<string, Budget> = {
    performance: { op: '>=', limit: 100 },
    accessibility: { op: '>=', limit: 100 },
    SEO: { op: '>=', limit: 100 },
  };
  for (const row of await lighthouseSection(ctx, origin, [{ label: '/ai-analysis', path: '/ai-analysis', kind: 'list' }])) {
    const metric = row.name.replace(/^\/ai-analysis: /, '');
    figures.push(figure('ai', { name: row.name, value: row.value, unit: row.unit, budget: budgets[metric] ?? null, method: `Lighthouse mobile, ${row.method}`, missing: row.missing }));
  }
  return figures;
}
