/** The plans of spec sections 6 and 9, shown by the paywall and the Learn page's questions. */

/** A plan as the paywall lists it. */
export interface Plan {
  name: string;
  price: string;
  priceNote?: string;
  features: readonly string[];
}

/** Free: 45 daily signals and 5 daily top signals. */
export const FREE_PLAN: Plan = {
  name: 'Free',
  price: '$0',
  features: ['45 daily signals', '5 daily top signals'],
};

/** Pro (Premium): $20.00 per month, $16.67 per month billed annually. */
export const PRO_PLAN: Plan = {
  name: 'Pro',
  price: '$20.00 per month',
  priceNote: '$16.67 per month billed annually',
  features: [
    '300+ signals and top signals',
    'Unlimited AI market analysis',
    'All raw CSV data',
    'Custom watchlists with alerts',
    'Signals Heatmap',
    'Recently Flashed Signals',
    'Recent Reversals and more',
  ],
};
