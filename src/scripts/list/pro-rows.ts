/**
 * The locked part of a page with PAYWALL=on: its upgrade buttons open the paywall with the feature's name (skipped
 * for a signed-in Pro user, stores/paywall.ts). Loaded only by pages that have something locked.
 */
import { openPaywall } from '../../stores/paywall';

/** Wires the page's upgrade buttons (`[data-paywall-feature]`). */
export function startProGate(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-paywall-feature]')) {
    button.addEventListener('click', () => openPaywall(button.dataset.paywallFeature ?? 'Pro'));
  }
}
