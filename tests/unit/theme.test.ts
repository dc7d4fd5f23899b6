import { describe, expect, it } from 'vitest';
import { nextTheme, THEME_KEY, type Theme } from '../../src/stores/theme';
import { FREE_PLAN, PRO_PLAN } from '../../src/lib/domain/plans';

describe('theme toggle', () => {
  it.each([
    ['dark', 'light'],
    ['light', 'system'],
    ['system', 'dark'],
  ] as [Theme, Theme][])('%s -> %s', (from, to) => {
    expect(nextTheme(from)).toBe(to);
  });
  it('is stored under the key of spec section 3', () => {
    expect(THEME_KEY).toBe('cardify-theme');
  });
});

describe('plans of spec sections 6 and 9', () => {
  it('Free: 45 daily signals and 5 daily top signals', () => {
    expect(FREE_PLAN.features).toEqual(['45 daily signals', '5 daily top signals']);
  });
  it('Pro: $20.00 per month, $16.67 billed annually, 300+ signals', () => {
    expect(PRO_PLAN.price).toBe('$20.00 per month');
    expect(PRO_PLAN.priceNote).toBe('$16.67 per month billed annually');
    expect(PRO_PLAN.features[0]).toBe('300+ signals and top signals');
  });
});
