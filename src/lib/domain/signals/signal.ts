/**
 * Signal classification by C-Score (spec sections 4 and 9): at or above the bullish threshold is Bullish, at or below
 * the bearish one Bearish, anything in between, missing or not a number Neutral.
 */
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from './threshold';

export { BEARISH_THRESHOLD, BULLISH_THRESHOLD };

/** The rule in words, as the pages and the AI write it: "{bullish} or more", "{bearish} or less". */
export const THRESHOLD_WORDS = {
  bullish: `${BULLISH_THRESHOLD} or more`,
  bearish: `${BEARISH_THRESHOLD} or less`,
  neutral: `between ${BEARISH_THRESHOLD} and ${BULLISH_THRESHOLD}`,
  /** Both thresholds at once, with a plus-minus sign. */
  either: `±${BULLISH_THRESHOLD}`,
} as const;

/** The placeholders a text of src/content writes for the thresholds (e.g. "{BULLISH_THRESHOLD} or more"). */
export const THRESHOLD_PLACEHOLDERS: Readonly<Record<string, string>> = {
  BULLISH_THRESHOLD: String(BULLISH_THRESHOLD),
  BEARISH_THRESHOLD: String(BEARISH_THRESHOLD),
};

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

/** Lower-case direction of a C-Score: bullish at or above BULLISH_THRESHOLD, bearish at or below BEARISH_THRESHOLD, else neutral. */
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

/** True when the C-Score qualifies as a signal: bullish or bearish. */
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
