/**
 * Local stages in the in-process runner: which jobs a run takes with them on and off, what the trail says
 * either way, and a local visit whose try fails transiently going to its own stage's job.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import type { StageJob } from '../../src/engine/dispatch.ts';
import { createInProcessEngine, type InProcessEngine } from '../../src/engine/in-process.ts';
import { runToRest } from '../../src/engine/in-process-runner.ts';
import { VettedError } from '../../src/errors.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import type { PayloadBuilder } from '../../src/ports.ts';

function engineWith(env: Record<string, string>, builder?: PayloadBuilder): { engine: InProcessEngine; jobs: StageJob[] } {
  const config = loadConfig(env);
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config, builder ? { builders: { heuristic: builder } } : {}) });
  const jobs: StageJob[] = [];
  const enqueue = engine.dispatch.enqueueStage.bind(engine.dispatch);
  engine.dispatch.enqueueStage = async (job) => {
    jobs.push(job);
    await enqueue(job);
  };
  return { engine, jobs };
}

async function runOnce(engine: InProcessEngine) {
  const source = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
  await registerModel(engine, { tenantId: 'acme', source });
  const { run } = await submitRun(engine, { tenantId: 'acme', actor: 'test', request: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron, seed=5' } });
  const rested = await runToRest(engine, run.id);
  const events = (await engine.store.events(run.id)).map((event) => ({ type: event.type, stage: (event.data as { stage?: string }).stage ?? null }));
  return { rested, events };
}

describe('local stages, in process', () => {
  it('default: a run is two jobs (extract, execute), with the same trail and payload as five jobs with them off', async () => {
    const on = engineWith({});
    const off = engineWith({ VETTED_LOCAL_STAGES: 'none' });
    const [a, b] = [await runOnce(on.engine), await runOnce(off.engine)];
    expect(a.rested.status).toBe('completed');
    expect(on.jobs.map((job) => job.stage)).toEqual(['extract', 'execute']);
    expect(off.jobs.map((job) => job.stage)).toEqual(['extract', 'assemble', 'build', 'validate', 'execute']);
    expect(a.events).toEqual(b.events);
    expect(a.events.map((event) => event.stage ?? event.type)).toEqual(['run.created', 'extract', 'assemble', 'build', 'validate', 'run.completed']);
    expect(a.rested.candidate?.payload).toEqual(b.rested.candidate?.payload);
    expect(a.rested.result?.output).toEqual(b.rested.result?.output);
  });

  it('a list names the stages that may be local; a builder that is not deterministic keeps its own job', async () => {
    const listed = engineWith({ VETTED_LOCAL_STAGES: 'validate' });
    await runOnce(listed.engine);
    expect(listed.jobs.map((job) => job.stage)).toEqual(['extract', 'assemble', 'build', 'execute']);
    const heuristic = createHeuristicBuilder();
    const llmLike = engineWith({}, { name: 'heuristic', build: (input) => heuristic.build(input) });
    await runOnce(llmLike.engine);
    expect(llmLike.jobs.map((job) => job.stage)).toEqual(['extract', 'build', 'execute']);
  });

  it('a local visit whose try fails transiently is handed to its own stage job, which completes the run', async () => {
    const heuristic = createHeuristicBuilder();
    let tries = 0;
    const flaky: PayloadBuilder = {
      name: 'heuristic',
      deterministic: true,
      build: (input) => (++tries === 1 ? Promise.reject(new VettedError('SERVICE_UNAVAILABLE', 'a blip')) : heuristic.build(input)),
    };
    const { engine, jobs } = engineWith({}, flaky);
    const { rested, events } = await runOnce(engine);
    expect(rested.status).toBe('completed');
    expect(tries).toBe(2);
    expect(jobs.map((job) => job.stage)).toEqual(['extract', 'build', 'execute']);
    expect(events.map((event) => event.stage ?? event.type)).toEqual(['run.created', 'extract', 'assemble', 'build', 'validate', 'run.completed']);
  });
});
