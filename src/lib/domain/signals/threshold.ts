/**
 * The C-Score's signal threshold (spec sections 4 and 9), the one place its value is written: every rule, chart,
 * band, label and text (src/content through {BULLISH_THRESHOLD} and {BEARISH_THRESHOLD}) reads it from here.
 * Nothing else lives in this module, so a test can give it another value and see every surface follow.
 */

/** C-Score at or above which a signal is Bullish. */
export const BULLISH_THRESHOLD = 65;

/** C-Score at or below which a signal is Bearish: the mirror of the bullish one. */
export const BEARISH_THRESHOLD = -BULLISH_THRESHOLD;
