import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in web mode against the real local stack (tests/e2e/support/global-setup.ts starts the Auth
 * emulator, the sandbox, the server on PGlite and Vite). The desktop suite loads the built renderer instead
 * (out/renderer; the global setup builds it when missing or stale). Debian's chromium is used; no browser is
 * downloaded.
 */
export default defineConfig({
  // Paths are relative to this file (kept here so the repository's top level stays as the mission names it).
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // docs/screenshots are refreshed on request (`npm run screenshots`), not on every test run.
  testIgnore: process.env.PARLEY_SCREENSHOTS === '1' ? [] : ['**/screenshots.spec.ts'],
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // 2 shared cores: one worker keeps the stack responsive; flows are independent (each signs up its own users).
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../../test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
