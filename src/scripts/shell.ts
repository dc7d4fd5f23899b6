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
  if (open) sidebar.querySelector<HTMLElement>('a, button, input')?.focus();
  else if (sidebar.contains(document.activeElement)) opener.focus();
}
// On a phone the closed drawer is out of the tab order; on a wide screen the sidebar always is in it.
function syncDrawerInert(): void {
  sidebar.inert = mobile.matches && !root.classList.contains('drawer-open');
}
opener.addEventListener('click', () => { setDrawer(true); syncDrawerInert(); });
backdrop.addEventListener('click', () => { setDrawer(false); syncDrawerInert(); });
mobile.addEventListener('change', () => { setDrawer(false); syncDrawerInert(); });
syncDrawerInert();
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && root.classList.contains('drawer-open')) {
    setDrawer(false);
    syncDrawerInert();
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
