/** The detail page's back button (spec section 2): the section the visitor came from, and where to return. */

/** Sections the back button may name, by the path the visitor came from; anything else is the Dashboard. */
const BACK_SECTIONS: readonly [prefix: string, label: string][] = [
  ['/recently-qualified', 'Recently Qualified'],
  ['/currently-qualified', 'Currently Qualified'],
  ['/reversals-exits', 'Reversals & Exits'],
  ['/heatmap', 'Heatmap'],
  ['/explore', 'Explore'],
];

/** The back button of the detail page: 'Back to {section}' and where it goes (the previous path, else '/'). */
export function backTarget(previousPath: string | null | undefined): { label: string; href: string } {
  const path = previousPath && previousPath.startsWith('/') && !previousPath.startsWith('//') ? previousPath : null;
  if (!path || path.startsWith('/signal/')) return { label: 'Back to Dashboard', href: '/' };
  const section = BACK_SECTIONS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}/`));
  return { label: `Back to ${section ? section[1] : 'Dashboard'}`, href: path };
}
