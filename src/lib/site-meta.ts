/** Names, titles and build-time settings every page shares (from the Config at build time). */
import { config } from '../config';

/** The product name (SITE_NAME). */
export const SITE_NAME = config().siteName;

/** Spec section 2: the default beta title of every page but the stock detail. */
export const DEFAULT_TITLE = `${SITE_NAME} (beta): daily bullish and bearish stock signals`;

/** The default description of the beta. */
export const DEFAULT_DESCRIPTION =
  'Daily bullish and bearish stock signals ranked by the C-Score, a conviction score from -100 to +100. Informational only, not investment advice.';

/** A page's title: the section name, then the default beta title. */
export function pageTitle(section?: string): string {
  return section ? `${section} | ${DEFAULT_TITLE}` : DEFAULT_TITLE;
}

/** The Learn page's guide video (LEARN_VIDEO_URL, an embeddable player address), or null when none is set. */
export const LEARN_VIDEO_URL = config().links.learnVideo;
/** The newsletter site (NEWSLETTER_URL), or null. */
export const NEWSLETTER_URL = config().links.newsletter;
/** The chat community (COMMUNITY_URL), or null. */
export const COMMUNITY_URL = config().links.community;

/** The canonical origin (SITE_URL). */
export const SITE_URL = config().siteUrl;
