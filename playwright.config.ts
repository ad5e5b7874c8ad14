import { defineConfig, devices } from '@playwright/test';
import {
  E2E_BASE_URL,
  E2E_CHROMIUM,
  E2E_DATABASE_FILE,
  E2E_DIR,
  E2E_PORT,
  E2E_WEB_DIST,
} from './e2e/e2e-env';

// Debian's Chromium (its headless shell), not a browser downloaded by Playwright.
const chromium = {
  executablePath: E2E_CHROMIUM,
  args: [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  // a journey takes 5-15 s here; the margin is for a shared CI machine under load, not for slow code
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  // CI machines are shared and slower; one retry absorbs a timing hiccup, and a real failure fails twice
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: E2E_BASE_URL,
    // recording a trace costs a journey about half its CPU: only a retry, the run that shows a failure again, records one
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
    // the web build's service worker precaches the whole app shell on a first visit; a journey that needs it (the
    // offline one) allows it, the others are spared the download
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'laptop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 800 }, launchOptions: chromium },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E_DIR} && node --import tsx server/main.ts`,
    url: `${E2E_BASE_URL}/api/auth/`,
    // any HTTP answer, 401 included, means the server is up
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${E2E_DATABASE_FILE}`,
      SEED_DEMO: 'true',
      LOGIN_RATE_LIMIT: '10000',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: E2E_WEB_DIST,
    },
  },
});
