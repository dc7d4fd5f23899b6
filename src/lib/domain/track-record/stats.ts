/**
 * How sure a track-record figure is: the 95% Wilson interval of a hit rate, the 95% interval of a mean return (normal
 * approximation), and the count under which a figure is "too few to judge". Pure; the browser may run it.
 */

/** Resolved signals a figure needs before the page states it; fewer show "too few to judge". */
export const MIN_RESOLVED = 20;

/** The words a cell shows instead of a figure resting on fewer than MIN_RESOLVED signals. */
export const TOO_FEW_TEXT = 'too few to judge';

/** The normal quantile of a two-sided 95% interval. */
const Z95 = 1.959964;

/** Whether `resolved` signals are enough to state a figure. */
export function enoughToJudge(resolved: number): boolean {
  return resolved >= MIN_RESOLVED;
}

/** The 95% Wilson score interval of `hits` of `n` as [low, high], or null when n is 0. */
export function wilsonInterval(hits: number, n: number, z = Z95): [number, number] | null {
  if (!Number.isInteger(hits) || !Number.isInteger(n) || hits < 0 || n < 0 || hits > n) throw new RangeError(`wilsonInterval: expected 0 <= hits <= n as whole numbers, got ${hits} of ${n}`);
  if (n === 0) return null;
  const p = hits / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The 95% interval of a mean from its count, sum and sum of squares: mean ± 1.96 · s / √n with the sample standard
 * deviation s (the normal approximation, fair from MIN_RESOLVED signals up); null under 2 values.
 */
export function meanInterval(n: number, sum: number, sumOfSquares: number, z = Z95): [number, number] | null {
  if (n < 2) return null;
  const mean = sum / n;
  // Rounding may leave a tiny negative variance when every value is the same.
  const variance = Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1));
  const half = z * Math.sqrt(variance / n);
  return [mean - half, mean + half];
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const signedPercent = (fraction: number) => `${fraction > 0 ? '+' : fraction < 0 ? '−' : ''}${Math.abs(fraction * 100).toFixed(1)}%`;

/** A hit rate's interval as a reader reads it: "49.0–94.3%"; '' without one. */
export function formatRateInterval(interval: readonly [number, number] | null | undefined): string {
  return interval ? `${(interval[0] * 100).toFixed(1)}–${percent(interval[1])}` : '';
}

/** A mean return's interval: "−0.5% to +2.9%"; '' without one. */
export function formatReturnInterval(interval: readonly [number, number] | null | undefined): string {
  return interval ? `${signedPercent(interval[0])} to ${signedPercent(interval[1])}` : '';
}
