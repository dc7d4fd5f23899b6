/** Request validation: @hono/zod-validator with one hook, so every refused request hears every problem at once. */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { z } from 'zod';
import { ExplainedError, explainIssues } from '../lib/domain/text/explain';
import { tickerProblem } from '../lib/domain/report/ticker';
import { asciiUpper } from '../lib/domain/text/text';
import { refusal } from './errors';

const WHAT: Record<keyof ValidationTargets, string> = {
  param: 'The address',
  query: 'The query',
  json: 'The JSON body',
  form: 'The form',
  header: 'The headers',
  cookie: 'The cookies',
};

/** Validates one part of the request; a failure is a 400 listing every issue, with `example` as a request that works. */
export function validate<Target extends keyof ValidationTargets, S extends z.ZodType>(target: Target, schema: S, example?: string) {
  const check = zValidator(target, schema, (result) => {
    if (result.success) return;
    const problems = new ExplainedError(WHAT[target], explainIssues(result.error.issues)).message.replace(/\.?$/, '.');
    throw refusal(400, example === undefined ? problems : `${problems} Send one like ${example}.`);
  });
  if (target !== 'json') return check;
  // Another site can send text/plain without a preflight; a JSON route takes JSON only.
  const jsonOnly: typeof check = async (c, next) => {
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) {
      throw refusal(415, `The body must be JSON sent with "Content-Type: application/json"${example === undefined ? '' : `, like ${example}`}.`);
    }
    return check(c, next);
  };
  return jsonOnly;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** A route's `:ticker` upper-cased, or, when malformed, an issue in tickerProblem's words. */
export function routeTicker(raw: string, ctx: z.RefinementCtx): string {
  const problem = tickerProblem(raw);
  if (problem === null) return asciiUpper(raw);
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
}

/** The params of a route with a `:ticker`. */
export const TickerParams = z.object({ ticker: z.string().transform(routeTicker) });

/** Unset and blank query values read the same: the default applies. */
export function optionalQuery<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}
