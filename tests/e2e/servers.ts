/**
 * The e2e servers (playwright.config.ts starts them, the specs open them). E2E_PORT and E2E_DIR keep each
 * checkout's servers apart; the two extra ports follow E2E_PORT unless set.
 *   demo:    the app as `npm start` runs it without a key: the offline demo provider (every spec but detail's).
 *   polygon: a second app built and served with a key: its daily job fetches ratios and earnings dates from the fake
 *            Polygon server, and its provider is Polygon pointed at the same fake.
 *   fake:    tests/fixtures/fake-polygon-server.ts, the reference answers of tests/fixtures/polygon/.
 *   smtp:    tests/fixtures/smtp-catcher.ts, the SMTP server the demo app sends its mail to, read over HTTP.
 *   fake llm: tests/fixtures/fake-llm-server.ts, the OpenAI-compatible model server of the polygon app's AI pages.
 *   operator: its own small build, archive and accounts database with ADMIN_EMAILS, which tests/e2e/operator.spec.ts
 *            publishes to (so the other specs' site never changes under them).
 */
export const E2E_PORT = Number(process.env.E2E_PORT || 4391);
export const E2E_DIR = process.env.E2E_DIR || '.tmp/e2e';
export const POLYGON_APP_PORT = Number(process.env.E2E_POLYGON_PORT || E2E_PORT + 100);
export const FAKE_POLYGON_PORT = Number(process.env.E2E_FAKE_POLYGON_PORT || E2E_PORT + 200);
export const SMTP_CATCHER_PORT = Number(process.env.E2E_SMTP_PORT || E2E_PORT + 500);
export const SMTP_CATCHER_READ_PORT = SMTP_CATCHER_PORT + 1;
/** The paywall app: its own build with PAYWALL=on and its own accounts database (tests/e2e/paywall.spec.ts). */
export const PAYWALL_PORT = Number(process.env.E2E_PAYWALL_PORT || E2E_PORT + 300);
export const PAYWALL_URL = `http://127.0.0.1:${PAYWALL_PORT}`;
export const PAYWALL_DB = `${E2E_DIR}/paywall/app.db`;
/** The fake Stripe API the paywall app bills through; tests/e2e/paywall.spec.ts runs it in the test process. */
export const PAYWALL_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT || E2E_PORT + 400);
export const PAYWALL_STRIPE_WEBHOOK_SECRET = 'whsec_e2e_paywall';

/** The operator app (tests/e2e/operator.spec.ts): uploads publish into its own build. */
export const OPERATOR_PORT = Number(process.env.E2E_OPERATOR_PORT || E2E_PORT + 600);
export const OPERATOR_URL = `http://127.0.0.1:${OPERATOR_PORT}`;
export const OPERATOR_DIR = `${E2E_DIR}/operator`;
/** The operator's email (ADMIN_EMAILS of the operator app). */
export const OPERATOR_EMAIL = 'ops@example.com';
/** The last report date of the operator app's first build (its generated sample source ends on it). */
export const OPERATOR_FIRST_REPORT = '2026-11-20';

export const DEMO_URL = `http://127.0.0.1:${E2E_PORT}`;
export const POLYGON_URL = `http://127.0.0.1:${POLYGON_APP_PORT}`;
export const FAKE_POLYGON_URL = `http://127.0.0.1:${FAKE_POLYGON_PORT}`;
/** Where the tests read the mail the demo app sent. */
export const SMTP_CATCHER_READ_URL = `http://127.0.0.1:${SMTP_CATCHER_READ_PORT}`;
/** The fake OpenAI-compatible model server (tests/fixtures/fake-llm-server.ts) the polygon app's AI pages use (tests/e2e/ai.spec.ts). */
export const FAKE_LLM_PORT = Number(process.env.E2E_FAKE_LLM_PORT || E2E_PORT + 250);
export const FAKE_LLM_URL = `http://127.0.0.1:${FAKE_LLM_PORT}/v1`;
export const FAKE_LLM_KEY = 'e2e-fake-llm-key';
export const FAKE_LLM_MODEL = 'fake-model-e2e';

/** The guide video of the polygon app's Learn page (the demo app has none). */
export const LEARN_VIDEO_URL = 'https://www.youtube-nocookie.com/embed/e2e-guide';

/** The key the polygon app sends and the fake accepts. */
export const FAKE_POLYGON_KEY = 'e2e-fake-polygon-key';
