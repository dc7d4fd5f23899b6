import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 4391);
// Each checkout may run its own e2e server: E2E_PORT and E2E_DIR keep them apart.
const e2eDir = process.env.E2E_DIR || '.tmp/e2e';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // The real `npm start` path: the server runs the daily job into a fresh folder first, then serves it.
  webServer: {
    command: `rm -rf ${e2eDir} && tsx src/server/main.ts`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SIGNALS_SOURCE: 'data/sample-exports',
      ARCHIVE_DIR: `${e2eDir}/archive`,
      DIST_DIR: `${e2eDir}/dist`,
    },
  },
});
