/** The Top Signals paywall on the stock links of the lists and the heatmap (the rule is stores/paywall.ts's mayOpenStock). */
import { mayOpenStock } from '../stores/paywall';

/**
 * Spec section 4: with the Top Signals paywall flag on, a plain click on a top ticker's link opens the paywall instead
 * of its detail. The detail dialog applies the same rule when it handles the click first (it then prevents the
 * navigation); this covers the page until the dialog's island is there. The shell installs it on every page.
 */
export function gateTopSignalLinks(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-detail-link]');
    if (link && !mayOpenStock(link.dataset.top === 'true')) event.preventDefault();
  });
}
