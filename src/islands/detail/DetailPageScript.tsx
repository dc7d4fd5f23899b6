import { useEffect } from 'react';

/**
 * The stock page's scripts, hydrated with client:afterpaint at the end of the page so that nothing downloads or
 * runs before its largest paint: the shell (sidebar, theme, search, toasts), and the page's own behaviour (the
 * back link, the logo fallback, the count-up and the live header's hydration, in ./page). Renders nothing.
 */
export default function DetailPageScript() {
  useEffect(() => {
    void import('../shell');
    void import('./page');
  }, []);
  return null;
}
