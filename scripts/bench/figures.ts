/** The benchmark's figures: one measured number with its budget, its verdict and how it was measured. */
import { judgeRelative, type Reference, type RelativeBudget } from './reference';

/** A budget a figure must meet: value `op` limit. */
export interface Budget {
  op: '<=' | '<' | '>=' | '=';
  limit: number;
}

/** One row of the results table. */
export interface Figure {
  section: SectionName;
  name: string;
  /** null when the figure could not be measured (see `missing`). */
  value: number | null;
  unit: string;
  budget: Budget | null;
  /** true or false against the budget; null when there is no budget. A missing figure with a budget fails. */
  pass: boolean | null;
  method: string;
  /** Why the value is null, e.g. "not available (404)". */
  missing?: string;
  /** A budget stated against the run's bare node:http reference: `pass` is judged on `ratio`, and `budget` is its equivalent on this host. */
  relative?: RelativeFigure;
}

/** A figure's relative budget and where it stands. */
export interface RelativeFigure extends RelativeBudget {
  /** The figure over the reference (null when either is missing). */
  measured: number | null;
  /** The reference's req/s in this run (null when it could not be measured). */
  referenceRequestsPerSecond: number | null;
}

/** The sections, in the order they run. */
export const SECTIONS = ['build', 'weight', 'lighthouse', 'api', 'client', 'screener', 'limits', 'history', 'deploy', 'alerts', 'ai', 'track'] as const;

/** A section's name, as `--only` takes it. */
export type SectionName = (typeof SECTIONS)[number];

/** The input of `figure()`: a Figure without its computed verdict. */
export interface FigureInput {
  name: string;
  value: number | null;
  unit: string;
  budget?: Budget | null;
  method: string;
  missing?: string;
  /** Judge against the reference instead of `budget`. */
  relative?: { budget: RelativeBudget; reference: Reference | null };
}

/** Judges a value against a budget; a value the budget needs but that is missing fails. */
function judge(value: number | null, budget: Budget | null): boolean | null {
  if (budget === null) return null;
  if (value === null) return false;
  switch (budget.op) {
    case '<=':
      return value <= budget.limit;
    case '<':
      return value < budget.limit;
    case '>=':
      return value >= budget.limit;
    case '=':
      return value === budget.limit;
  }
}

/** Makes a figure of a section and judges it. */
export function figure(section: SectionName, input: FigureInput): Figure {
  const value = input.value === null || Number.isFinite(input.value) ? input.value : null;
  if (input.relative) {
    const { budget, reference } = input.relative;
    const verdict = judgeRelative(value, budget, reference);
    return {
      section,
      name: input.name,
      value,
      unit: input.unit,
      budget: verdict.limit === null ? null : { op: budget.op, limit: verdict.limit },
      pass: verdict.pass,
      method: input.method,
      ...(input.missing !== undefined || value === null ? { missing: input.missing ?? 'not measured' } : {}),
      relative: { ...budget, measured: verdict.ratio, referenceRequestsPerSecond: reference?.requestsPerSecond ?? null },
    };
  }
  const budget = input.budget ?? null;
  return {
    section,
    name: input.name,
    value,
    unit: input.unit,
    budget,
    pass: judge(value, budget),
    method: input.method,
    ...(input.missing !== undefined || value === null ? { missing: input.missing ?? 'not measured' } : {}),
  };
}

/** What every section gets: where the bench works and how thorough to be. */
export interface BenchContext {
  /** The project root. */
  root: string;
  /** Scratch folder for samples, builds and logs (bench/tmp). */
  tmp: string;
  /** Fewer sizes and runs, for trying the bench out. */
  quick: boolean;
  /** --long: also the sizes that take half an hour (the history section's 6,000 x 1,260). */
  long?: boolean;
  chromiumPath: string;
  log: (line: string) => void;
}

/** Rounds to a number of decimals for the table and the JSON. */
export function round(value: number, decimals = 1): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
