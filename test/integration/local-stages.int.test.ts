/**
 * Local stages on real Redis and PostgreSQL. With them on (the default) a run goes through with the same
 * events and documents as with them off, in fewer BullMQ jobs: extract's job runs assemble, build (heuristic
 * builder) and validate too, and execute keeps its own job. A worker killed in the middle of such a chain
 * leaves its job stalled; another worker takes it back, the run resumes from its last commit and executes once.
 */
import { Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStageJob } from '../../src/engine/processor.ts';
import { STAGE_NAMES, type StageName } from '../../src/engine/stages.ts';
import type { StageJob } from '../../src/engine/dispatch.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { redisOptionsFromUrl, stageJobId, stageQueueName } from '../../src/queue/queues.ts';
import { createSystem, type QueuedSystem } from '../../src/system.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { registerExamples, settle, submit } from '../support/pipeline.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

const REQUEST = { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn, seed=77' };

let local: TestSystem;
let queued: TestSystem;

beforeAll(async () => {
  [local, queued] = await Promise.all([createTestSystem(), createTestSystem({ VETTED_LOCAL_STAGES: 'none' })]);
  await Promise.all([registerExamples(local), registerExamples(queued)]);
});
afterAll(async () => {
  await Promise.all([local?.dispose(), queued?.dispose()]);
});

/** Stage workers that count, per stage, the jobs they finished for each run. */
function countingWorkers(system: QueuedSystem): { workers: RunningWorkers; jobsOf(runId: string): StageName[] } {
  const workers = startWorkers(system, { kinds: STAGE_NAMES, stall: { lockDurationMs: 1000, stalledIntervalMs: 500 } });
  const done: StageJob[] = [];
  for (const worker of workers.workers) worker.on('completed', (job: Job<StageJob>) => done.push(job.data));
  // In stage order: a job's "completed" may be told after the next job's (workers race to mark them done).
  const inOrder = (stages: StageName[]) => stages.sort((a, b) => STAGE_NAMES.indexOf(a) - STAGE_NAMES.indexOf(b));
  return { workers, jobsOf: (runId) => inOrder(done.filter((job) => job.runId === runId).map((job) => job.stage)) };
}

/** What a run shows: its events (type, stage, actor) and its documents. */
async function shown(system: QueuedSystem, runId: string) {
  const run = await system.store.get(runId);
  const events = await system.store.events(runId);
  return {
    status: run?.status,
    events: events.map((event) => ({ type: event.type, stage: (event.data as { stage?: string }).stage ?? null, actor: event.actor })),
    bundle: run?.bundle ? { ...run.bundle } : null,
    candidate: run?.candidate?.payload,
    provenance: run?.candidate?.provenance,
    issues: run?.issues,
    output: run?.result?.output,
    executions: (await system.store.ledger.listForRun(runId)).length,
  };
}

describe('local stages', () => {
  it('default on: the same events and documents as with them off, in two jobs per run instead of five', async () => {
    const on = countingWorkers(local);
    const off = countingWorkers(queued);
    try {
      const [a, b] = await Promise.all([submit(local, REQUEST), submit(queued, REQUEST)]);
      await Promise.all([settle(local, a.id, ['completed', 'failed']), settle(queued, b.id, ['completed', 'failed'])]);
      const [withLocal, without] = await Promise.all([shown(local, a.id), shown(queued, b.id)]);
      expect(withLocal.status).toBe('completed');
      // Ids, times and durations differ between two runs; the bundle carries no ids, the rest is compared as is.
      expect(withLocal).toEqual(without);
      expect(withLocal.events.map((event) => event.type)).toEqual(['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'stage.completed', 'run.completed']);
      expect(withLocal.executions).toBe(1);
      await eventually(async () => (on.jobsOf(a.id).length === 2 && off.jobsOf(b.id).length === 5 ? true : undefined), 10_000, 'the jobs to be marked done');
      expect(on.jobsOf(a.id)).toEqual(['extract', 'execute']);
      expect(off.jobsOf(b.id)).toEqual(['extract', 'assemble', 'build', 'validate', 'execute']);
    } finally {
      await Promise.all([on.workers.close(), off.workers.close()]);
    }
  }, 40_000);

  it('an LLM-style builder (not deterministic) keeps its own build job; the stages around it stay local', async () => {
    const system = await createTestSystem({}, { adapters: { builders: { heuristic: undeterministic(local) } } });
    try {
      await registerExamples(system);
      const counted = countingWorkers(system);
      try {
        const run = await submit(system, REQUEST);
        expect((await settle(system, run.id, ['completed', 'failed'])).status).toBe('completed');
        await eventually(async () => (counted.jobsOf(run.id).length === 3 ? true : undefined), 10_000, 'the jobs to be marked done');
        expect(counted.jobsOf(run.id)).toEqual(['extract', 'build', 'execute']);
      } finally {
        await counted.workers.close();
      }
    } finally {
      await system.dispose();
    }
  }, 40_000);

  it('a worker killed mid-chain (after assemble committed, inside build): the run resumes from there and executes once', async () => {
    // The doomed worker's process: the same database and queues, a builder that never returns. It takes the
    // extract job, commits extract and assemble locally, then hangs in build; it is then force-closed (no lock
    // renewal, nothing recorded), as a killed process would be.
    let release: () => void = () => undefined;
    const heuristic = local.adapters.builder('heuristic');
    const hanging: PayloadBuilder = {
      name: 'heuristic', deterministic: true,
      build: (input) => new Promise((resolve) => (release = () => resolve(heuristic.build(input)))),
    };
    const doomedSystem = await createSystem(local.config, { migrate: false, adapters: { builders: { heuristic: hanging } } });
    await local.queues.stages.extract.drain();
    let zombie: Promise<unknown> = Promise.resolve();
    const doomed = new Worker<StageJob>(stageQueueName('extract'), (job) => (zombie = processStageJob(doomedSystem, job)), {
      connection: redisOptionsFromUrl(local.config.redisUrl),
      prefix: local.config.queuePrefix,
      lockDuration: 1000,
      skipStalledCheck: true,
    });
    let healthy: ReturnType<typeof countingWorkers> | undefined;
    try {
      const run = await submit(local, REQUEST);
      await eventually(async () => ((await local.store.get(run.id))?.status === 'building' ? true : undefined), 10_000, 'the chain to reach build');
      await doomed.close(true);
      const extractJob = stageJobId({ runId: run.id, stage: 'extract', attempt: 0 });
      expect(await local.queues.stages.extract.getJobState(extractJob)).toBe('active');

      healthy = countingWorkers(local);
      const stalled: string[] = [];
      healthy.workers.workers[0]?.on('stalled', (jobId) => stalled.push(jobId));
      const done = await settle(local, run.id, ['completed', 'failed'], 30_000);
      expect(done.status).toBe('completed');
      // Only the killed worker's job stalled (on a loaded machine the 1 s test lock may lapse once more).
      expect(new Set(stalled)).toEqual(new Set([extractJob]));
      // The retried extract job found its visit over and handed the run on: build ran in a job of its own.
      await eventually(async () => (healthy?.jobsOf(run.id).includes('execute') ? true : undefined), 10_000, 'the execute job to be marked done');
      expect(healthy.jobsOf(run.id)).toEqual(['extract', 'build', 'execute']);
      // The killed worker's build, let go now, commits against a visit that is over: nothing more is written.
      release();
      expect(await zombie).toBe('superseded');
      const after = await shown(local, run.id);
      expect(after.events.map((event) => event.stage ?? event.type)).toEqual(['run.created', 'extract', 'assemble', 'build', 'validate', 'run.completed']);
      expect(after.executions).toBe(1);
    } finally {
      release();
      await healthy?.workers.close();
      await doomedSystem.close();
    }
  }, 60_000);
});

/** The heuristic builder, saying it is not deterministic (as an LLM builder does). */
function undeterministic(system: QueuedSystem): PayloadBuilder {
  const heuristic = system.adapters.builder('heuristic');
  return { name: 'heuristic', build: (input, options) => heuristic.build(input, options) };
}
