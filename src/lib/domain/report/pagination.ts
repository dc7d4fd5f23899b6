/** Page arithmetic for the archives (spec section 9: 7 files a page). */

/** Files on one archive page. */
export const ARCHIVE_PAGE_SIZE = 7;

/** How many pages `total` items fill; at least 1, so an empty list still has its page. */
export function pageCount(total: number, size: number = ARCHIVE_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The items of page `page` (1-based). */
export function pageItems<T>(items: readonly T[], page: number, size: number = ARCHIVE_PAGE_SIZE): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** The address of archive page `page`: /archives for the first, /archives/{n} for the others. */
export function archivePageHref(page: number): string {
  return page <= 1 ? '/archives' : `/archives/${page}`;
}

/**
 * The page numbers a pager shows: all of them up to 7 pages, else the first, the last and the current one with
 * its neighbours, 'gap' where numbers are left out.
 */
export function pagerNumbers(current: number, count: number): (number | 'gap')[] {
  if (count <= 7) return Array.from({ length: count }, (_, i) => i + 1);
  const keep = new Set([1, count, current - 1, current, current + 1].filter((n) => n >= 1 && n <= count));
  const sorted = [...keep].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push('gap');
    out.push(n);
  });
  return out;
}
