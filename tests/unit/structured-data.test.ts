/** The JSON-LD rule check itself: it names an unknown type and a property of another type, and passes the markup we write. */
import { describe, expect, it } from 'vitest';
import { detailJsonLd } from '../../src/lib/domain/signals/detail';
import { breadcrumbJsonLd, HOME_CRUMB } from '../../src/lib/domain/site/breadcrumbs';
import { itemListJsonLd } from '../../src/lib/domain/site/item-list';
import { jsonLdProblems } from '../fixtures/structured-data';

describe('jsonLdProblems', () => {
  it('names an unknown type, an unknown property and a property of another type, with their paths', () => {
    expect(jsonLdProblems({ '@context': 'https://schema.org', '@graph': [{ '@type': 'Stock' }, { '@type': 'WebPage', tickerSymbol: 'A', bogus: 1 }] })).toEqual([
      '$.@graph[0]: "Stock" is not a schema.org type',
      '$.@graph[1].tickerSymbol: not a property of WebPage',
      '$.@graph[1].bogus: not a schema.org property',
    ]);
  });

  it('passes the stock page, breadcrumb and list markup we write', () => {
    const site = 'https://signals.example/';
    const trail = [HOME_CRUMB, { name: 'Energy', path: '/sector/energy' }, { name: 'XOM', path: '/signal/XOM' }];
    expect(jsonLdProblems(detailJsonLd({ siteName: 'C-Score Signals', siteUrl: site, ticker: 'XOM', companyName: 'ExxonMobil', description: 'd', reportDate: '2026-11-20', website: null, trail }))).toEqual([]);
    expect(jsonLdProblems({ '@context': 'https://schema.org', ...breadcrumbJsonLd(trail, site) })).toEqual([]);
    expect(jsonLdProblems({ '@context': 'https://schema.org', ...itemListJsonLd('Energy stocks', ['XOM', 'CVX'], site) })).toEqual([]);
  });
});
