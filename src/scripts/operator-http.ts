/** The operator pages' calls to /api/admin: JSON or multipart, the session's cookie, and every refusal as one sentence. */

/** A refused call: the server's `{error}` (and problems, for uploads) with its status. */
export class OperatorApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'OperatorApiError';
  }
}

const SIGNED_OUT = 'Your session has ended: sign in again as an operator.';

/** Calls an operator route; a non-success answer throws OperatorApiError with the server's message. */
export async function operatorCall<T>(path: string, init: { method?: string; json?: unknown; form?: FormData } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.json !== undefined || init.form !== undefined ? 'POST' : 'GET'),
      credentials: 'same-origin',
      headers: init.json !== undefined ? { 'content-type': 'application/json' } : undefined,
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
  } catch {
    throw new OperatorApiError(0, 'The server did not answer: check the connection and try again.', {});
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const message = response.status === 401 ? SIGNED_OUT : typeof body.error === 'string' ? body.error : `The server answered ${response.status}.`;
    throw new OperatorApiError(response.status, message, body);
  }
  return body as T;
}

/** The first element matching `selector` under `root`; a page without it is a broken build. */
export function part<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T {
  const found = root.querySelector<T>(selector);
  if (found === null) throw new Error(`The page lacks ${selector}.`);
  return found;
}

/** A time as the operator's clock shows it, with the date. */
export function localTime(iso: string | null): string {
  if (iso === null) return '-';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
