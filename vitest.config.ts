import { defineConfig } from 'vitest/config';

// Three projects. `unit` is the fast path: pure logic, and the engine on its in-memory store (test/engine), with
// no PostgreSQL and no Redis (`npm run test:fast`). `integration` talks to the real PostgreSQL and Redis, which
// test/global-setup.ts checks once (scripts/ensure-services.sh starts them under `npm test`). Each integration
// file owns a database and a BullMQ prefix (test/support/test-system.ts), so the two forks never collide. `e2e`
// drives the reviewer console in Chromium (`npm run test:e2e` alone).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Generous timeouts: two forks share two cores with PostgreSQL and Redis, and a slow moment is not a bug.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/engine/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      // The reviewer console in Debian's Chromium (scripts/test-e2e.sh installs it and builds the console).
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
