/**
 * Signal classification by C-Score (spec sections 4 and 9): at or above 65 is Bullish, at or below -65 Bearish,
 * anything in between, missing or not a number Neutral.
 */

/** C-Score at or above which a signal is Bullish. */
export const BULLISH_THRESHOLD = 65;

/** C-Score at or below which a signal is Bearish. */
export const BEARISH_THRESHOLD = -65;

/** The badge text of a signal. */
export type SignalClass = 'Bullish' | 'Bearish' | 'Neutral';

/** Lower-case signal direction, for CSS classes, filters and URL queries. */
export type SignalDirection = 'bullish' | 'bearish' | 'neutral';

/** Arrow of today's C-Score against yesterday's. */
export type TrendDirection = 'up' | 'down' | 'flat';

/** True when the value is a usable score: a finite number. */
export function hasScore(score: number | null | undefined): score is number {
  return typeof score === 'number' && Number.isFinite(score);
}

/** Lower-case direction of a C-Score: bullish at or above 65, bearish at or below -65, else neutral. */
export function signalDirection(score: number | null | undefined): SignalDirection {
  if (!hasScore(score)) return 'neutral';
  if (score >= BULLISH_THRESHOLD) return 'bullish';
  if (score <= BEARISH_THRESHOLD) return 'bearish';
  return 'neutral';
}

/** Badge text of a C-Score: Bullish, Bearish or Neutral. */
export function classifySignal(score: number | null | undefined): SignalClass {
  const direction = signalDirection(score);
  if (direction === 'bullish') return 'Bullish';
  if (direction === 'bearish') return 'Bearish';
  return 'Neutral';
}

/** True when the C-Score qualifies as a signal: |C| >= 65. */
export function isQualified(score: number | null | undefined): boolean {
  return signalDirection(score) !== 'neutral';
}

/** Arrow comparing today's C-Score with yesterday's; flat when equal or either is missing. */
export function trendDirection(
  today: number | null | undefined,
  yesterday: number | null | undefined,
): TrendDirection {
  if (!hasScore(today) || !hasScore(yesterday)) return 'flat';
  if (today > yesterday) return 'up';
  if (today < yesterday) return 'down';
  return 'flat';
}

/** Today's C-Score minus yesterday's; null when either is missing. */
export function scoreChange(today: number | null | undefined, yesterday: number | null | undefined): number | null {
  return hasScore(today) && hasScore(yesterday) ? today - yesterday : null;
}
