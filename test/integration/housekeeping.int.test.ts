/**
 * The housekeeping scenarios (test/engine/housekeeping-scenarios.ts) on both engines: PostgreSQL with the
 * BullMQ workers, and the embedded system (PGlite, the in-process runner). Same runs, same expectations.
 */
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { startWorkers } from '../../workers/start-workers.ts';
import { housekeepingScenarios } from '../engine/housekeeping-scenarios.ts';
import { createTestSystem } from '../support/test-system.ts';

housekeepingScenarios('PostgreSQL + BullMQ workers', async (env, clock) => {
  const system = await createTestSystem(env, { clock });
  const workers = startWorkers(system);
  return {
    system,
    async dispose() {
      await workers.close();
      await system.dispose();
    },
  };
});

housekeepingScenarios('embedded (PGlite + the in-process runner)', async (env, clock) => {
  const config = loadConfig({ DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1', ...env });
  const system = await createEmbeddedSystem(config, { clock });
  return { system, dispose: () => system.close() };
});
