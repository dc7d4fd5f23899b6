/**
 * The host's yardstick: a bare node:http server loaded with the bench's own tool and settings, once at the start of a
 * run. Throughput and load-latency budgets are stated against it, so a slower host of the same kind moves the budgets
 * with the figures and only a change in the code's own cost makes a figure miss.
 */

/** What the bare node:http server answered in this run. */
export interface Reference {
  requestsPerSecond: number;
  p99Ms: number;
  /** The load tool's name, as the method column gives it. */
  tool: string;
  connections: number;
  seconds: number;
  warmUpSeconds: number;
  bodyBytes: number;
}

/**
 * A budget stated against the reference. `throughput`: the figure's req/s over the reference's req/s. `time`: the
 * figure's latency over the reference's time per request at the run's connections (connections / reference req/s):
 * with a fixed number of connections, latency is connections over throughput, so it scales with the host the same way.
 */
export interface RelativeBudget {
  of: 'throughput' | 'time';
  op: '>=' | '<=' | '<';
  ratio: number;
}

/** The reference's time per request at its connections, in ms: the unit of the `time` budgets. */
export function referenceTimeMs(reference: Reference): number {
  return (reference.connections * 1000) / reference.requestsPerSecond;
}

/** The reference figure a budget divides by: req/s for throughput, ms per request for time. */
function yardstick(budget: RelativeBudget, reference: Reference): number {
  return budget.of === 'throughput' ? reference.requestsPerSecond : referenceTimeMs(reference);
}

/** The verdict of one figure against its relative budget. */
export interface RelativeVerdict {
  /** The figure over the reference (null when either is missing). */
  ratio: number | null;
  /** The budget in the figure's own unit on this host (null without a reference). */
  limit: number | null;
  /** Judged on the ratio; a missing figure or reference fails. */
  pass: boolean;
}

/** Judges a measured value against a budget stated as a ratio to the reference. */
export function judgeRelative(value: number | null, budget: RelativeBudget, reference: Reference | null): RelativeVerdict {
  const unit = reference !== null && reference.requestsPerSecond > 0 ? yardstick(budget, reference) : null;
  const limit = unit === null ? null : budget.ratio * unit;
  if (value === null || unit === null) return { ratio: null, limit, pass: false };
  const ratio = value / unit;
  const pass = budget.op === '>=' ? ratio >= budget.ratio : budget.op === '<=' ? ratio <= budget.ratio : ratio < budget.ratio;
  return { ratio, limit, pass };
}
