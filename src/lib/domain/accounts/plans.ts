/** The plans of spec sections 6 and 9, shown by the paywall and the Learn page's questions. */
import { FREE_AI_ALLOWANCE } from '../ai/rules';

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

/** Free and Pro as this site runs them: with the paywall off nobody is limited, so no plan promises a limit. */
export function plansFor(paywall: boolean): { free: Plan; pro: Plan } {
  if (paywall) return { free: FREE_PLAN, pro: PRO_PLAN };
  return {
    free: {
      ...FREE_PLAN,
      features: [
        'Every daily signal and top signal',
        'Every list, the Signals Heatmap and the archives',
        `${FREE_AI_ALLOWANCE.analysis} AI analyses and ${FREE_AI_ALLOWANCE.chat} AI chat messages a day`,
      ],
    },
    pro: { ...PRO_PLAN, features: ['Nothing more than Free for now: this site is open to everyone'] },
  };
}

/** How to get Pro where the site takes no online payment (no Stripe keys): the upgrade buttons give way to this. */
export const HOW_TO_GET_PRO = 'Online payment is not set up on this site. Pro is granted by its operator: write to them with the email of your account.';
