import { persistentAtom } from '@nanostores/persistent';
import { SIDEBAR_COLLAPSED_STORAGE_KEY } from '../lib/domain/site/ui';

const bool = { encode: (value: boolean) => (value ? 'true' : 'false'), decode: (text: string) => text === 'true' };

/** The Top Signals paywall flag (spec section 4): off by default and reset to off on every load. */
export const $topSignalsPaywall = persistentAtom<boolean>('top-signals-paywall', false, bool);
/** The spec's auth-feature flag, reset to off on every load; the account menu no longer waits for it (accounts are real). */
export const $authFeature = persistentAtom<boolean>('auth-feature', false, bool);
/** The experimental-features flag. */
export const $experimentalFeatures = persistentAtom<boolean>('experimental-features', false, bool);
/** Whether the visitor has been here before. */
export const $hasVisited = persistentAtom<boolean>('has-visited', false, bool);
/** The sidebar's collapsed state, remembered between visits. */
export const $sidebarCollapsed = persistentAtom<boolean>(SIDEBAR_COLLAPSED_STORAGE_KEY, false, bool);

/** Spec section 4: the two feature flags are reset to off on every load; call once per page load. */
export function resetFeatureFlagsOnLoad(): void {
  $topSignalsPaywall.set(false);
  $authFeature.set(false);
}
