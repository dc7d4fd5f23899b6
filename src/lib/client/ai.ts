/** The AI routes' answers (src/server/routes/ai.ts), for the AI islands. */

/** GET /api/ai/status. */
export interface AiStatus {
  configured: boolean;
  model: string | null;
  reportDate: string | null;
  signedIn: boolean;
  plan: 'free' | 'pro' | null;
  allowance: Record<'analysis' | 'chat', { limit: number | null; used: number } | { signIn: true }>;
  budget: { exhausted: boolean; resetAt: string } | null;
}

/** A stored text: GET /api/ai/brief and GET /api/ai/analysis/{T}. */
export interface AiText {
  reportDate: string;
  ticker: string | null;
  model: string;
  outcome: 'checked' | 'facts-only';
  text: string;
  note: string | null;
  label: string;
  facts: string;
}

/** An answer of an AI route: its JSON, or its `{error}` with the status. */
export type AiAnswer<T> = { ok: true; value: T } | { ok: false; status: number; error: string; facts?: string };

/** GETs an AI route; a refusal comes back with its message (the routes name the limit, the reset or what to do). */
export async function aiGet<T>(path: string): Promise<AiAnswer<T>> {
  try {
    const response = await fetch(path, { credentials: 'include' });
    const body = (await response.json().catch(() => ({}))) as T & { error?: string; facts?: string };
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
