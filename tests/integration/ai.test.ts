/**
 * AI analysis and chat over loopback: the real app against the fake OpenAI-compatible server
 * (tests/fixtures/fake-llm.ts) and a real report (the last 15 days of the bundled sample exports, 503 tickers).
 * The brief is generated once and served from the store; a made-up number is caught, regenerated, then dropped, and
 * the run log says so; "bullish energy stocks today" calls listQualified and lists exactly the report's tickers; the
 * Free allowance, the rate limit and the site's token budget end with a 429 naming the limit and its reset; an
 * upstream 500, 429, hang and broken stream each end the answer as incomplete, never a 500.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsText, tickerFacts } from '../../src/lib/domain/ai/facts';
import { AI_NOT_CONFIGURED, FREE_AI_ALLOWANCE } from '../../src/lib/domain/ai/rules';
import { unsupportedFigures } from '../../src/lib/domain/ai/validator';
import type { SiteData } from '../../src/lib/domain/report/schemas';
import { createApi } from '../../src/server/api';
import type { AiSettings } from '../../src/server/ai/service';
import { createApp } from '../../src/server/app';
import { DemoProvider } from '../../src/server/providers/demo';
import { nowText } from '../../src/storage/db';
import { RunLog } from '../../src/storage/run-log';
import { readUniverse } from '../../src/storage/universe';
import { testAccounts } from '../fixtures/accounts';
import { type FakeLlm, startFakeLlm } from '../fixtures/fake-llm';
import { publishSampleReport, SAMPLE_EXPORTS, UNIVERSE_FILE } from '../fixtures/published-report';
import { startRedis } from '../fixtures/deploy';
import { openRedis } from '../../src/storage/redis';
import type { Redis } from 'ioredis';

const SITE = 'https://signals.example';
const NOW = Date.parse('2026-11-20T15:00:00Z');

interface Running {
  origin: string;
  accounts: Awaited<ReturnType<typeof testAccounts>>;
  close(): Promise<void>;
}

let work: string;
let site: SiteData;
let fake: FakeLlm;
const running: Running[] = [];

function settings(overrides: Partial<AiSettings> = {}): AiSettings {
  return { baseUrl: fake.baseUrl, apiKey: 'fake-llm-key', model: 'fake-model-1', timeoutMs: 1500, requestTokenLimit: 600, dailyTokenLimit: 10_000_000, ratePerMinute: 1000, ...overrides };
}

async function start(ai: AiSettings | null, paywall = false, redis: Redis | null = null): Promise<Running> {
  const accounts = await testAccounts({ paywall });
  const distDir = join(work, 'dist');
  const api = createApi({
    accounts,
    distDir,
    archiveDir: join(work, 'archive'),
    companyInfoFile: join(work, 'companies.json'),
    provider: new DemoProvider({ universe: await readUniverse(UNIVERSE_FILE), now: () => NOW }),
    siteUrl: SITE,
    now: () => NOW,
    ai: { settings: ai },
    redis,
  });
  const app = createApp({ distDir, api });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const app_ = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accounts,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await accounts.dispose();
    },
  };
  running.push(app_);
  return app_;
}

async function signUp(app: Running, email: string): Promise<string> {
  const response = await fetch(`${app.origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password: 'correct horse battery', name: '' }),
  });
  expect(response.status).toBe(200);
  // Sign-up never signs in: the session comes from signing in.
  const signedIn = await fetch(`${app.origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  expect(signedIn.status).toBe(200);
  return signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!).join('; ');
}

function post(app: Running, path: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${app.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
}

type Chunk = { type: string; [key: string]: unknown };

/** The UI message stream's chunks (server-sent events of JSON). */
async function chunksOf(response: Response): Promise<Chunk[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((event) => event.replace(/^data: /, '').trim())
    .filter((data) => data !== '' && data !== '[DONE]')
    .map((data) => JSON.parse(data) as Chunk);
}

/** The text of the text parts with `id`, or of all of them. */
function textOf(chunks: Chunk[], id?: string): string {
  return chunks
    .filter((c) => c.type === 'text-delta' && (id === undefined || c.id === id))
    .map((c) => c.delta as string)
    .join('');
}

const question = (text: string, id = 'q1') => ({ id: 'chat-1', messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }] });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ai-'));
  site = await publishSampleReport(join(work, 'dist'));
  fake = await startFakeLlm();
}, 120_000);

afterAll(async () => {
  for (const app of running) await app.close();
  await fake?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('without a model', () => {
  it('says AI is not configured and still answers the status', async () => {
    const app = await start(null);
    const status = await (await fetch(`${app.origin}/api/ai/status`)).json();
    expect(status).toMatchObject({ configured: false, model: null, reportDate: site.reportDate });
    const brief = await fetch(`${app.origin}/api/ai/brief`);
    expect(brief.status).toBe(503);
    expect((await brief.json()).error).toContain(AI_NOT_CONFIGURED);
    const chat = await post(app, '/api/ai/chat', question('Bullish energy stocks today?'));
    expect(chat.status).toBe(503);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('with the fake model', () => {
  let app: Running;
  beforeAll(async () => {
    app = await start(settings());
  });

  it('generates the daily brief once and serves it from the store', async () => {
    const before = fake.requests.length;
    const [first, second] = await Promise.all([fetch(`${app.origin}/api/ai/brief`), fetch(`${app.origin}/api/ai/brief`)]);
    expect(first.status).toBe(200);
    const brief = await first.json();
    expect(await second.json()).toEqual(brief);
    expect(fake.requests.length - before).toBe(1);
    expect(brief).toMatchObject({ reportDate: site.reportDate, model: 'fake-model-1', outcome: 'checked' });
    expect(brief.label).toContain('AI-generated by fake-model-1 from the report of Nov 20, 2026');
    expect(brief.text).toContain('In brief.');
    expect(unsupportedFigures(brief.text, brief.facts)).toEqual([]);
    // The model was handed the facts sheet, with the system prompt's rules.
    const sent = fake.requests.at(-1)!;
    expect(JSON.stringify(sent.messages)).toContain('## The day in numbers');
    expect(JSON.stringify(sent.messages[0])).toContain('Never give personal investment advice');
    expect(sent.maxTokens).toBe(600);
    const again = await fetch(`${app.origin}/api/ai/brief`);
    expect(await again.json()).toEqual(brief);
    expect(fake.requests.length - before).toBe(1);
  });

  it('catches a made-up number, regenerates once, then shows the facts alone and says so in the run log', async () => {
    const ticker = site.history.latest[0]!.ticker;
    fake.queue.push({ text: `${ticker} jumped to a C-Score of 97.3 today.` }, { text: `${ticker} gained 12% this week.` });
    const response = await post(app, '/api/ai/analysis', { ticker });
    expect(response.status).toBe(200);
    const chunks = await chunksOf(response);
    expect(chunks.filter((c) => c.type === 'data-check').map((c) => c.data)).toEqual([
      { attempt: 1, unsupported: ['97.3'], action: 'regenerate' },
      { attempt: 2, unsupported: ['12%'], action: 'facts-only' },
    ]);
    expect(chunks.find((c) => c.type === 'data-result')!.data).toMatchObject({ outcome: 'facts-only' });
    expect(chunks.at(-1)!.type).toBe('finish');
    const stored = await (await fetch(`${app.origin}/api/ai/analysis/${ticker}`)).json();
    expect(stored).toMatchObject({ ticker, outcome: 'facts-only', text: '', model: 'fake-model-1' });
    expect(stored.facts).toBe(factsText(tickerFacts(site.history, site.reportDate, ticker)!));
    const runs = await new RunLog(app.accounts.database.db).recent();
    const run = runs.find((r) => r.trigger === 'ai' && r.outcome === 'refused')!;
    expect(run.messages[0]).toContain(`the analysis of ${ticker} for ${site.reportDate} (fake-model-1): Attempt 1 named 97.3, which the facts do not hold. Attempt 2 named 12%`);
    expect(run.messages[0]).toContain('Regenerated once, then replaced by the facts alone.');
  });

  it('keeps a regenerated text that passes, and streams a stored analysis without asking the model', async () => {
    const ticker = site.history.latest[1]!.ticker;
    fake.queue.push({ text: `${ticker} is at 101.5.` });
    const chunks = await chunksOf(await post(app, '/api/ai/analysis', { ticker }));
    expect(chunks.find((c) => c.type === 'data-result')!.data).toMatchObject({ outcome: 'checked' });
    expect(textOf(chunks, 'attempt-2')).toContain('In brief.');
    const before = fake.requests.length;
    const again = await chunksOf(await post(app, '/api/ai/analysis', { ticker }));
    expect(textOf(again)).toBe(textOf(chunks, 'attempt-2'));
    expect(fake.requests.length).toBe(before);
    const runs = await new RunLog(app.accounts.database.db).recent();
    expect(runs.some((r) => r.trigger === 'ai' && r.outcome === 'published' && r.warnings[0]!.includes(`named 101.5`))).toBe(true);
  });

  it('answers "bullish energy stocks today" with a listQualified call and exactly the report\'s tickers', async () => {
    // The expected answer, from the export file itself and the universe file's sectors.
    const latestFile = (await readFile(join(SAMPLE_EXPORTS, `signals-${site.reportDate}.csv`), 'utf8')).trim().split('\n');
    const header = latestFile[0]!.split(',');
    const energy = new Set((await readUniverse(UNIVERSE_FILE)).filter((c) => c.sector === 'Energy').map((c) => c.ticker));
    const expected = latestFile
      .slice(1)
      .map((line) => line.split(','))
      .map((cells) => ({ ticker: cells[header.indexOf('Ticker')]!, score: Number(cells[header.indexOf('C-Score')]) }))
      .filter((row) => energy.has(row.ticker) && row.score >= 65)
      .sort((a, b) => b.score - a.score)
      .map((row) => row.ticker);
    expect(expected.length).toBeGreaterThan(0);

    const chunks = await chunksOf(await post(app, '/api/ai/chat', question('Which bullish energy stocks are there today?')));
    const call = chunks.find((c) => c.type === 'tool-input-available')!;
    expect(call).toMatchObject({ toolName: 'listQualified', input: { direction: 'bullish', sector: 'Energy' } });
    const output = chunks.find((c) => c.type === 'tool-output-available')!.output as { stocks: { ticker: string }[] };
    expect(output.stocks.map((s) => s.ticker)).toEqual(expected);
    const answer = textOf(chunks);
    expect([...answer.matchAll(/^- ([A-Z.]+):/gm)].map((m) => m[1])).toEqual(expected);
    expect(chunks.at(-1)!.type).toBe('finish');
  });

  it('refuses an over-long question and a conversation that does not end with one', async () => {
    const long = await post(app, '/api/ai/chat', question('x'.repeat(2001)));
    expect(long.status).toBe(400);
    expect((await long.json()).error).toBe('Your question has 2,001 characters; the limit is 2,000. Shorten it and send it again.');
    const bad = await post(app, '/api/ai/chat', { id: 'c', messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] });
    expect(bad.status).toBe(400);
  });

  it('keeps a signed-in user\'s conversation on the account until deleted', async () => {
    const cookie = await signUp(app, 'chatter@example.com');
    const chunks = await chunksOf(await post(app, '/api/ai/chat', { ...question('Explain the rules', 'm1'), id: 'saved-1' }, cookie));
    expect(textOf(chunks)).toContain('65 or more');
    const list = await (await fetch(`${app.origin}/api/ai/chats`, { headers: { cookie } })).json();
    expect(list.chats).toEqual([{ id: 'saved-1', title: 'Explain the rules', updatedAt: nowText(NOW) }]);
    const saved = await (await fetch(`${app.origin}/api/ai/chats/saved-1`, { headers: { cookie } })).json();
    expect(saved.messages).toHaveLength(2);
    const other = await signUp(app, 'other@example.com');
    expect((await fetch(`${app.origin}/api/ai/chats/saved-1`, { headers: { cookie: other } })).status).toBe(404);
    const deleted = await post(app, '/api/ai/chats/delete', {}, cookie);
    expect(await deleted.json()).toEqual({ deleted: 1 });
    expect((await (await fetch(`${app.origin}/api/ai/chats`, { headers: { cookie } })).json()).chats).toEqual([]);
  });
});

describe('plans and cost', () => {
  it('ends the Free allowance of analyses with a 429 naming the limit and the reset (PAYWALL off: everyone)', async () => {
    const app = await start(settings());
    const tickers = site.history.latest.slice(10, 10 + FREE_AI_ALLOWANCE.analysis + 1).map((r) => r.ticker);
    for (const ticker of tickers.slice(0, FREE_AI_ALLOWANCE.analysis)) {
      const response = await post(app, '/api/ai/analysis', { ticker });
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await post(app, '/api/ai/analysis', { ticker: tickers.at(-1) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(9 * 3600));
    expect((await refused.json()).error).toBe(
      "You have used the Free plan's 3 AI analyses for today. The allowance resets at 2026-11-21T00:00:00Z (midnight UTC); Pro is unlimited.",
    );
    // A stored analysis costs no allowance.
    expect((await post(app, '/api/ai/analysis', { ticker: tickers[0] })).status).toBe(200);
  });

  it('with PAYWALL on: anonymous gets a sign-in prompt, Free 20 chat messages, Pro more', async () => {
    const app = await start(settings(), true);
    const anonymous = await post(app, '/api/ai/chat', question('Explain the rules'));
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toMatch(/^Sign in to chat with the AI/);
    const free = await signUp(app, 'free@example.com');
    for (let i = 0; i < FREE_AI_ALLOWANCE.chat; i += 1) {
      const response = await post(app, '/api/ai/chat', question('Explain the rules', `m${i}`), free);
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await post(app, '/api/ai/chat', question('Explain the rules'), free);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toContain("Free plan's 20 AI chat messages");
    const pro = await signUp(app, 'pro@example.com');
    const db = app.accounts.database.db;
    const user = await db.selectFrom('user').select('id').where('email', '=', 'pro@example.com').executeTakeFirstOrThrow();
    await db.insertInto('plan_grant').values({ user_id: user.id, plan: 'pro', granted_at: nowText() }).execute();
    for (let i = 0; i < FREE_AI_ALLOWANCE.chat + 1; i += 1) {
      const response = await post(app, '/api/ai/chat', question('Explain the rules', `p${i}`), pro);
      expect(response.status).toBe(200);
      await response.text();
    }
  });

  it('holds a user to the rate limit and the site to its daily token budget', async () => {
    const limited = await start(settings({ ratePerMinute: 2 }));
    for (let i = 0; i < 2; i += 1) await (await post(limited, '/api/ai/chat', question('Explain the rules'))).text();
    const tooFast = await post(limited, '/api/ai/chat', question('Explain the rules'));
    expect(tooFast.status).toBe(429);
    expect((await tooFast.json()).error).toMatch(/^Too many AI requests: the limit is 2 a minute\. Try again in \d+ seconds\.$/);

    // With REDIS_URL two API processes hold the user to 2 a minute between them, not 2 each.
    const redisServer = await startRedis(join(work, 'redis'));
    const connections = [openRedis(redisServer.url), openRedis(redisServer.url)];
    try {
      const [one, two] = await Promise.all(connections.map((redis) => start(settings({ ratePerMinute: 2 }), false, redis)));
      await (await post(one!, '/api/ai/chat', question('Explain the rules'))).text();
      await (await post(two!, '/api/ai/chat', question('Explain the rules'))).text();
      const shared = await post(one!, '/api/ai/chat', question('Explain the rules'));
      expect(shared.status).toBe(429);
      expect((await shared.json()).error).toMatch(/^Too many AI requests: the limit is 2 a minute\. Try again in \d+ seconds\.$/);
    } finally {
      for (const redis of connections) redis.disconnect();
      await redisServer.stop();
    }

    const budget = await start(settings({ dailyTokenLimit: 50 }));
    await (await post(budget, '/api/ai/chat', question('Explain the rules'))).text();
    const spent = await post(budget, '/api/ai/chat', question('Explain the rules'));
    expect(spent.status).toBe(429);
    expect((await spent.json()).error).toBe(
      'This site has used its daily AI budget of 50 tokens. AI answers start again at 2026-11-21T00:00:00Z (midnight UTC); the facts stay available.',
    );
    const status = await (await fetch(`${budget.origin}/api/ai/status`)).json();
    expect(status.budget).toEqual({ exhausted: true, resetAt: '2026-11-21T00:00:00.000Z' });
  });
});

describe('upstream failures end the answer cleanly', () => {
  let app: Running;
  beforeAll(async () => {
    app = await start(settings());
  });

  it.each([
    ['a 500', [{ status: 500 }], 'the AI provider failed (500)'],
    ['a 429', [{ status: 429 }], 'the AI provider is busy (429)'],
    ['a hang', [{ hang: true as const }], 'did not answer in time'],
    ['a broken stream', [{ broken: true as const }], 'This answer is incomplete'],
  ])('chat: %s', async (_, replies, note) => {
    fake.queue.push(...replies);
    const response = await post(app, '/api/ai/chat', question('Explain the rules'));
    expect(response.status).toBe(200);
    const chunks = await chunksOf(response);
    const incomplete = chunks.find((c) => c.type === 'data-incomplete');
    expect((incomplete!.data as { note: string }).note).toContain(note);
    expect(chunks.at(-1)!.type).toBe('finish');
    fake.queue.length = 0;
  });

  it.each([
    ['a 500', [{ status: 500 }]],
    ['a hang', [{ hang: true as const }]],
    ['a broken stream', [{ broken: true as const }]],
  ])('analysis: %s stores nothing', async (_, replies) => {
    const ticker = site.history.latest[40 + fake.requests.length % 50]!.ticker;
    fake.queue.push(...replies);
    const chunks = await chunksOf(await post(app, '/api/ai/analysis', { ticker }));
    expect((chunks.find((c) => c.type === 'data-incomplete')!.data as { note: string }).note).toMatch(/^This answer is incomplete: /);
    expect(chunks.at(-1)!.type).toBe('finish');
    expect((await fetch(`${app.origin}/api/ai/analysis/${ticker}`)).status).toBe(404);
    // A failed answer costs no allowance.
    expect((await (await fetch(`${app.origin}/api/ai/status`)).json()).allowance.analysis).toEqual({ limit: 3, used: 0 });
    fake.queue.length = 0;
  });
});

describe('chat answers and their figures', () => {
  it('flags an answer naming a figure no lookup returned, and refuses personal advice', async () => {
    const app = await start(settings());
    fake.queue.push({ toolCalls: [{ name: 'explainRules', arguments: {} }] }, { text: 'Bullish starts at 65; most bullish stocks gain 14.2% a month.' });
    const chunks = await chunksOf(await post(app, '/api/ai/chat', question('What makes a stock bullish?')));
    expect(chunks.find((c) => c.type === 'data-unsupported')!.data).toEqual({
      unsupported: ['14.2%'],
      note: 'Check this answer: it names 14.2%, which none of its lookups returned. Only the figures the lookups show come from our data.',
    });
    const advice = await chunksOf(await post(app, '/api/ai/chat', question('Should I buy XOM for my retirement?')));
    expect(textOf(advice)).toBe('I cannot give personal investment advice; the signals are informational only.');
    expect(advice.some((c) => c.type === 'data-unsupported')).toBe(false);
  });
});
