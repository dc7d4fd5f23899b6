/** The push's saved-screen lines and the rules paused over a plan's limit, the pure part. */
import { describe, expect, it } from 'vitest';
import { composePush } from '../../src/lib/domain/alerts/push';
import { pausedRulesText, rulePaused } from '../../src/lib/domain/alerts/rules';

const SITE = { siteName: 'C-Score Signals', siteUrl: 'https://signals.example', reportDate: '2026-11-20' };
const rule = { ruleId: 'r', userId: 'u', ticker: 'AAPL', kind: 'above' as const, value: 50, reportDate: '2026-11-20', scoreBefore: 40, scoreAfter: 60 };

describe('saved screens in the push', () => {
  it('names each screen\'s new stocks on a line, counts each stock as an alert and links the screen when it is all there is', () => {
    const screens = [{ name: 'Bulls', query: 'cscore=65..&signal=bullish', tickers: ['XOM', 'NVDA'] }];
    expect(composePush({ events: [], rules: [], screens, withScores: true, ...SITE })).toEqual({
      title: 'C-Score Signals: 2 alerts on the report of Nov 20, 2026',
      body: 'New in your screen "Bulls": XOM, NVDA',
      url: 'https://signals.example/screener?cscore=65..&signal=bullish',
      tag: 'report-2026-11-20',
    });
  });

  it('joins the rules that fired; one stock in all links its page, several the account\'s alerts', () => {
    const one = composePush({ events: [], rules: [rule], screens: [{ name: 'Risers', query: 'change=15..', tickers: ['AAPL'] }], withScores: true, ...SITE });
    expect(one).toMatchObject({ title: 'C-Score Signals: 2 alerts on the report of Nov 20, 2026', body: 'AAPL crossed above 50: C-Score 40.00 to 60.00\nNew in your screen "Risers": AAPL', url: 'https://signals.example/signal/AAPL' });
    const two = composePush({ events: [], rules: [rule], screens: [{ name: 'Risers', query: 'change=15..', tickers: ['MSFT'] }], withScores: true, ...SITE });
    expect(two?.url).toBe('https://signals.example/account#alerts');
    expect(composePush({ events: [], rules: [], screens: [{ name: 'Empty', query: 'top=1', tickers: [] }], withScores: true, ...SITE })).toBeNull();
  });
});

describe('rules over the plan\'s limit', () => {
  it('only the oldest fire; the sentence says how many are paused and what to do', () => {
    expect([0, 4, 5, 7].map((index) => rulePaused(index, 5))).toEqual([false, false, true, true]);
    expect(pausedRulesText(5, 5, true)).toBeNull();
    expect(pausedRulesText(8, 5, true)).toBe('Your plan allows 5 alert rules and you have 8: only your 5 oldest fire; the 3 newest are paused and do not fire. Upgrade to Pro or delete rules to have them fire again.');
    expect(pausedRulesText(51, 50, false)).toBe('Your plan allows 50 alert rules and you have 51: only your 50 oldest fire; the newest is paused and does not fire. Delete rules to have them fire again.');
  });
});
