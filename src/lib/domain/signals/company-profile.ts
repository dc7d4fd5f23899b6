import type { StoredCompanyInfo, UniverseCompany } from '../report/schemas';
import { safeHttpUrl } from '../text/url';

/** What a page shows about a company, with the true source of its description. */
export interface CompanyProfile {
  ticker: string;
  name: string;
  description: string;
  /** 'provider' when the market-data provider wrote it; 'generated' when we wrote it from the universe file's facts. */
  descriptionSource: 'provider' | 'generated';
  sector: string | null;
  industry: string | null;
  /** Always http(s), or null. */
  website: string | null;
  employees: number | null;
  marketCap: number | null;
  hasLogo: boolean;
}

/** Returns the address as an http(s) URL ('https://' prefixed when it has no scheme), or null for anything else. */
export function safeWebsite(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text.replace(/^\/+/, '')}`;
  return safeHttpUrl(withScheme);
}

/**
 * The generic paragraph of spec section 8 for a company the provider has not described, built only from the
 * universe file's facts (nothing invented about a real company).
 */
export function genericDescription(name: string, company: UniverseCompany | undefined, siteName: string): string {
  if (!company) {
    return `${name} is a listed company covered by ${siteName}. No company description is available yet; the scores on this page describe its daily signal only.`;
  }
  const place = company.headquarters && company.headquarters !== 'Synthetic' ? `, headquartered in ${company.headquarters}` : '';
  const founded = /^\d{4}/.test(company.founded) ? ` and founded in ${company.founded}` : '';
  return `${name} is a company in the ${company.subIndustry} industry of the ${company.sector} sector${place}${founded}. It is a constituent of the universe ${siteName} covers; the scores on this page describe its daily signal only.`;
}

/** Merges what the store knows with the universe file into what the company cards show. */
export function companyProfile(
  ticker: string,
  recordName: string,
  company: UniverseCompany | undefined,
  stored: StoredCompanyInfo | undefined,
  siteName: string,
): CompanyProfile {
  const name = stored?.name?.trim() || recordName.trim() || company?.name || `${ticker} Corporation`;
  const providerDescription = stored?.description?.trim();
  return {
    ticker,
    name,
    description: providerDescription || genericDescription(name, company, siteName),
    descriptionSource: providerDescription ? 'provider' : 'generated',
    sector: company?.sector || null,
    industry: stored?.industry?.trim() || company?.subIndustry || null,
    website: safeWebsite(stored?.homepageUrl),
    employees: stored?.employees ?? null,
    marketCap: stored?.marketCap ?? null,
    hasLogo: Boolean(stored?.logoUrl),
  };
}
