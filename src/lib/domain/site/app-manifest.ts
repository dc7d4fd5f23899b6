/**
 * The installable site: the web app manifest (icons, the two themes' colours) and the service worker's and the
 * offline page's addresses. The worker caches the app shell only (the offline page and its icons), never signal data.
 */

/** The page backgrounds of the two themes (global.css --page-bg): the browser's chrome takes them. */
export const THEME_COLORS = { light: '#ffffff', dark: '#0c0d10' } as const;

/** Where the worker, the manifest and the offline page live (the worker at the root, so its scope is the whole site). */
export const APP_FILES = { manifest: '/manifest.webmanifest', worker: '/sw.js', offline: '/offline.html' } as const;

/** The localStorage key of the last report a page showed: the offline page names it. */
export const LAST_REPORT_KEY = 'cscore-last-report';

/** The manifest of the site named `siteName`: dark by default, as the site is until a visitor picks light. */
export function appManifest(siteName: string) {
  return {
    name: siteName,
    short_name: siteName.length <= 12 ? siteName : 'C-Score',
    description: 'Daily bullish and bearish stock signals.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: THEME_COLORS.dark,
    theme_color: THEME_COLORS.dark,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
