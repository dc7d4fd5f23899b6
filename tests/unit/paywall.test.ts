import { cleanStores } from 'nanostores';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import Paywall from '../../src/islands/Paywall';
import { $topSignalsPaywall } from '../../src/stores/flags';
import { $paywall, mayOpenStock } from '../../src/stores/paywall';
import { $user, type UserState } from '../../src/stores/user';

afterEach(() => {
  cleanStores($paywall, $topSignalsPaywall, $user);
  $paywall.set({ open: false });
  $topSignalsPaywall.set(false);
  $user.set({ status: 'loading' });
});

describe('the Top Signals paywall (spec section 4)', () => {
  const premium: UserState = { status: 'signed-in', isPremium: true, username: 'p', email: 'p@example.com' };
  const free: UserState = { status: 'signed-in', isPremium: false, username: 'f', email: 'f@example.com' };

  it.each([
    ['flag off, a top ticker', false, true, { status: 'signed-out' }, true],
    ['flag on, another ticker', true, false, { status: 'signed-out' }, true],
    ['flag on, a top ticker, signed out', true, true, { status: 'signed-out' }, false],
    ['flag on, a top ticker, a free account', true, true, free, false],
    ['flag on, a top ticker, a premium account', true, true, premium, true],
  ] as [string, boolean, boolean, UserState, boolean][])('%s: the stock opens -> %s', (_case, flag, top, user, opens) => {
    $topSignalsPaywall.set(flag);
    $user.set(user);
    expect(mayOpenStock(top)).toBe(opens);
    expect($paywall.get()).toEqual(opens ? { open: false } : { open: true, feature: 'Top Stock Details' });
  });
});

describe('the Paywall island (spec sections 6 and 9)', () => {
  it('offers the Free and Pro plans with their figures', () => {
    $paywall.set({ open: true, feature: 'Archive Access' });
    const html = renderToString(createElement(Paywall)).replace(/<!-- -->/g, '');
    for (const text of [
      'Choose Your Plan',
      'Archive Access is part of Pro. Compare the plans below.',
      '45 daily signals',
      '5 daily top signals',
      '$20.00 per month',
      '$16.67 per month billed annually',
      '300+ signals and top signals',
      'Continue with free',
      'Upgrade to Pro',
    ]) {
      expect(html).toContain(text);
    }
  });
});
