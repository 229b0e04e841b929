/** The memory RunStore against the RunStore contract: no PostgreSQL, no Redis. */
import { createMemoryRunStore } from '../../src/engine/memory-store.ts';
import { runStoreConformance } from './run-store.conformance.ts';

runStoreConformance('memory', async () => ({ store: createMemoryRunStore(), dispose: async () => undefined }));
