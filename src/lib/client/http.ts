/**
 * A non-success answer: spec section 8, the message is '{status}: {text or status text}'; `body` is the answer's JSON
 * (undefined when it was none), whose `error` (`serverError`) is the server's own sentence for a person.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The answer's `{error}`, when it said one. */
  get serverError(): string | undefined {
    const error = typeof this.body === 'object' && this.body !== null ? (this.body as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? error : undefined;
  }
}

/** The ApiError of a non-success answer, its body read. */
export async function answerError(response: Pick<Response, 'status' | 'statusText' | 'text'>): Promise<ApiError> {
  const text = (await response.text().catch(() => '')).trim();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return new ApiError(response.status, `${response.status}: ${text || response.statusText}`, body);
}

/**
 * A failure of one feature's fetch with the spec's catalogue message ('Failed to fetch ...', section 8); the
 * status of the answer stays in `status` (0: no answer) and the failure itself in `cause`.
 */
export class FetchFailure extends ApiError {
  constructor(message: string, status: number, cause: unknown) {
    super(status, message);
    this.name = 'FetchFailure';
    this.cause = cause;
  }
}

/** Runs a fetch and turns any failure into a FetchFailure with `message`. */
export async function withFailureMessage<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new FetchFailure(message, error instanceof ApiError ? error.status : 0, error);
  }
}

/** Spec section 9: a failure is worth a retry unless the answer was a 4xx other than 401. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401);
}
