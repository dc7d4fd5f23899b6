/**
 * /api/ai: the daily brief, a ticker's analysis and the chat, grounded in the published report, with the plans'
 * allowances, a per-user rate limit and the site's daily token budget (src/server/ai/admission.ts, budget.ts,
 * limiter.ts) checked before the model is called. Without LLM_* set, every generating route answers 503 saying AI
 * is not configured; the facts stay available.
 *
 *   GET  /status                 configured, model, report date, the viewer's allowances and the budget
 *   GET  /brief                  the daily brief: stored once per report and model (generated on the first request)
 *   GET  /analysis/{T}           a stored analysis (404 with the facts when none is stored yet)
 *   POST /analysis {ticker}      the analysis, streamed (a UI message stream), stored by report date, ticker and model
 *   POST /chat {id, messages}    a chat answer, streamed, with tool calls into our data; kept on a signed-in account
 *   GET  /chats, GET /chats/{id} a signed-in user's saved conversations
 *   POST /chats/delete {id?}     deletes one or all (a form post from /account answers 303 back to it)
 */
import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, type LanguageModel, type UIMessage, type UIMessageStreamWriter } from 'ai';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { dailyFacts, factsText, type FactsSheet, tickerFacts } from '../../lib/domain/ai/facts';
import {
  AI_NOT_CONFIGURED,
  aiLabel,
  FACTS_ONLY_NOTE,
  MAX_CHAT_TOTAL_CHARS,
  MAX_SAVED_CHATS,
  utcDay,
} from '../../lib/domain/ai/rules';
import type { SiteIndex } from '../../storage/site-index';
import { AiStore, type StoredAiText } from '../../storage/ai-store';
import type { RunLog } from '../../storage/run-log';
import { AiAdmission, type AiCaller, callerKey } from '../ai/admission';
import { AnswerCache, InFlight } from '../ai/answer-cache';
import { chatInput } from '../ai/chat-input';
import { DailyBudget } from '../ai/budget';
import { AiRateLimiter } from '../ai/limiter';
import { type AiSettings, chatSystem, checkedText, languageModel, streamChat } from '../ai/service';
import { chatTools } from '../ai/tools';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, type SessionUser } from '../auth/session';
import { refusal } from '../errors';
import { clientAddress } from '../upstream';
import { routeTicker, validate } from '../validate';
import { lockedForCaller, typedJson, type ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const BRIEF = 'brief';
/** Stored analyses whose answers the server keeps ready (6,000 tickers take about 20 MB). */
const ANSWER_CACHE_SIZE = 6000;

const TickerParams = z.object({ ticker: z.string().transform((raw, ctx) => routeTicker(raw, ctx)) });
const AnalysisBody = z.object({ ticker: z.string().max(20).transform((raw, ctx) => routeTicker(raw, ctx)) });
const PartSchema = z.looseObject({ type: z.string().max(100), text: z.string().max(MAX_CHAT_TOTAL_CHARS).optional() });
const MessageSchema = z.looseObject({ id: z.string().max(100), role: z.enum(['user', 'assistant']), parts: z.array(PartSchema).max(50) });
const ChatBody = z.object({
  id: z.string().regex(/^[\w-]{1,100}$/, 'expected 1 to 100 letters, digits, "-" or "_"'),
  messages: z.array(MessageSchema).min(1).max(500),
});
const DeleteBody = z.object({ id: z.string().max(100).optional() });

/** What /api/ai needs beyond the API's context. */
export interface AiRouteOptions {
  /** Config's `llm`; null: AI is not configured. */
  settings: AiSettings | null;
  /** The run log that records the AI number check. */
  runLog: RunLog | null;
  /** The model to use instead of the settings' (tests); default the OpenAI-compatible provider. */
  model?: LanguageModel;
}

/** Mounted at /api/ai: the checks of src/server/ai/ (admission, budget, limiter, answer cache) wired to the routes. */
export function aiRoutes(context: ApiContext, options: AiRouteOptions, sessionUser: MiddlewareHandler<SessionEnv>) {
  const store = new AiStore(context.accounts.database.db);
  const settings = options.settings;
  const model = settings === null ? null : (options.model ?? languageModel(settings));
  const now = () => context.now();
  const paywall = context.accounts.paywall;
  // Without settings the budget and the limiter are never reached: every generating route answers 503 first.
  const budget = new DailyBudget(store, settings?.dailyTokenLimit ?? 0);
  // With REDIS_URL the per-user rate counts across the API processes, as the sign-in limits do.
  const limiter = new AiRateLimiter(settings?.ratePerMinute ?? 1, context.redis);
  const admission = new AiAdmission({ uses: store, budget, limiter, paywall, now });
  const generations = new InFlight<StoredAiText>();
  // The JSON of stored analyses (one model a process).
  const answers = new AnswerCache<string>(ANSWER_CACHE_SIZE);

  async function site(): Promise<SiteIndex> {
    const current = await context.site.current();
    if (current === null) throw refusal(503, 'No report is published yet: run "npm run daily" to build the site.', { 'Retry-After': '60' });
    return current;
  }

  /** Top tickers whose scores the viewer may not see (PAYWALL=on, not Pro): none otherwise. */
  function hidden(current: SiteIndex, user: SessionUser | null): ReadonlySet<string> {
    return lockedForCaller(current, paywall, user);
  }

  function configured(): { settings: AiSettings; model: LanguageModel } {
    if (settings === null || model === null) throw refusal(503, `${AI_NOT_CONFIGURED} The site's operator sets LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to turn it on; the facts stay available.`);
    return { settings, model };
  }

  function caller(c: Context<SessionEnv>): AiCaller {
    return { user: c.var.user, key: callerKey(c.var.user, clientAddress(c, context.trustedProxies)) };
  }

  /** The answer of a stored text (or of the facts alone). */
  function answerOf(text: StoredAiText, sheet: FactsSheet) {
    return {
      reportDate: text.reportDate,
      ticker: sheet.ticker,
      model: text.model,
      outcome: text.outcome,
      text: text.text,
      note: text.outcome === 'facts-only' ? FACTS_ONLY_NOTE : null,
      label: aiLabel(text.model, text.reportDate),
      facts: text.facts,
    };
  }

  /** A stored text's answer: GET /ai/brief and GET /ai/analysis/{T}. */
  type AiTextAnswer = ReturnType<typeof answerOf>;

  async function generate(sheet: FactsSheet, subject: string, writer: UIMessageStreamWriter | null, usageId: string | null): Promise<StoredAiText | { incomplete: string }> {
    const ai = configured();
    const result = await checkedText({ model: ai.model, settings: ai.settings, siteName: context.siteName, runLog: options.runLog, subject }, sheet, writer);
    if (usageId !== null) await store.addTokens(usageId, result.tokens);
    if (result.outcome === 'incomplete') {
      // A failed answer costs no allowance.
      if (usageId !== null) await store.markIncomplete(usageId);
      return { incomplete: result.reason ?? 'the AI provider failed.' };
    }
    const text = { reportDate: sheet.reportDate, subject, model: ai.settings.model, text: result.text, outcome: result.outcome, facts: factsText(sheet), tokens: result.tokens };
    await store.saveText(text, context.now());
    return (await store.text(sheet.reportDate, subject, ai.settings.model)) ?? { ...text, createdAt: new Date(context.now()).toISOString() };
  }

  /** A ticker's facts sheet: 404 when the report lacks it, 403 when the viewer may not see its scores (a locked top ticker on Free). */
  async function tickerSheet(c: Context<SessionEnv>, ticker: string): Promise<{ current: SiteIndex; sheet: FactsSheet }> {
    const current = await site();
    // One stored text serves everyone, so its facts are the Free plan's: no other locked top ticker's score.
    const sheet = tickerFacts(current.history, current.reportDate, ticker, hidden(current, null));
    if (sheet === null) throw refusal(404, `No signal for ${ticker} in the report of ${current.reportDate}: no analysis can be written.`);
    if (hidden(current, c.var.user).has(ticker)) throw refusal(403, `${ticker} is a top signal on the Pro plan: its analysis needs Pro.`);
    return { current, sheet };
  }

  function streamResponse(execute: (writer: UIMessageStreamWriter) => Promise<void>, onFinish?: (messages: UIMessage[]) => Promise<void>, originalMessages?: UIMessage[]) {
    const stream = createUIMessageStream({
      originalMessages,
      execute: async ({ writer }) => {
        writer.write({ type: 'start' });
        try {
          await execute(writer);
        } catch (error) {
          // A failure of ours after the stream began (the database, say): the answer still ends cleanly.
          console.error('An AI answer failed:', error);
          writer.write({ type: 'data-incomplete', data: { note: 'This answer is incomplete: the server could not finish it. Try again later.' } });
        }
        writer.write({ type: 'finish' });
      },
      onError: () => 'This answer is incomplete: the server could not finish it. Try again later.',
      onFinish: onFinish === undefined ? undefined : ({ messages }) => onFinish(messages).catch((error: unknown) => console.error('The chat could not be saved:', error)),
    });
    return createUIMessageStreamResponse({ stream, headers: NO_STORE });
  }

  return new Hono<SessionEnv>()
    .use('*', trustedOrigin(context.siteOrigins), sessionUser)
    .get('/status', async (c) => {
      const current = await context.site.current();
      const who = caller(c);
      const user = who.user;
      return c.json(
        {
          configured: settings !== null,
          model: settings?.model ?? null,
          reportDate: current?.reportDate ?? null,
          signedIn: user !== null,
          plan: user === null ? null : user.isPremium ? ('pro' as const) : ('free' as const),
          allowance: { analysis: await admission.allowance(who, 'analysis', settings !== null), chat: await admission.allowance(who, 'chat', settings !== null) },
          budget: settings === null ? null : await budget.status(now()),
        },
        200,
        NO_STORE,
      );
    })
    .get('/brief', async (c) => {
      admission.readGate(caller(c), 'read the AI brief');
      const ai = configured();
      const current = await site();
      // With PAYWALL=on Free and Pro read the brief written for Free (no locked top ticker's score): one text for all.
      const subject = paywall ? `${BRIEF}:free` : BRIEF;
      const freeSheet = dailyFacts(current.history, current.reportDate, hidden(current, null));
      let text = await store.text(current.reportDate, subject, ai.settings.model);
      if (text === null) {
        await budget.check(now(), { retryAfter: false });
        text = await generations.run(`${current.reportDate}:${subject}`, async () => {
          const usage = await store.recordUse(utcDay(context.now()), 'site', 'brief', context.now());
          const result = await generate(freeSheet, subject, null, usage);
          if ('incomplete' in result) throw refusal(503, `The AI brief could not be written: ${result.incomplete}`, { 'Retry-After': '60' });
          return result;
        });
      }
      return c.json(answerOf(text, freeSheet), 200, NO_STORE);
    })
    .get('/analysis/:ticker', validate('param', TickerParams), async (c) => {
      admission.readGate(caller(c), 'read AI analyses');
      const ai = configured();
      const ticker = c.req.valid('param').ticker;
      const current = await site();
      const cached = answers.get(current.reportDate, ticker);
      if (cached !== undefined && !hidden(current, c.var.user).has(ticker)) return typedJson<AiTextAnswer>(c.body(cached, 200, { ...NO_STORE, 'Content-Type': 'application/json; charset=utf-8' }));
      const { sheet } = await tickerSheet(c, ticker);
      const text = await store.text(current.reportDate, ticker, ai.settings.model);
      if (text === null) return c.json({ error: `No AI analysis of ${ticker} for the report of ${current.reportDate} yet.`, facts: factsText(sheet) }, 404, NO_STORE);
      // A stored text never changes (the first one wins): its answer is kept, the oldest dropped past the cap.
      const body = JSON.stringify(answerOf(text, sheet));
      answers.set(current.reportDate, ticker, body);
      return typedJson<AiTextAnswer>(c.body(body, 200, { ...NO_STORE, 'Content-Type': 'application/json; charset=utf-8' }));
    })
    .post('/analysis', validate('json', AnalysisBody, '{"ticker": "AAPL"}'), async (c) => {
      const ai = configured();
      const ticker = c.req.valid('json').ticker;
      const { current, sheet } = await tickerSheet(c, ticker);
      const meta = { ticker, reportDate: current.reportDate, model: ai.settings.model, label: aiLabel(ai.settings.model, current.reportDate), facts: factsText(sheet) };
      const stored = await store.text(current.reportDate, ticker, ai.settings.model);
      if (stored !== null) {
        // Already written for this report and model: served from the store, no allowance spent.
        return streamResponse(async (writer) => {
          writer.write({ type: 'data-meta', data: meta });
          if (stored.text !== '') {
            writer.write({ type: 'text-start', id: 'stored' });
            writer.write({ type: 'text-delta', id: 'stored', delta: stored.text });
            writer.write({ type: 'text-end', id: 'stored' });
          }
          writer.write({ type: 'data-result', data: { outcome: stored.outcome, note: stored.outcome === 'facts-only' ? FACTS_ONLY_NOTE : null } });
        });
      }
      const usage = await admission.admit(caller(c), 'analysis');
      return streamResponse(async (writer) => {
        writer.write({ type: 'data-meta', data: meta });
        const result = await generate(sheet, ticker, writer, usage);
        if ('incomplete' in result) writer.write({ type: 'data-incomplete', data: { note: `This answer is incomplete: ${result.incomplete}` } });
        else writer.write({ type: 'data-result', data: { outcome: result.outcome, note: result.outcome === 'facts-only' ? FACTS_ONLY_NOTE : null } });
      });
    })
    .post('/chat', validate('json', ChatBody, '{"id": "chat-1", "messages": [{"id": "m1", "role": "user", "parts": [{"type": "text", "text": "Bullish energy stocks today?"}]}]}'), async (c) => {
      const ai = configured();
      const body = c.req.valid('json');
      const { messages, question, texts } = chatInput(body.messages as unknown as UIMessage[]);
      const current = await site();
      const user = c.var.user;
      const usage = await admission.admit(caller(c), 'chat');
      const tools = chatTools(current.history, current.reportDate, hidden(current, user));
      const modelMessages = await convertToModelMessages(texts);
      const save =
        user === null
          ? undefined
          : async (all: UIMessage[]) => {
              const title = question.slice(0, 80);
              await store.saveChat(user.id, body.id, title, JSON.stringify(all), context.now(), MAX_SAVED_CHATS);
            };
      return streamResponse(
        async (writer) => {
          const result = await streamChat({ model: ai.model, settings: ai.settings, system: chatSystem(context.siteName, current.reportDate) }, modelMessages, tools, writer, question);
          await store.addTokens(usage, result.tokens);
          if (result.incomplete !== null) await store.markIncomplete(usage);
        },
        save,
        messages,
      );
    })
    .get('/chats', requireUser, async (c) => c.json({ chats: await store.chats(c.var.user!.id) }, 200, NO_STORE))
    .get('/chats/:id', requireUser, async (c) => {
      const messages = await store.chatMessages(c.var.user!.id, c.req.param('id'));
      if (messages === null) throw refusal(404, 'No such conversation on your account.');
      return c.json({ id: c.req.param('id'), messages: JSON.parse(messages) as unknown }, 200, NO_STORE);
    })
    .post('/chats/delete', requireUser, async (c) => {
      const form = /^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '');
      const raw = form ? Object.fromEntries(Object.entries(await c.req.parseBody()).filter(([, v]) => typeof v === 'string')) : await c.req.json().catch(() => ({}));
      const parsed = DeleteBody.safeParse(raw);
      if (!parsed.success) throw refusal(400, 'Send {"id": "..."} to delete one conversation, or {} to delete them all.');
      const deleted = await store.deleteChats(c.var.user!.id, parsed.data.id || undefined);
      if (form) return c.redirect('/account#ai-history-deleted', 303);
      return c.json({ deleted }, 200, NO_STORE);
    });
}
