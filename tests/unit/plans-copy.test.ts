import { describe, expect, it } from 'vitest';
import { FREE_PLAN, HOW_TO_GET_PRO, PRO_PLAN, plansFor } from '../../src/lib/domain/accounts/plans';

describe('the plans follow PAYWALL', () => {
  it('with the paywall on, the spec\'s plans: Free 45 daily signals and 5 daily top signals, Pro 300+', () => {
    expect(plansFor(true)).toEqual({ free: FREE_PLAN, pro: PRO_PLAN });
    expect(plansFor(true).free.features).toEqual(['45 daily signals', '5 daily top signals']);
  });

  it('with it off, no plan promises a limit nobody enforces', () => {
    const { free, pro } = plansFor(false);
    const words = [...free.features, ...pro.features].join(' | ');
    expect(words).not.toMatch(/45 daily|5 daily top|300\+|unlimited/i);
    expect(free.features).toContain('Every daily signal and top signal');
    expect(free.features).toContain('3 AI analyses and 20 AI chat messages a day');
    expect(pro.features).toEqual(['Nothing more than Free for now: this site is open to everyone']);
    expect(pro.price).toBe('$20.00 per month');
  });

  it('says how to get Pro without online payment', () => {
    expect(HOW_TO_GET_PRO).toBe('Online payment is not set up on this site. Pro is granted by its operator: write to them with the email of your account.');
  });
});
