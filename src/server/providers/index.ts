import type { UniverseCompany } from '../../lib/domain/schemas';
import { DemoProvider } from './demo';
import { PolygonProvider } from './polygon';
import type { MarketDataProvider } from './provider';

/** Default Polygon origin when POLYGON_BASE_URL is not set. */
export const DEFAULT_POLYGON_BASE_URL = 'https://api.polygon.io';

/** The provider the environment asks for: `polygon` when POLYGON_API_KEY is set, else the offline `demo`. */
export function providerFromEnv(env: NodeJS.ProcessEnv, universe: readonly UniverseCompany[]): MarketDataProvider {
  const apiKey = env.POLYGON_API_KEY?.trim();
  if (!apiKey) return new DemoProvider({ universe });
  return new PolygonProvider({
    apiKey,
    baseUrl: env.POLYGON_BASE_URL || DEFAULT_POLYGON_BASE_URL,
    ratePerMinute: positiveInt(env.POLYGON_RATE_PER_MIN, 5, 'POLYGON_RATE_PER_MIN'),
    timeoutMs: positiveInt(env.POLYGON_TIMEOUT_MS, 5000, 'POLYGON_TIMEOUT_MS'),
  });
}

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of 1 or more (got "${raw}"); fix it or unset it for ${fallback}.`);
  return value;
}
