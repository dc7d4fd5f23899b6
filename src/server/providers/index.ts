import type { Config } from '../../config';
import type { UniverseCompany } from '../../lib/domain/schemas';
import { DemoProvider } from './demo';
import { PolygonProvider } from './polygon';
import type { MarketDataProvider } from './provider';

/** The provider the settings ask for: `polygon` when POLYGON_API_KEY is set, else the offline `demo`. */
export function providerFor(settings: Config['polygon'], universe: readonly UniverseCompany[]): MarketDataProvider {
  if (settings.apiKey === null) return new DemoProvider({ universe });
  return new PolygonProvider({
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    ratePerMinute: settings.ratePerMinute,
    timeoutMs: settings.timeoutMs,
    reservedPerMinute: Math.floor((settings.ratePerMinute * settings.reservedPercent) / 100),
    clientPerMinute: Math.max(1, Math.floor((settings.ratePerMinute * settings.clientPercent) / 100)),
  });
}
