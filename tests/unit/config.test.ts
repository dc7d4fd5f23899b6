import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ISLAND_FAULTS_IN_PRODUCTION, loadConfig, PROJECT_ROOT, requireProductionSettings, siteUrlProblem } from '../../src/config';

/** The ConfigError that `env` causes (fails the test when it causes none). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('gives the defaults of docs/environment.md for an empty environment, paths resolved from the project root', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      source: resolve(PROJECT_ROOT, 'data/sample-exports/'),
      archiveDir: resolve(PROJECT_ROOT, 'data/archive'),
      distDir: resolve(PROJECT_ROOT, 'dist'),
      universeFile: resolve(PROJECT_ROOT, 'data/universe/sp500-constituents.csv'),
      companyInfoFile: resolve(PROJECT_ROOT, 'data/company-info/companies.json'),
      shareImageCache: resolve(PROJECT_ROOT, 'data/build/share-images'),
      siteDataFile: resolve(PROJECT_ROOT, 'dist/data/site.json'),
      siteUrl: 'http://localhost:4321',
      siteName: 'C-Score Signals',
      port: 4321,
      host: 'localhost',
      devApiPort: null,
      polygon: { apiKey: null, baseUrl: 'https://api.polygon.io', ratePerMinute: 5, timeoutMs: 5000 },
      links: { learnVideo: null, newsletter: null, community: null },
      production: false,
      database: { url: null, file: resolve(PROJECT_ROOT, 'data/app.db') },
      mail: { smtpUrl: null, from: 'C-Score Signals <no-reply@localhost>' },
      authSecret: null,
      adminEmails: [],
      paywall: false,
      stripe: null,
    });
  });

  it('reads the account variables: operators lower-cased, Stripe only with both keys', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app:pw@127.0.0.1:5432/app',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Signals <hi@signals.example>',
      BETTER_AUTH_SECRET: 'x'.repeat(32),
      ADMIN_EMAILS: ' Ops@Example.com, second@example.com ,',
      PAYWALL: 'on',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_ANNUAL: 'price_a',
    });
    expect(config).toMatchObject({
      database: { url: 'postgres://app:pw@127.0.0.1:5432/app' },
      mail: { smtpUrl: 'smtp://127.0.0.1:2525', from: 'Signals <hi@signals.example>' },
      authSecret: 'x'.repeat(32),
      adminEmails: ['ops@example.com', 'second@example.com'],
      paywall: true,
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', priceMonthly: 'price_m', priceAnnual: 'price_a', apiUrl: null },
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' }).stripe).toBeNull();
  });

  it('in production refuses to start without SMTP_URL, BETTER_AUTH_SECRET and an https SITE_URL, naming each', () => {
    const refused = (env: Record<string, string>) => {
      try {
        requireProductionSettings(loadConfig(env));
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(refused({ NODE_ENV: 'production' })).toEqual([
      'SMTP_URL="": required when NODE_ENV=production (the mail server for sign-in links)',
      'BETTER_AUTH_SECRET="": required when NODE_ENV=production (openssl rand -base64 32)',
      'SITE_URL="http://localhost:4321": an https address is required when NODE_ENV=production',
    ]);
    expect(refused({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail', BETTER_AUTH_SECRET: 'y'.repeat(40), SITE_URL: 'http://signals.example' })).toEqual([
      'SITE_URL="http://signals.example": an https address is required when NODE_ENV=production',
    ]);
    expect(refused({ NODE_ENV: 'development' })).toEqual([]);
    expect(refused({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail', BETTER_AUTH_SECRET: 'y'.repeat(40), SITE_URL: 'https://signals.example' })).toEqual([]);
    expect(refused({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail', BETTER_AUTH_SECRET: 'y'.repeat(40), SITE_URL: 'https://signals.example', ISLAND_FAULTS: 'on' })).toEqual([ISLAND_FAULTS_IN_PRODUCTION]);
  });

  it('unset, SITE_URL follows PORT, so mailed links reach the server it names', () => {
    expect(loadConfig({}).siteUrl).toBe('http://localhost:4321');
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', SITE_URL: 'https://signals.example' }).siteUrl).toBe('https://signals.example');
  });

  it('names a SITE_URL that is unset or not https, for the daily job to warn about', () => {
    expect(siteUrlProblem(loadConfig({}))).toMatch(/^SITE_URL is "http:\/\/localhost:4321" \(unset or not https\): canonical links, share images and the sitemap point there\./);
    expect(siteUrlProblem(loadConfig({ SITE_URL: 'http://signals.example' }))).toContain('"http://signals.example"');
    expect(siteUrlProblem(loadConfig({ SITE_URL: 'https://signals.example' }))).toBeNull();
    expect(loadConfig({})).toMatchObject({ fundamentalsFile: resolve(PROJECT_ROOT, 'data/company-info/fundamentals.json'), islandFaults: false });
    expect(loadConfig({ ISLAND_FAULTS: 'on' }).islandFaults).toBe(true);
  });

  it('reads every variable it is given', () => {
    const config = loadConfig({
      SIGNALS_SOURCE: 'https://exports.example.com/latest.xlsx',
      DIST_DIR: '/srv/site/dist',
      SITE_DATA_FILE: '/tmp/staging/site.json',
      SITE_URL: 'https://signals.example',
      SITE_NAME: 'Signals Daily',
      PORT: '8080',
      HOST: '0.0.0.0',
      DEV_API_PORT: '5000',
      POLYGON_API_KEY: ' key-123 ',
      POLYGON_BASE_URL: 'http://127.0.0.1:9999/',
      POLYGON_RATE_PER_MIN: '100',
      POLYGON_TIMEOUT_MS: '250',
      LEARN_VIDEO_URL: 'https://www.youtube-nocookie.com/embed/abc',
    });
    expect(config).toMatchObject({
      source: 'https://exports.example.com/latest.xlsx',
      distDir: '/srv/site/dist',
      siteDataFile: '/tmp/staging/site.json',
      siteUrl: 'https://signals.example',
      siteName: 'Signals Daily',
      port: 8080,
      host: '0.0.0.0',
      devApiPort: 5000,
      polygon: { apiKey: 'key-123', baseUrl: 'http://127.0.0.1:9999', ratePerMinute: 100, timeoutMs: 250 },
      links: { learnVideo: 'https://www.youtube-nocookie.com/embed/abc', newsletter: null, community: null },
    });
  });

  it('reads the deploy variables: Redis, the API origin, the publish command, trusted proxies, logs, shutdown', () => {
    expect(loadConfig({})).toMatchObject({
      redisUrl: null,
      apiOrigin: null,
      publishCommand: null,
      trustedProxies: [],
      logging: { level: 'info', format: null },
      shutdownTimeoutMs: 10_000,
    });
    expect(
      loadConfig({
        REDIS_URL: 'redis://127.0.0.1:6379/2',
        API_ORIGIN: 'https://api.signals.example/ignored/path',
        PUBLISH_COMMAND: ' npx wrangler pages deploy --project-name signals ',
        TRUSTED_PROXIES: '127.0.0.1, ::1,',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'pretty',
        SHUTDOWN_TIMEOUT_MS: '2500',
      }),
    ).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/2',
      apiOrigin: 'https://api.signals.example',
      publishCommand: 'npx wrangler pages deploy --project-name signals',
      trustedProxies: ['127.0.0.1', '::1'],
      logging: { level: 'debug', format: 'pretty' },
      shutdownTimeoutMs: 2500,
    });
    expect(problemsOf({ REDIS_URL: 'localhost:6379', API_ORIGIN: 'api.example', LOG_LEVEL: 'loud', LOG_FORMAT: 'xml' })).toEqual([
      'REDIS_URL="localhost:6379": expected a redis:// or rediss:// address, e.g. redis://127.0.0.1:6379',
      'API_ORIGIN="api.example": expected an http(s) address of the live API behind the CDN, such as https://api.signals.example.com',
      'LOG_LEVEL="loud": expected fatal, error, warn, info, debug, trace or silent',
      'LOG_FORMAT="xml": expected json or pretty',
    ]);
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ PORT: '  ', POLYGON_API_KEY: '', SITE_NAME: '' })).toMatchObject({ port: 4321, polygon: { apiKey: null }, siteName: 'C-Score Signals' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc": expected a whole number'],
    [{ PORT: '70000' }, 'PORT="70000": expected 65535 or less'],
    [{ PORT: '80.5' }, 'PORT="80.5": expected a whole number'],
    [{ POLYGON_RATE_PER_MIN: '0' }, 'POLYGON_RATE_PER_MIN="0": expected 1 or more'],
    [{ POLYGON_TIMEOUT_MS: '-5' }, 'POLYGON_TIMEOUT_MS="-5": expected 1 or more'],
    [{ SITE_URL: 'signals.example' }, 'SITE_URL="signals.example": expected an http(s) address of the site, such as https://signals.example.com'],
    [{ POLYGON_BASE_URL: 'ftp://x' }, 'POLYGON_BASE_URL="ftp://x": expected an http(s) address of the market-data API'],
    [{ PAYWALL: 'yes' }, 'PAYWALL="yes": expected on or off'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x": expected a postgres:// address of the database'],
    [{ BETTER_AUTH_SECRET: 'short' }, 'BETTER_AUTH_SECRET="short": expected 32 characters or more (openssl rand -base64 32)'],
    [{ LEARN_VIDEO_URL: 'javascript:alert(1)' }, 'LEARN_VIDEO_URL="javascript:alert(1)": expected an http(s) address of an embeddable player'],
  ])('refuses %j: %s', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it('lists every problem at once, and the message says what to do', () => {
    const env = { PORT: 'NaN', POLYGON_RATE_PER_MIN: 'five', NEWSLETTER_URL: 'mailto:a@b.c' };
    expect(problemsOf(env)).toHaveLength(3);
    expect(() => loadConfig(env)).toThrow(/^The environment has problems; fix or unset these variables \(docs\/environment\.md\):\n  PORT="NaN"/);
  });
});

describe('the limits and gates settings', () => {
  it('default to the table of docs/limits-and-gates.md and read each variable', () => {
    expect(loadConfig({})).toMatchObject({
      exportLimits: { maxBytes: 52_428_800, maxUnpackedBytes: 209_715_200, maxRows: 100_000, maxColumns: 100, maxTickers: 20_000, maxCellChars: 1000 },
      tickerDropPercent: 20,
      polygon: { reservedPercent: 40, clientPercent: 60 },
    });
    const set = loadConfig({ EXPORT_MAX_BYTES: '1000', EXPORT_MAX_ROWS: '10', EXPORT_MAX_TICKERS: '5', GATE_TICKER_DROP_PERCENT: '50', POLYGON_RESERVED_PERCENT: '0', POLYGON_CLIENT_PERCENT: '100' });
    expect(set).toMatchObject({ exportLimits: { maxBytes: 1000, maxRows: 10, maxTickers: 5 }, tickerDropPercent: 50, polygon: { reservedPercent: 0, clientPercent: 100 } });
  });

  it.each<[Record<string, string>, string]>([
    [{ EXPORT_MAX_ROWS: 'many' }, 'EXPORT_MAX_ROWS="many": expected a whole number'],
    [{ EXPORT_MAX_CELL_CHARS: '100' }, 'EXPORT_MAX_CELL_CHARS="100": expected 200 or more'],
    [{ GATE_TICKER_DROP_PERCENT: '101' }, 'GATE_TICKER_DROP_PERCENT="101": expected 100 or less'],
    [{ POLYGON_RESERVED_PERCENT: '95' }, 'POLYGON_RESERVED_PERCENT="95": expected 90 or less'],
  ])('refuses %j: %s', (env, problem) => {
    expect(() => loadConfig(env)).toThrow(problem);
  });
});
