import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

/**
 * Opt-in, not part of `npm test`: screenshots of every screen of the demo company at laptop (1280 x 800), touch
 * tablet (820 x 1180) and touch phone (390 x 844) sizes, for a person to look at.
 *
 *   npx vite build --logLevel warn
 *   E2E_PORT=5120 npx playwright test --config scripts/screens/screens.config.ts
 *
 * The PNGs land in `.tmp/screens/{laptop,tablet,phone}/`; the run also prints any screen that scrolls sideways.
 */
// the same browser as the e2e run
const chromium = base.use?.launchOptions;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'screens.tour.ts',
  globalSetup: undefined,
  timeout: 240_000,
  workers: 3,
  retries: 0,
  use: { ...base.use, trace: 'off', screenshot: 'off', launchOptions: chromium },
  projects: [
    { name: 'laptop', use: { viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
    {
      name: 'tablet',
      use: {
        viewport: { width: 820, height: 1180 },
        hasTouch: true,
        isMobile: true,
        launchOptions: chromium,
      },
    },
    {
      name: 'phone',
      use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, launchOptions: chromium },
    },
  ],
  // the e2e server (with the demo company seeded), started from the repository root
  webServer:
    base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: '../..' } : undefined,
});
