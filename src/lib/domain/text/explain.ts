/**
 * Schema failures as messages a person can act on: every issue, each with the path of the value it concerns.
 * One helper for every place data crosses a boundary (files, request bodies, upstream answers, settings).
 */
import type { z } from 'zod';

/** A value refused by its schema; the message lists every issue. */
export class ExplainedError extends Error {
  constructor(
    readonly what: string,
    readonly problems: string[],
  ) {
    super(`${what} ${problems.length === 1 ? 'has a problem' : `has ${problems.length} problems`}: ${problems.join('; ')}`);
    this.name = 'ExplainedError';
  }
}

/** One line per issue, `path: message` (the path dotted, `[n]` for array places; no path for the value itself). */
export function explainIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** The data as the schema types it, or an ExplainedError naming `what` and listing every issue. */
export function parseOrExplain<S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ExplainedError(what, explainIssues(parsed.error.issues));
  return parsed.data;
}
