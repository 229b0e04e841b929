import { defineConfig } from 'vitest/config';

// Two projects: `unit` is pure logic with no I/O; `integration` talks to the real PostgreSQL and Redis,
// which test/global-setup.ts checks (and starts) once. Each integration file owns a database and a BullMQ
// prefix (test/fixtures.ts), so the two forks on this 2-core machine never collide.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Generous timeouts: two forks share two cores with PostgreSQL and Redis, and a slow moment is not a bug.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
