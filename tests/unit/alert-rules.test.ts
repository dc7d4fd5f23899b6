/** Own alert rules and push endpoints, the pure part: when a rule fires, what a bad rule is told, which addresses are refused. */
import { describe, expect, it } from 'vitest';
import { alertRuleLimit } from '../../src/lib/domain/accounts/entitlements';
import { composePush, endpointUrlProblem, isForbiddenAddress } from '../../src/lib/domain/alerts/push';
import { checkRule, reportChanges, ruleFires } from '../../src/lib/domain/alerts/rules';
import { signalRecord } from '../fixtures/records';

describe('alert rules', () => {
  it('a crossing fires only when the score before is on the other side of the level', () => {
    expect(ruleFires({ kind: 'above', value: 70 }, { before: 69.99, after: 70 })).toBe(true);
    expect(ruleFires({ kind: 'above', value: 70 }, { before: 70, after: 75 })).toBe(false);
    expect(ruleFires({ kind: 'above', value: 70 }, { before: 60, after: 69 })).toBe(false);
    expect(ruleFires({ kind: 'below', value: -65 }, { before: -60, after: -65 })).toBe(true);
    expect(ruleFires({ kind: 'below', value: -65 }, { before: -66, after: -70 })).toBe(false);
    expect(ruleFires({ kind: 'move', value: 10 }, { before: 20, after: 10 })).toBe(true);
    expect(ruleFires({ kind: 'move', value: 10 }, { before: 20, after: 10.01 })).toBe(false);
  });

  it('compares the latest report with the one before; a ticker new today has no change', () => {
    const changes = reportChanges({ dates: ['2026-11-19', '2026-11-20'], latest: [signalRecord('AAPL', { cScore: 71 }), signalRecord('NEW', { cScore: 80 })], scores: { AAPL: [60, 71], NEW: [null, 80] } });
    expect([...changes]).toEqual([['AAPL', { before: 60, after: 71 }]]);
  });

  it('names the field of a bad rule, and the plan limit', () => {
    const context = { known: (t: string) => t === 'AAPL', count: 0, limit: 5 };
    expect(checkRule({ ticker: ' aapl ', kind: 'below', value: -100 }, context)).toEqual({ rule: { ticker: 'AAPL', kind: 'below', value: -100 } });
    expect(checkRule({ ticker: 'AAPL', kind: 'above', value: '70' }, context)).toMatchObject({ field: 'value' });
    expect(checkRule({ ticker: 'AAPL', kind: 'move', value: 200.5 }, context)).toMatchObject({ field: 'value' });
    expect(checkRule({ ticker: 'MSFT', kind: 'move', value: 3 }, context)).toMatchObject({ field: 'ticker' });
    expect(checkRule({ ticker: 'AAPL', kind: 'move', value: 3 }, { ...context, count: 5 })).toMatchObject({ field: 'rules' });
    expect([alertRuleLimit({ paywall: false, isPro: false }), alertRuleLimit({ paywall: true, isPro: false }), alertRuleLimit({ paywall: true, isPro: true })]).toEqual([50, 5, 200]);
  });
});

describe('push endpoints', () => {
  it.each(['127.0.0.1', '127.8.9.1', '10.0.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:192.168.1.1', '64:ff9b::a00:1', 'not-an-ip'])('%s is refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '142.250.74.10', '2a00:1450:4001::200e', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('production takes https only; tests may use http', () => {
    expect(endpointUrlProblem('http://127.0.0.1:9/push/a', false)).toBeNull();
    expect(endpointUrlProblem('http://push.example/a', true)).toBe('endpoint must be an https URL.');
    expect(endpointUrlProblem('ftp://push.example/a', false)).toBe('endpoint must be an http or https URL.');
    expect(endpointUrlProblem('https://user:pw@push.example/a', true)).toBe('endpoint must not carry a user name or password.');
  });

  it('one notification sums a user\'s events and links to the stock when there is one', () => {
    const message = composePush({
      events: [],
      rules: [{ ruleId: 'r', userId: 'u', ticker: 'AAPL', kind: 'below', value: -20, reportDate: '2026-11-20', scoreBefore: -10, scoreAfter: -25 }],
      withScores: false,
      siteName: 'C-Score Signals',
      siteUrl: 'https://signals.example',
      reportDate: '2026-11-20',
    });
    expect(message).toEqual({ title: 'C-Score Signals: 1 alert on the report of Nov 20, 2026', body: 'AAPL crossed below -20', url: 'https://signals.example/signal/AAPL', tag: 'report-2026-11-20' });
  });
});
