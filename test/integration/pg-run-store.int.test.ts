/** The PostgreSQL RunStore against the RunStore contract (test/engine/run-store.conformance.ts), on the real server. */
import { runStoreConformance } from '../engine/run-store.conformance.ts';
import { createTestSystem } from '../support/test-system.ts';

runStoreConformance('PostgreSQL', async () => {
  const system = await createTestSystem();
  return { store: system.store, dispose: () => system.dispose() };
});
