import type { Redis } from 'ioredis';
import type { Config } from '../../config';
import type { FundamentalsSource } from '../../lib/domain/market-data/fundamentals';
import type { ClosingPricesSource } from '../../lib/domain/track-record/track-data';
import type { UniverseCompany } from '../../lib/domain/report/schemas';
import { DemoProvider } from './demo';
import { PolygonProvider } from './polygon';
import type { MarketDataProvider } from './provider';

/** The provider the settings ask for: `polygon` when POLYGON_API_KEY is set, else the offline `demo`; `redis` shares its budget, answers and client limits. */
export function providerFor(settings: Config['polygon'], universe: readonly UniverseCompany[], redis: Redis | null = null): MarketDataProvider {
  return polygonFor(settings, redis) ?? new DemoProvider({ universe });
}

/**
 * The daily job's source of ratios and earnings dates: the Polygon provider when POLYGON_API_KEY is set, else null
 * (nothing is invented without a key). It runs in the job's own process, with its own per-minute budget.
 */
export function fundamentalsSourceFor(settings: Config['polygon']): FundamentalsSource | null {
  return polygonFor(settings);
}

/**
 * The daily job's source of closes for the track record: the Polygon provider's grouped daily bars when
 * POLYGON_API_KEY is set (its own per-minute budget, waited for), else the demo provider's deterministic demo closes.
 */
export function closingPricesSourceFor(settings: Config['polygon'], universe: readonly UniverseCompany[]): ClosingPricesSource {
  return polygonFor(settings) ?? new DemoProvider({ universe });
}

function polygonFor(settings: Config['polygon'], redis: Redis | null = null): PolygonProvider | null {
  if (settings.apiKey === null) return null;
  return new PolygonProvider({
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    ratePerMinute: settings.ratePerMinute,
    timeoutMs: settings.timeoutMs,
    reservedPerMinute: Math.floor((settings.ratePerMinute * settings.reservedPercent) / 100),
    clientPerMinute: Math.max(1, Math.floor((settings.ratePerMinute * settings.clientPercent) / 100)),
    redis,
  });
}
