/** The API keys' rules: the allowance by plan and PAYWALL, the UTC-day window, the RateLimit fields, the header's form. */
import { describe, expect, it } from 'vitest';
import { bearerKey, DAILY_KEY_ALLOWANCE, keyAllowance, keyWindow, rateLimitHeaders } from '../../src/lib/domain/accounts/api-keys';

const KEY = `csk_${'a'.repeat(43)}`;

describe('API keys', () => {
  it('allow 1,000 requests a day, and 50,000 to a Pro owner only when the site takes payments (PAYWALL=on)', () => {
    expect(DAILY_KEY_ALLOWANCE).toEqual({ free: 1_000, pro: 50_000 });
    expect(keyAllowance(false, false)).toBe(1_000);
    expect(keyAllowance(true, false)).toBe(1_000);
    expect(keyAllowance(false, true)).toBe(1_000);
    expect(keyAllowance(true, true)).toBe(50_000);
  });

  it('count in UTC days: the window resets at 00:00 UTC', () => {
    expect(keyWindow(Date.parse('2026-11-20T23:59:30Z'))).toEqual({ day: '2026-11-20', resetSeconds: 30 });
    expect(keyWindow(Date.parse('2026-11-21T00:00:00Z'))).toEqual({ day: '2026-11-21', resetSeconds: 86_400 });
  });

  it('answer RateLimit-Limit, -Remaining (never below 0), -Reset and -Policy', () => {
    expect(rateLimitHeaders(1_000, 1, 60)).toEqual({ 'RateLimit-Limit': '1000', 'RateLimit-Remaining': '999', 'RateLimit-Reset': '60', 'RateLimit-Policy': '1000;w=86400' });
    expect(rateLimitHeaders(1_000, 1_005, 60)['RateLimit-Remaining']).toBe('0');
  });

  it('are read from "Bearer KEY" only, in the key\'s own form', () => {
    expect(bearerKey(`Bearer ${KEY}`)).toBe(KEY);
    expect(bearerKey(`bearer  ${KEY} `)).toBe(KEY);
    expect(bearerKey(`Basic ${KEY}`)).toBeNull();
    expect(bearerKey(`Bearer css_${'a'.repeat(43)}`)).toBeNull();
    expect(bearerKey(`Bearer ${KEY}x`)).toBeNull();
    expect(bearerKey('Bearer')).toBeNull();
  });
});
