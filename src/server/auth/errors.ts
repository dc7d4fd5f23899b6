/** Better Auth's answers (asResponse) passed on: its Set-Cookie kept, a refusal turned into our `{error}` 4xx JSON. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * `ok` answers with `body`; a refusal answers with Better Auth's message, or ours for its code in `messages` (a 5xx
 * from it is said as 400: bad input).
 */
export async function passAuthAnswer(c: Context, answer: Response, body: unknown, messages: Readonly<Record<string, string>> = {}): Promise<Response> {
  for (const cookie of answer.headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
  if (answer.ok) return c.json(body, 200, NO_STORE);
  let message = 'The request was refused.';
  try {
    const parsed = (await answer.json()) as { message?: string; code?: string };
    message = (parsed.code && messages[parsed.code]) || parsed.message || message;
  } catch {
    // no JSON body: the generic message stands
  }
  const status = (answer.status >= 400 && answer.status < 500 ? answer.status : 400) as ContentfulStatusCode;
  return c.json({ error: message }, status, NO_STORE);
}
