import path from 'node:path';
import { defineConfig } from 'vitest/config';

const integration = { globalSetup: ['migrations/src/testing/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Two cores: keep the number of test processes small so integration tests do not starve.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', include: ['shared/src/**/*.test.ts'], environment: 'node', testTimeout: 20_000 } },
      // Unit tests of the server packages' own modules (no database): @nh/server and the workers' mail code.
      { test: { name: 'server', include: ['migrations/src/**/*.test.ts', 'workers/src/**/*.test.ts'], environment: 'node', testTimeout: 20_000 } },
      { test: { name: 'api', include: ['api/test/**/*.test.ts'], environment: 'node', ...integration } },
      { test: { name: 'workers', include: ['workers/test/**/*.test.ts'], environment: 'node', ...integration } },
      {
        resolve: { alias: { '@': path.resolve(import.meta.dirname, 'web/src') } },
        test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'jsdom', testTimeout: 20_000 },
      },
      { test: { name: 'e2e', include: ['web/e2e/**/*.test.ts'], environment: 'node', ...integration, testTimeout: 60_000, fileParallelism: false } },
    ],
  },
});
