import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_SMTP_PORT } from './constants.mjs';

/** Browser specs run in Debian's Chromium against one built server; Playwright never downloads a browser. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  // A lazily loaded screen on a loaded CI machine (two runs on two cores) took over 7 s to appear.
  expect: { timeout: 15_000 },
  outputDir: '../.test-output/e2e-artifacts',
  reporter: [['list'], ['json', { outputFile: '../.test-output/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'es-GT',
    timezoneId: 'America/Guatemala',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: ['**/imports.spec.ts', '**/export-restart.spec.ts'] },
    // Runs a second server of its own with a 150 000-row upload and kills it mid-validation: alone, after
    // the journeys, so neither starves the other of the machine's cores (both timed out side by side).
    { name: 'restart', testMatch: '**/imports.spec.ts', dependencies: ['journeys'] },
    // The same for a 40 000-row background export, after the upload's restart (one own server at a time).
    { name: 'restart-export', testMatch: '**/export-restart.spec.ts', dependencies: ['restart'] },
  ],
  webServer: {
    command: 'node serve.mjs',
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // Mail goes to the SMTP server auth.spec.ts starts for its password-reset journey. While none listens
    // (every other spec), the server's dispatcher only retries later: nothing waits on those messages.
    env: { SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}` },
  },
});
