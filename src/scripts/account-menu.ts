/**
 * The sidebar's account menu (components/shell/AccountMenu.astro): Sign in while signed out; signed in, a disclosure
 * button (aria-expanded) opening the plan, the email, Upgrade to Premium, Help & Learn and Sign Out. Escape or a
 * click elsewhere closes it; Escape returns focus to the button.
 */
import { $user } from '../stores/user';
import { openPaywall } from '../stores/paywall';
import { SITE_PLANS } from '../lib/domain/accounts/site-plans';

export function enhanceAccountMenu(): void {
  const q = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
  const signIn = q<HTMLAnchorElement>('[data-sign-in]');
  const account = q('[data-account]');
  const toggle = q('[data-account-toggle]');
  const menu = q('#account-menu');
  const upgrade = q('[data-upgrade]');
  // Sign in returns to this very view, its query included; Sign Out to this site's front page.
  signIn.href = `/api/auth/login?returnTo=${encodeURIComponent(location.pathname + location.search)}`;
  q<HTMLInputElement>('[data-sign-out-return]').value = location.origin;

  const setMenu = (open: boolean) => {
    menu.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    // At the foot of a long sidebar the opened menu may end below the window: bring all of it into view.
    if (open) menu.scrollIntoView({ block: 'nearest' });
  };
  toggle.addEventListener('click', () => setMenu(menu.hidden));
  upgrade.addEventListener('click', () => {
    setMenu(false);
    openPaywall('Premium');
  });
  document.addEventListener('click', (event) => {
    if (!account.contains(event.target as Node)) setMenu(false);
  });
  account.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !menu.hidden) {
      // The drawer also closes on Escape: this press only closes the menu.
      event.stopPropagation();
      setMenu(false);
      toggle.focus();
    }
  });
  account.addEventListener('focusout', (event) => {
    if (!account.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) setMenu(false);
  });

  $user.subscribe((user) => {
    const signedIn = user.status === 'signed-in';
    // While the session is still being read, the link stays as the page was built (signed out is the default).
    signIn.hidden = signedIn;
    account.hidden = !signedIn;
    if (!signedIn) {
      setMenu(false);
      return;
    }
    q('[data-account-plan]').textContent = user.isPremium ? 'Premium Account' : 'Free Account';
    q('[data-account-email]').textContent = user.email;
    q('[data-account-label]').textContent = user.email;
    toggle.title = user.email;
    // The spec's item is for non-premium accounts; a site that takes no payments has no upgrade to offer.
    upgrade.hidden = user.isPremium || !SITE_PLANS.billing;
  });
}
