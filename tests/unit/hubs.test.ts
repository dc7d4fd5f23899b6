/** The sector and sub-industry hubs of a report: addresses, order, figures, locked tickers, and their trails. */
import { describe, expect, it } from 'vitest';
import { buildHubs, hubHref, hubSlug, scoreBand, stockHubs } from '../../src/lib/domain/signals/hubs';
import { breadcrumbJsonLd, HOME_CRUMB } from '../../src/lib/domain/site/breadcrumbs';
import { signalRecord } from '../fixtures/records';

const rec = (ticker: string, cScore: number, sector: string, subIndustry: string) => signalRecord(ticker, { cScore, sector, subIndustry });

const report = [
  rec('XOM', -67.34, 'Energy', 'Integrated Oil & Gas'),
  rec('CVX', 40, 'Energy', 'Integrated Oil & Gas'),
  rec('SLB', 90, 'Energy', 'Oil & Gas Equipment & Services'),
  rec('HAL', 10, 'Energy', 'Oil & Gas Equipment & Services'),
  rec('AAPL', 66.23, 'Information Technology', 'Technology Hardware, Storage & Peripherals'),
  rec('MSFT', -100, 'Information Technology', 'Systems Software'),
  rec('ODD', 5, '', ''),
];

describe('hub addresses', () => {
  it.each([
    ['Information Technology', 'information-technology'],
    ['Oil & Gas Equipment & Services', 'oil-and-gas-equipment-and-services'],
    ['Technology Hardware, Storage & Peripherals', 'technology-hardware-storage-and-peripherals'],
    ['  Health Care ', 'health-care'],
  ])('%s is /…/%s', (name, slug) => {
    expect(hubSlug(name)).toBe(slug);
  });

  it('stops the build when two names make one address, naming both', () => {
    expect(() => buildHubs([rec('A', 1, 'Health Care', 'X'), rec('B', 2, 'Health-Care', 'Y')])).toThrow(
      'The sector names "Health Care" and "Health-Care" both make the address /sector/health-care: correct one of them in the export.',
    );
  });
});

describe('buildHubs', () => {
  const hubs = buildHubs(report);
  it('makes one hub per sector and sub-industry, in name order; a stock without a sector is in none', () => {
    expect(hubs.map(hubHref)).toEqual([
      '/sector/energy',
      '/sector/information-technology',
      '/industry/integrated-oil-and-gas',
      '/industry/oil-and-gas-equipment-and-services',
      '/industry/systems-software',
      '/industry/technology-hardware-storage-and-peripherals',
    ]);
    expect(hubs.flatMap((h) => h.records.map((r) => r.ticker))).not.toContain('ODD');
  });

  it('lists the qualified first, strongest first, then the others from the highest score', () => {
    const energy = hubs.find((h) => h.slug === 'energy')!;
    expect(energy.records.map((r) => r.ticker)).toEqual(['SLB', 'XOM', 'CVX', 'HAL']);
    expect(energy.signals).toEqual({ bullish: 1, bearish: 1, neutral: 2 });
    // -67.34 in [-80, -60), 10 in [0, 20), 40 in [40, 60), 90 in [80, 100].
    expect(energy.bands).toEqual([0, 1, 0, 0, 0, 1, 0, 1, 0, 1]);
    expect(hubs.find((h) => h.slug === 'integrated-oil-and-gas')!.sector).toBe('Energy');
  });

  it('counts a locked ticker in no figure but keeps it in its hub', () => {
    const it = buildHubs(report, new Set(['AAPL'])).find((h) => h.slug === 'information-technology')!;
    expect(it.records.map((r) => r.ticker)).toEqual(['MSFT', 'AAPL']);
    expect(it.locked).toBe(1);
    expect(it.signals).toEqual({ bullish: 0, bearish: 1, neutral: 0 });
    expect(it.bands.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('puts -100 and 100 in the end bands', () => {
    expect([scoreBand(-100), scoreBand(-80.01), scoreBand(-80), scoreBand(0), scoreBand(100)]).toEqual([0, 0, 1, 5, 9]);
  });

  it("gives a stock its sector's and sub-industry's hubs, the middle of its trail", () => {
    const { sector, industry } = stockHubs(hubs, report[0]!);
    expect([hubHref(sector!), hubHref(industry!)]).toEqual(['/sector/energy', '/industry/integrated-oil-and-gas']);
    expect(stockHubs(hubs, report[6]!)).toEqual({ sector: null, industry: null });
  });
});

describe('breadcrumbs', () => {
  it('mark up every step at its canonical address, in order', () => {
    const trail = [HOME_CRUMB, { name: 'Energy', path: '/sector/energy' }, { name: 'XOM', path: '/signal/XOM' }];
    expect(breadcrumbJsonLd(trail, 'https://signals.example/')).toEqual({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://signals.example/' },
        { '@type': 'ListItem', position: 2, name: 'Energy', item: 'https://signals.example/sector/energy' },
        { '@type': 'ListItem', position: 3, name: 'XOM', item: 'https://signals.example/signal/XOM' },
      ],
    });
  });
});
