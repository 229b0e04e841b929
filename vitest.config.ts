import { defineConfig } from 'vitest/config';

// Two projects. `unit` is the fast path: pure logic, and the engine on its in-memory store (test/engine), with
// no PostgreSQL and no Redis (`npm run test:fast`). `integration` talks to the real PostgreSQL and Redis, which
// test/global-setup.ts checks once (scripts/ensure-services.sh starts them under `npm test`). Each integration
// file owns a database and a BullMQ prefix (test/support/test-system.ts), so the two forks never collide.
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
    ],
  },
});
