/**
 * The shell's behaviour on every page, without React: sidebar collapse and drawer, theme toggle, sign-in button and
 * account menu, the ticker search, scroll-to-top on the main tabs, the once-per-load reset of the feature flags, the
 * Top Signals paywall on stock links. The Toaster and Paywall islands, mounted when first needed, are islands/shell.ts's.
 */
import { $sidebarCollapsed, $hasVisited, resetFeatureFlagsOnLoad } from '../stores/flags';
import { $user, loadUser } from '../stores/user';
import { followAccount } from '../stores/watchlist';
import { $theme, applyTheme, nextTheme, setTheme, type Theme } from '../stores/theme';
import { DRAWER_BREAKPOINT_PX } from '../lib/domain/site/ui';
import { enhanceAccountMenu } from './account-menu';
import { enhanceSearch } from './search';
import { gateTopSignalLinks } from './top-signal-gate';

resetFeatureFlagsOnLoad();
$hasVisited.set(true);

const root = document.documentElement;
const q = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector);

// Spec section 2: on the main tab routes the page scrolls to the top.
if (document.body.hasAttribute('data-main-tab') && !location.hash) {
  history.scrollRestoration = 'manual';
  scrollTo(0, 0);
}

// Sidebar: collapsed (16 units) or expanded (64), remembered; under 768 px a drawer.
const sidebar = q('#sidebar')!;
const collapse = q('[data-collapse]')!;
const collapseLabel = collapse.querySelector('.sr-only')!;
$sidebarCollapsed.subscribe((collapsed) => {
  root.classList.toggle('sb-collapsed', collapsed);
  collapse.setAttribute('aria-pressed', String(collapsed));
  collapseLabel.textContent = collapsed ? 'Expand sidebar' : 'Collapse sidebar';
});
collapse.addEventListener('click', () => $sidebarCollapsed.set(!$sidebarCollapsed.get()));

const opener = q('[data-drawer-open]')!;
const backdrop = q('[data-drawer-close]')!;
const mobile = matchMedia(`(max-width: ${DRAWER_BREAKPOINT_PX - 0.02}px)`);
const behindDrawer = [q('.topbar')!, q('.content')!];
function setDrawer(open: boolean): void {
  root.classList.toggle('drawer-open', open);
  // While the drawer is open, the page behind it is out of reach (focus stays in the drawer).
  for (const el of behindDrawer) el.inert = open;
  backdrop.hidden = !open;
  opener.setAttribute('aria-expanded', String(open));
  // The drawer leaves the tab order before focus moves (an inert drawer cannot take the focus).
  syncDrawerInert();
  if (open) drawerStops()[0]?.focus();
  else if (sidebar.contains(document.activeElement)) opener.focus();
}
// On a phone the closed drawer is out of the tab order; on a wide screen the sidebar always is in it.
function syncDrawerInert(): void {
  sidebar.inert = mobile.matches && !root.classList.contains('drawer-open');
}
/** The drawer's focusable controls, in tab order (the ones shown: a collapsed menu's items are not). */
function drawerStops(): HTMLElement[] {
  return [...sidebar.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex]:not([tabindex="-1"])')].filter(
    (el) => !el.closest('[hidden]') && el.getClientRects().length > 0 && !(el as HTMLButtonElement).disabled,
  );
}
opener.addEventListener('click', () => setDrawer(true));
backdrop.addEventListener('click', () => setDrawer(false));
mobile.addEventListener('change', () => setDrawer(false));
syncDrawerInert();
document.addEventListener('keydown', (event) => {
  if (!root.classList.contains('drawer-open')) return;
  if (event.key === 'Escape') {
    // An open search list inside the drawer closes first.
    if (!event.defaultPrevented) setDrawer(false);
    return;
  }
  // Tab wraps inside the open drawer: past its last control to its first, and back.
  if (event.key !== 'Tab') return;
  const stops = drawerStops();
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !sidebar.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !sidebar.contains(active))) {
    event.preventDefault();
    first.focus();
  }
});

// Theme toggle: dark -> light -> system, saved under cardify-theme and applied on the root.
const themeButton = q('[data-theme-toggle]')!;
const themeLabel = q('[data-theme-label]')!;
const themeNames: Record<Theme, string> = { dark: 'Dark', light: 'Light', system: 'System' };
$theme.subscribe((theme) => {
  themeLabel.textContent = `Theme: ${themeNames[theme]}`;
  themeButton.setAttribute('aria-label', `Theme: ${themeNames[theme]}. Switch to ${themeNames[nextTheme(theme)]}`);
  themeButton.title = `Theme: ${themeNames[theme]}`;
});
themeButton.addEventListener('click', () => setTheme(nextTheme($theme.get())));
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme());

enhanceAccountMenu();
// Signed in, the watchlist is the account's (merged with this browser's on the first sign-in); signed out, local.
$user.listen((user) => {
  if (user.status !== 'loading') void followAccount(user.status === 'signed-in' ? user.email : null);
});
const idle = (fn: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(fn) : setTimeout(fn, 1));
idle(() => void loadUser());

enhanceSearch();
gateTopSignalLinks();
