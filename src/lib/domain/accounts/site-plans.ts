/** What the build knew of the plans (astro.config.mjs defines it): PAYWALL, and whether Stripe takes payments. */
declare const __SITE_PLANS__: SitePlans | undefined;

export interface SitePlans {
  paywall: boolean;
  /** Stripe's keys are set: the upgrade buttons go to Checkout; else they give way to how to get Pro. */
  billing: boolean;
}

/** Outside a site build (unit tests render islands bare) the spec's case: the paywall on, payments taken. */
export const SITE_PLANS: SitePlans = typeof __SITE_PLANS__ !== 'undefined' ? __SITE_PLANS__ : { paywall: true, billing: true };
