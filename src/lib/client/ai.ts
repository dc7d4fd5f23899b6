/** The AI routes the AI stores read (src/server/routes/ai.ts), through the typed client: their answers are the server's types. */
import { api, type AnswerOf } from './api-client';

/** The AI routes the stores GET, by name. */
const AI_ROUTES = {
  status: () => api.ai.status.$get(),
  brief: () => api.ai.brief.$get(),
  analysis: (ticker: string) => api.ai.analysis[':ticker'].$get({ param: { ticker: encodeURIComponent(ticker) } }),
};

/** An AI route the stores read. */
export type AiRoute = keyof typeof AI_ROUTES;

/** The answer of an AI route, as the server types it. */
export type AiRouteAnswer<R extends AiRoute> = AnswerOf<(typeof AI_ROUTES)[R]>;

/** GET /api/ai/status. */
export type AiStatus = AiRouteAnswer<'status'>;

/** A stored text: GET /api/ai/brief and GET /api/ai/analysis/{T}. */
export type AiText = AiRouteAnswer<'brief'>;

/** An answer of an AI route: its JSON, or its `{error}` with the status. */
export type AiAnswer<T> = { ok: true; value: T } | { ok: false; status: number; error: string; facts?: string };

/** GETs an AI route; a refusal comes back with its message (the routes name the limit, the reset or what to do). */
export async function aiGet<R extends AiRoute>(route: R, ...args: Parameters<(typeof AI_ROUTES)[R]>): Promise<AiAnswer<AiRouteAnswer<R>>> {
  try {
    const response = await (AI_ROUTES[route] as (...a: typeof args) => ReturnType<(typeof AI_ROUTES)[R]>)(...args);
    const body = (await response.json().catch(() => ({}))) as AiRouteAnswer<R> & { error?: string; facts?: string };
    if (response.ok) return { ok: true, value: body };
    return { ok: false, status: response.status, error: body.error ?? `${response.status}: ${response.statusText}`, facts: body.facts };
  } catch (error) {
    return { ok: false, status: 0, error: `The server could not be reached: ${(error as Error).message}` };
  }
}

/** The `{error}` of a refused streaming request (useChat's error carries the answer's text). */
export function errorMessage(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { error?: string };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Not JSON: the message as it is.
  }
  return error.message;
}
