import { describe, expect, it } from 'vitest';
import { companyProfile, genericDescription, safeWebsite } from '../../src/lib/domain/signals/company-profile';

const APPLE = { ticker: 'AAPL', name: 'Apple Inc.', sector: 'Information Technology', subIndustry: 'Technology Hardware, Storage & Peripherals', headquarters: 'Cupertino, California', founded: '1977' };

describe('safeWebsite', () => {
  it.each<[string | null | undefined, string | null]>([
    ['https://www.apple.com', 'https://www.apple.com/'],
    ['http://example.com/about', 'http://example.com/about'],
    ['www.apple.com', 'https://www.apple.com/'],
    ['apple.com/investors', 'https://apple.com/investors'],
    ['javascript:alert(1)', null],
    ['JavaScript:alert(1)', null],
    ['data:text/html,hi', null],
    ['ftp://example.com', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (raw, expected) => {
    expect(safeWebsite(raw)).toBe(expected);
  });
});

describe('companyProfile', () => {
  it('prefers the provider description and says so', () => {
    const profile = companyProfile('AAPL', 'Apple Inc.', APPLE, { ticker: 'AAPL', description: 'Designs phones.', industry: 'ELECTRONIC COMPUTERS', homepageUrl: 'apple.com', fetchedAt: '2026-11-20T00:00:00Z', logoUrl: 'https://x/logo.svg' }, 'C-Score Signals');
    expect(profile).toMatchObject({ description: 'Designs phones.', descriptionSource: 'provider', industry: 'ELECTRONIC COMPUTERS', website: 'https://apple.com/', hasLogo: true, sector: 'Information Technology' });
  });

  it('falls back to a generic paragraph from the universe file, marked generated, with no website', () => {
    const profile = companyProfile('AAPL', '', APPLE, undefined, 'C-Score Signals');
    expect(profile.name).toBe('Apple Inc.');
    expect(profile.descriptionSource).toBe('generated');
    expect(profile.description).toBe('Apple Inc. is a company in the Technology Hardware, Storage & Peripherals industry of the Information Technology sector, headquartered in Cupertino, California and founded in 1977. It is a constituent of the universe C-Score Signals covers; the scores on this page describe its daily signal only.');
    expect(profile.website).toBeNull();
    expect(profile.industry).toBe('Technology Hardware, Storage & Peripherals');
  });

  it("uses '{ticker} Corporation' when nothing names the company", () => {
    const profile = companyProfile('ZZZZ', '', undefined, undefined, 'C-Score Signals');
    expect(profile.name).toBe('ZZZZ Corporation');
    expect(profile.description).toBe(genericDescription('ZZZZ Corporation', undefined, 'C-Score Signals'));
  });
});
