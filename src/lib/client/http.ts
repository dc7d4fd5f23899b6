/** A non-success answer: spec section 8, the message is '{status}: {text or status text}'. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Calls one of our own routes (spec section 7): credentials included, a JSON body with a JSON content type
 * only when there is a payload; any non-success answer throws ApiError.
 */
export async function request<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const hasBody = init.body !== undefined;
  const response = await fetch(path, {
    method: init.method ?? (hasBody ? 'POST' : 'GET'),
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
  });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).trim();
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`);
  }
  return (await response.json()) as T;
}

/** Spec section 9: no retry for a 4xx other than 401; otherwise up to 2 retries (mutations: once). */
export function shouldRetry(error: unknown, attempt: number, isMutation = false): boolean {
  const limit = isMutation ? 1 : 2;
  if (attempt >= limit) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) return false;
  return true;
}

/** HEAD on one of our routes: true when it answers with success (spec section 7, the description probe). */
export async function probe(path: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(path, { method: 'HEAD', credentials: 'include', signal });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A failure of one feature's fetch with the spec's catalogue message ('Failed to fetch ...', section 8); the
 * status and the '{status}: {text}' message of the answer stay in `status` and `detail` (status 0: no answer).
 */
export class FetchFailure extends ApiError {
  constructor(
    message: string,
    readonly detail: string,
    status: number,
  ) {
    super(status, message);
    this.name = 'FetchFailure';
  }
}

/** Runs a fetch and turns any failure into a FetchFailure with `message`. */
export async function withFailureMessage<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const status = error instanceof ApiError ? error.status : 0;
    throw new FetchFailure(message, error instanceof Error ? error.message : String(error), status);
  }
}
