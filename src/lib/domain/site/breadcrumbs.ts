/**
 * Breadcrumbs: the trail from the home page to a page (Home › Sector › Industry › Ticker), shown on the page and
 * marked up as schema.org's BreadcrumbList at the same canonical addresses.
 */
import { canonicalUrl } from './canonical';

/** One step of a trail: its name and its site path. */
export interface Crumb {
  name: string;
  path: string;
}

/** The home page's step, first of every trail. */
export const HOME_CRUMB: Crumb = { name: 'Home', path: '/' };

/** A trail's BreadcrumbList, each step at the page's canonical address. */
export function breadcrumbJsonLd(trail: readonly Crumb[], siteUrl: string): Record<string, unknown> {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: canonicalUrl(crumb.path, siteUrl) })),
  };
}
