/**
 * The one address of a page. Pages are built as folders (`signal/AAPL/index.html`) but every link, the server and
 * the copied address use the path without a trailing slash (`/signal/AAPL`), so the canonical link, og:url, the
 * structured data and the sitemap all name that form.
 */

/** The absolute address of a page: `siteUrl`'s origin and the path without a trailing slash (the home page keeps its `/`), no query or fragment. */
export function canonicalUrl(path: string, siteUrl: string): string {
  const url = new URL(path, siteUrl);
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  return `${url.origin}${pathname}`;
}
