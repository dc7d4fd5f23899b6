/** The detail page's back button (spec section 2): the section the visitor came from, and where to return. */
import { BACK_SECTIONS } from './pages';

/**
 * The back button of the detail page: 'Back to {section}' (the title of the page the visitor came from when its
 * page-table row has `back`, else the Dashboard) and where it goes (the previous path, else '/').
 */
export function backTarget(previousPath: string | null | undefined): { label: string; href: string } {
  const path = previousPath && previousPath.startsWith('/') && !previousPath.startsWith('//') ? previousPath : null;
  if (!path || path.startsWith('/signal/')) return { label: 'Back to Dashboard', href: '/' };
  const section = BACK_SECTIONS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}/`));
  return { label: `Back to ${section ? section[1] : 'Dashboard'}`, href: path };
}
