/** The pipeline scenarios on the in-process engine: the memory store and the runner, no PostgreSQL, no Redis. */
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import { createInProcessEngine } from '../../src/engine/in-process.ts';
import { drain } from '../../src/engine/in-process-runner.ts';
import { pipelineScenarios, scenarioBuilder } from './scenarios.ts';

pipelineScenarios('in process (memory store)', async () => {
  const config = loadConfig({});
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config, { builders: { heuristic: scenarioBuilder() } }) });
  return {
    engine,
    async settle(runId, statuses) {
      await drain(engine);
      const run = await engine.store.get(runId);
      if (!run || !statuses.includes(run.status)) throw new Error(`run ${runId} rests ${run?.status ?? 'nowhere'}, not ${statuses.join('|')}`);
      return run;
    },
    dispose: async () => undefined,
  };
});
