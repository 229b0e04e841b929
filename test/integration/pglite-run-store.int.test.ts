/**
 * The PostgreSQL RunStore on PGlite (embedded mode's store) against the RunStore contract
 * (test/engine/run-store.conformance.ts): the same repository and SQL as on the server, through the same
 * pg.Pool, one session. No server involved: the database lives in this process, in memory.
 */
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { runStoreConformance } from '../engine/run-store.conformance.ts';

runStoreConformance('PostgreSQL on PGlite', async () => {
  const system = await createEmbeddedSystem(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1' }));
  return { store: system.store, dispose: () => system.close() };
});
