import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 4391);

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
    command: 'rm -rf .tmp/e2e && tsx src/server/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SIGNALS_SOURCE: 'data/sample-exports',
      ARCHIVE_DIR: '.tmp/e2e/archive',
      DIST_DIR: '.tmp/e2e/dist',
    },
  },
});
