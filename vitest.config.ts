import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // PGlite is single-threaded WASM; two workers match the two cores of our machines.
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'] } },
      // Pure TypeScript of the web app (formats, translations completeness, themes): no browser needed.
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
