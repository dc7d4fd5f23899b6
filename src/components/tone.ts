/**
 * Sentiment colours, trend arrows and the ticker avatar, shared by the Astro components (this folder) and the React
 * cards the detail dialog renders too (islands/detail/cards.tsx). Colour is never alone: a badge word or an arrow
 * goes with it.
 */
import { signalDirection, type SignalDirection, type TrendDirection } from '../lib/domain/signals/signal';

/** Text colour of each direction. */
export const TONE_TEXT: Record<SignalDirection, string> = {
  bullish: 'text-green-700 dark:text-green-400',
  bearish: 'text-red-700 dark:text-red-400',
  neutral: 'text-gray-600 dark:text-gray-400',
};

const TONE_AVATAR: Record<SignalDirection, string> = {
  bullish: 'bg-green-700',
  bearish: 'bg-red-700',
  neutral: 'bg-gray-600',
};

/** A ticker's avatar: its first letter on the colour of its score, with the company logo's address and size over it. */
export function avatar(ticker: string, score: number, size: 'lg' | 'sm'): { className: string; letter: string; logoSrc: string; logoPx: number } {
  return {
    className: `${size === 'lg' ? 'avatar' : 'avatar avatar-sm'} ${TONE_AVATAR[signalDirection(score)]}`,
    letter: ticker.charAt(0),
    logoSrc: `/api/polygon/logo/${encodeURIComponent(ticker)}`,
    logoPx: size === 'lg' ? 48 : 28,
  };
}

/** The arrow of a score's move since yesterday, and what it says to a screen reader. */
export const TREND_ARROW: Record<TrendDirection, { mark: string; label: string }> = {
  up: { mark: '▲', label: 'up from yesterday' },
  down: { mark: '▼', label: 'down from yesterday' },
  flat: { mark: '▶', label: 'unchanged from yesterday' },
};
