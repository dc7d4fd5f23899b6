/** Names, titles and build-time settings every page shares (from the Config at build time). */
import { config } from '../config';
import { fillPlaceholders } from './domain/site/editorial';
import { plansFor } from './domain/accounts/plans';
import { THRESHOLD_PLACEHOLDERS } from './domain/signals/signal';

/** The product name (SITE_NAME). */
export const SITE_NAME = config().siteName;

/** Spec section 2: the default beta title of every page but the stock detail. */
export const DEFAULT_TITLE = `${SITE_NAME} (beta): daily bullish and bearish stock signals`;

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

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
// The Learn page's plans follow PAYWALL: with it off, no limit is promised that nobody enforces.
const { free: FREE_PLAN, pro: PRO_PLAN } = plansFor(config().paywall);

/** What the texts of src/content may name with a placeholder: settings, plans and thresholds, so they follow src/config.ts, plans.ts and threshold.ts. */
export const TEXT_PLACEHOLDERS: Readonly<Record<string, string>> = {
  SITE_NAME,
  ...THRESHOLD_PLACEHOLDERS,
  FREE_PLAN: `${FREE_PLAN.name}: ${FREE_PLAN.features.map((f, i) => (i === 0 ? f : lowerFirst(f))).join(FREE_PLAN.features.length > 2 ? '; ' : ' and ')}`,
  PRO_PLAN: `${PRO_PLAN.name}: ${PRO_PLAN.price} or ${PRO_PLAN.priceNote}, with ${PRO_PLAN.features.map(lowerFirst).join(', ')}`,
};

/** A front-matter text of src/content with its placeholders filled (`where` names it if one is unknown). */
export function siteText(text: string, where: string): string {
  return fillPlaceholders(text, TEXT_PLACEHOLDERS, where);
}
