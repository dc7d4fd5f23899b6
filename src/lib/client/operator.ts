/** The operator pages' calls (/admin, /upload): the typed client's answers, every refusal as one sentence for the operator. */
import { answer, type SuccessBody } from './api-client';
import type { ClientResponse } from 'hono/client';
import { ApiError } from './http';

const SIGNED_OUT = 'Your session has ended: sign in again as an operator.';
const NO_ANSWER = 'The server did not answer: check the connection and try again.';

/**
 * The 2xx JSON of an operator call; anything else throws ApiError whose message is the server's `{error}` (401: sign
 * in again; no answer: check the connection), with the answer's body (an upload's `problems`) kept.
 */
export async function operatorAnswer<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<SuccessBody<R>> {
  try {
    return await answer(call);
  } catch (error) {
    if (!(error instanceof ApiError)) throw new ApiError(0, NO_ANSWER);
    throw new ApiError(error.status, error.status === 401 ? SIGNED_OUT : (error.serverError ?? `The server answered ${error.status}.`), error.body);
  }
}
