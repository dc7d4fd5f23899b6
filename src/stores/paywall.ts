import { atom } from 'nanostores';
import { $topSignalsPaywall } from './flags';
import { $user } from './user';

/** Spec section 4: the feature name the Top Signals paywall opens with. */
const TOP_STOCK_FEATURE = 'Top Stock Details';

/** The paywall overlay: closed, or open for a named feature. */
export const $paywall = atom<{ open: false } | { open: true; feature: string }>({ open: false });

/** Opens the paywall for a premium feature, unless the user is a signed-in premium user (spec section 4). */
export function openPaywall(feature: string): boolean {
  const user = $user.get();
  if (user.status === 'signed-in' && user.isPremium) return false;
  $paywall.set({ open: true, feature });
  return true;
}

/** Closes the paywall ('Continue with free'). */
export function closePaywall(): void {
  $paywall.set({ open: false });
}

/**
 * Spec section 4: with the Top Signals paywall flag on, choosing a top ticker opens the paywall
 * ('Top Stock Details') for a non-premium user; otherwise the stock may open. Returns true when it may open.
 */
export function mayOpenStock(isTopTicker: boolean): boolean {
  if (!$topSignalsPaywall.get() || !isTopTicker) return true;
  return !openPaywall(TOP_STOCK_FEATURE);
}
