import { defineConfig } from '@playwright/test';
import {
  DEMO_URL,
  E2E_DIR,
  E2E_PORT,
  FAKE_POLYGON_KEY,
  FAKE_POLYGON_PORT,
  FAKE_POLYGON_URL,
  FAKE_LLM_KEY,
  FAKE_LLM_MODEL,
  FAKE_LLM_PORT,
  FAKE_LLM_URL,
  LEARN_VIDEO_URL,
  OPERATOR_DIR,
  OPERATOR_EMAIL,
  OPERATOR_FIRST_REPORT,
  OPERATOR_PORT,
  OPERATOR_URL,
  PAYWALL_DB,
  PAYWALL_PORT,
  PAYWALL_STRIPE_PORT,
  PAYWALL_STRIPE_WEBHOOK_SECRET,
  PAYWALL_URL,
  POLYGON_APP_PORT,
  POLYGON_URL,
  SMTP_CATCHER_PORT,
  SMTP_CATCHER_READ_PORT,
  SMTP_CATCHER_READ_URL,
} from './tests/e2e/servers';

const launchArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// The demo app's build; the polygon app makes its own with a key (its fundamentals come from the fake), on the same accounts database.
const site = {
  SIGNALS_SOURCE: 'data/sample-exports',
  ARCHIVE_DIR: `${E2E_DIR}/archive`,
  DIST_DIR: `${E2E_DIR}/dist`,
  DATABASE_FILE: `${E2E_DIR}/app.db`,
  FUNDAMENTALS_FILE: `${E2E_DIR}/fundamentals.json`,
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  // On CI one retry, so a machine stall does not fail the run; the list reporter names such a test "flaky" and ends
  // with every failure's details, where a log read from its tail shows them.
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 30_000,
  // A CI machine busy with other work can take seconds to hydrate a page: every assertion waits up to 15 s.
  expect: { timeout: 15_000 },
  use: {
    baseURL: DEMO_URL,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: launchArgs },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // Playwright starts these in order, each once the one before answers (tests/e2e/servers.ts says who uses which).
  webServer: [
    {
      // Before the demo app, which sends its mail here.
      command: 'tsx tests/fixtures/smtp-catcher.ts',
      url: `${SMTP_CATCHER_READ_URL}/messages`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { SMTP_CATCHER_PORT: String(SMTP_CATCHER_PORT), SMTP_CATCHER_READ_PORT: String(SMTP_CATCHER_READ_PORT) },
    },
    {
      // The real `npm start` path: the server runs the daily job into a fresh folder first, then serves it.
      command: `rm -rf ${E2E_DIR} && tsx scripts/start.ts`,
      url: `${DEMO_URL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      // No key, whatever the shell has: the offline demo provider.
      // Accounts: its own address as SITE_URL (Better Auth's trusted origin and the links it mails), mail to the catcher.
      env: {
        ...site,
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        POLYGON_API_KEY: '',
        SITE_URL: DEMO_URL,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_CATCHER_PORT}`,
        // A test build: ?island-fault=NAME makes that island throw (tests/e2e/honesty.spec.ts); never in production.
        ISLAND_FAULTS: 'on',
        // No model, whatever the shell has: its AI pages say AI is not configured (tests/e2e/ai.spec.ts).
        LLM_BASE_URL: '',
        LLM_API_KEY: '',
        LLM_MODEL: '',
      },
    },
    {
      command: 'tsx tests/fixtures/fake-polygon-server.ts',
      // Any answer means it listens: without the key it is Polygon's 401.
      url: `${FAKE_POLYGON_URL}/v3/reference/tickers/AAPL`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { FAKE_POLYGON_PORT: String(FAKE_POLYGON_PORT), FAKE_POLYGON_KEY },
    },
    {
      // The model server of the polygon app's AI pages; a GET without the key is its 401, which means it listens.
      command: 'tsx tests/fixtures/fake-llm-server.ts',
      url: `${FAKE_LLM_URL}/chat/completions`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { FAKE_LLM_PORT: String(FAKE_LLM_PORT), FAKE_LLM_KEY },
    },
    {
      // A build with a key: the daily job fetches ratios and earnings dates from the fake, then the server's live
      // market data comes from it too.
      command: 'tsx scripts/start.ts',
      url: `${POLYGON_URL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      env: {
        ...site,
        ARCHIVE_DIR: `${E2E_DIR}/polygon/archive`,
        DIST_DIR: `${E2E_DIR}/polygon/dist`,
        FUNDAMENTALS_FILE: `${E2E_DIR}/polygon/fundamentals.json`,
        PORT: String(POLYGON_APP_PORT),
        HOST: '127.0.0.1',
        POLYGON_API_KEY: FAKE_POLYGON_KEY,
        POLYGON_BASE_URL: FAKE_POLYGON_URL,
        // The detail tests open many pages a minute; the free tier's 5 calls would leave most quotes empty.
        POLYGON_RATE_PER_MIN: '1000',
        // Its AI pages answer from the fake model server (tests/e2e/ai.spec.ts); the demo app has no model.
        LLM_BASE_URL: FAKE_LLM_URL,
        LLM_API_KEY: FAKE_LLM_KEY,
        LLM_MODEL: FAKE_LLM_MODEL,
        // Its Learn page has a guide video and community links (tests/e2e/shell.spec.ts); the demo app has none.
        LEARN_VIDEO_URL: LEARN_VIDEO_URL,
        NEWSLETTER_URL: 'https://newsletter.example/',
        COMMUNITY_URL: 'https://chat.example/',
      },
    },
    {
      // PAYWALL=on: its own build (the static files hold the free slice only) and its own accounts database.
      command: 'tsx scripts/start.ts',
      url: `${PAYWALL_URL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      env: {
        SIGNALS_SOURCE: 'data/sample-exports',
        ARCHIVE_DIR: `${E2E_DIR}/paywall/archive`,
        DIST_DIR: `${E2E_DIR}/paywall/dist`,
        DATABASE_FILE: PAYWALL_DB,
        PAYWALL: 'on',
        SITE_URL: PAYWALL_URL,
        // Billing through the fake Stripe API the paywall spec starts (tests/fixtures/fake-stripe.ts).
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_WEBHOOK_SECRET: PAYWALL_STRIPE_WEBHOOK_SECRET,
        STRIPE_PRICE_MONTHLY: 'price_pro_monthly',
        STRIPE_PRICE_ANNUAL: 'price_pro_annual',
        STRIPE_API_URL: `http://127.0.0.1:${PAYWALL_STRIPE_PORT}`,
        PORT: String(PAYWALL_PORT),
        HOST: '127.0.0.1',
        POLYGON_API_KEY: '',
      },
    },
    {
      // The operator app: a small generated source (12 tickers x 3 days, so a publish builds in seconds), its own
      // build, archive and accounts database, an operator in ADMIN_EMAILS and mail to the catcher.
      command: `rm -rf ${OPERATOR_DIR} && tsx scripts/make-sample-exports.ts --days 3 --tickers 12 --end ${OPERATOR_FIRST_REPORT} --out ${OPERATOR_DIR}/source && tsx scripts/start.ts`,
      url: `${OPERATOR_URL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      env: {
        SIGNALS_SOURCE: `${OPERATOR_DIR}/source`,
        ARCHIVE_DIR: `${OPERATOR_DIR}/archive`,
        DIST_DIR: `${OPERATOR_DIR}/dist`,
        DATABASE_FILE: `${OPERATOR_DIR}/app.db`,
        SHARE_IMAGE_CACHE: `${OPERATOR_DIR}/share-images`,
        ADMIN_EMAILS: OPERATOR_EMAIL,
        SITE_URL: OPERATOR_URL,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_CATCHER_PORT}`,
        PORT: String(OPERATOR_PORT),
        HOST: '127.0.0.1',
        POLYGON_API_KEY: '',
      },
    },
  ],
});
