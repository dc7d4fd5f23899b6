/** Request validation: @hono/zod-validator with one hook, so every refused request hears every problem at once. */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { z } from 'zod';
import { ExplainedError, explainIssues } from '../lib/domain/explain';
import { tickerProblem } from '../lib/domain/ticker';
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
  return zValidator(target, schema, (result) => {
    if (result.success) return;
    const problems = new ExplainedError(WHAT[target], explainIssues(result.error.issues)).message.replace(/\.?$/, '.');
    throw refusal(400, example === undefined ? problems : `${problems} Send one like ${example}.`);
  });
}

/** A route's `:ticker` upper-cased, or, when malformed, an issue in tickerProblem's words. */
export function routeTicker(raw: string, ctx: z.RefinementCtx): string {
  const problem = tickerProblem(raw);
  if (problem === null) return raw.toUpperCase();
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
}

/** The params of a route with a `:ticker`. */
export const TickerParams = z.object({ ticker: z.string().transform(routeTicker) });

/** Unset and blank query values read the same: the default applies. */
export function optionalQuery<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}
