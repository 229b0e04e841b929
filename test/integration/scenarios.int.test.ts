/** The pipeline scenarios (test/engine/scenarios.ts) on PostgreSQL and BullMQ, with the real workers. */
import { startWorkers } from '../../workers/start-workers.ts';
import { pipelineScenarios, scenarioBuilder } from '../engine/scenarios.ts';
import { settle } from '../support/pipeline.ts';
import { createTestSystem } from '../support/test-system.ts';

pipelineScenarios('PostgreSQL + BullMQ workers', async () => {
  const system = await createTestSystem({}, { adapters: { builders: { heuristic: scenarioBuilder() } } });
  const workers = startWorkers(system);
  return {
    engine: system,
    settle: (runId, statuses) => settle(system, runId, statuses),
    async dispose() {
      await workers.close();
      await system.dispose();
    },
  };
});
