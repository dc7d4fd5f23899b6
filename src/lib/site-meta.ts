/** Names, titles and build-time settings every page shares (read from the environment at build time). */

/** The product name (SITE_NAME). */
export const SITE_NAME = process.env.SITE_NAME || 'C-Score Signals';

/** Spec section 2: the default beta title of every page but the stock detail. */
export const DEFAULT_TITLE = `${SITE_NAME} (beta): daily bullish and bearish stock signals`;

/** The default description of the beta. */
export const DEFAULT_DESCRIPTION =
  'Daily bullish and bearish stock signals ranked by the C-Score, a conviction score from -100 to +100. Informational only, not investment advice.';

/** A page's title: the section name, then the default beta title. */
export function pageTitle(section?: string): string {
  return section ? `${section} | ${DEFAULT_TITLE}` : DEFAULT_TITLE;
}

/** Only http(s) addresses may become links (DESIGN.md "Security rules"); anything else is treated as unset. */
function safeUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The Learn page's guide video (LEARN_VIDEO_URL, an embeddable player address), or null when none is set. */
export const LEARN_VIDEO_URL = safeUrl(process.env.LEARN_VIDEO_URL);
/** The newsletter site (NEWSLETTER_URL), or null. */
export const NEWSLETTER_URL = safeUrl(process.env.NEWSLETTER_URL);
/** The chat community (COMMUNITY_URL), or null. */
export const COMMUNITY_URL = safeUrl(process.env.COMMUNITY_URL);
