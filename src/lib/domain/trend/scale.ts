/**
 * The C-Score chart's scale and colours, apart from ./trend (which builds zod schemas when it loads), so a page's
 * first drawing (/compare's) reads them without loading a schema library.
 */
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../signals/threshold';
import type { SignalDirection } from '../signals/signal';

/** Y-axis range of the trend chart. */
export const TREND_Y_DOMAIN = [-110, 110] as const;

/** Y-axis ticks of the trend chart. */
export const TREND_Y_TICKS = [-100, BEARISH_THRESHOLD, 0, BULLISH_THRESHOLD, 100] as const;

/** Horizontal reference lines: 0 solid, the bullish threshold dashed green, the bearish one dashed red. */
export const TREND_REFERENCE_LINES = [
  { value: 0, dashed: false, tone: 'neutral' },
  { value: BULLISH_THRESHOLD, dashed: true, tone: 'bullish' },
  { value: BEARISH_THRESHOLD, dashed: true, tone: 'bearish' },
] as const satisfies readonly { value: number; dashed: boolean; tone: SignalDirection }[];

/** A chart's colour of each direction (lines, thresholds, markers). */
export const CHART_COLORS = { bullish: '#16a34a', bearish: '#dc2626', neutral: '#6b7280' } as const;
