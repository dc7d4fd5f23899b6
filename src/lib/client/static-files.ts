/**
 * The build's static files the browser reads besides the live API: the daily-data JSON under /api (parsed with the
 * domain's schemas, since no route types them), the search index and the track record's ledger CSV.
 */
import type { z } from 'zod';
import type { SearchEntry } from '../domain/signals/search';
import { ExplainedError, explainIssues } from '../domain/text/explain';
import { answerError } from './http';

/**
 * GET a static JSON file of the build under /api with the session's cookie (as the live calls): its body as `schema`
 * reads it. A non-success answer throws http.ts's ApiError; a body of another shape throws naming each wrong field.
 * `schema` may be a loader (a dynamic import), run beside the request, for a module whose load must not build schemas.
 */
export async function staticJson<S extends z.ZodType>(path: string, schema: S | (() => Promise<S>)): Promise<z.output<S>> {
  const loading = typeof schema === 'function' ? schema() : Promise.resolve(schema);
  // A refused request throws first; the loader's own failure is then nobody's to hear.
  loading.catch(() => undefined);
  const [body, reader] = await Promise.all([staticBody(path), loading]);
  const parsed = reader.safeParse(body);
  if (!parsed.success) throw new ExplainedError(path, explainIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * GET a static JSON file of the build under /api with the session's cookie: its body, for a reader that checks it
 * (the live chart's files, read by the domain's own checks); a non-success answer throws http.ts's ApiError.
 */
export async function staticBody(path: string): Promise<unknown> {
  const response = await fetch(path, { credentials: 'include' });
  if (!response.ok) throw await answerError(response);
  return response.json() as Promise<unknown>;
}

/** GET /search-index.json: the index, or none when the file is missing; a failed connection throws. */
export async function fetchSearchIndex(): Promise<SearchEntry[]> {
  const response = await fetch('/search-index.json');
  return response.ok ? ((await response.json()) as SearchEntry[]) : [];
}

/** GET a file of the build as text (the screener's rows, its page as built); a refusal throws http.ts's ApiError. */
export async function fetchStaticText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw await answerError(response);
  return response.text();
}

/** GET the ledger CSV at `url` (the page's link to it): its text; a refusal throws naming the status. */
export async function fetchLedgerCsv(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the ledger CSV answered ${response.status}`);
  return response.text();
}
