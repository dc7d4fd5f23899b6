/**
 * The browser's typed client of the live API (/api): hono/client over the server's route types (AppType), so an
 * answer's fields are the server's and a renamed one fails the type check. `answer` turns a call into its 2xx body,
 * or throws http.ts's ApiError, the browser's one error model.
 */
import { hc, type ClientResponse } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { AppType } from '../../server/app-type';
import { answerError } from './http';

/** The live API with the session's cookie on every call. */
export const api = hc<AppType>('/api', { init: { credentials: 'include' } });

/** The operator pages' calls (/admin, /upload): the cookie is sent to this origin only. */
export const operatorApi = hc<AppType>('/api', { init: { credentials: 'same-origin' } });

type JsonSuccess<R> = R extends ClientResponse<infer T, infer S, infer F> ? (S extends SuccessStatusCode ? ([F] extends ['json'] ? T : never) : never) : never;
/** The JSON of a call's success answers (unknown for a route that answers only an untyped Response). */
export type SuccessBody<R> = [JsonSuccess<R>] extends [never] ? unknown : JsonSuccess<R>;

/** The success JSON of a typed call, e.g. `AnswerOf<typeof api.watchlist.$get>`. */
export type AnswerOf<F extends (...args: never[]) => Promise<unknown>> = SuccessBody<Awaited<ReturnType<F>>>;

/** The 2xx answer's JSON of a typed call; any other answer throws ApiError (a failed connection throws as fetch does). */
export async function answer<R extends ClientResponse<unknown, number, 'json' | 'text' | string>>(call: Promise<R>): Promise<SuccessBody<R>> {
  const response = await call;
  if (!response.ok) throw await answerError(response);
  return (await response.json()) as SuccessBody<R>;
}
