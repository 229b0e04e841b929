/**
 * The queue layer as Redis holds it: one queue per stage with ids-only job data, per-stage retries with
 * exponential backoff, bounded retention, and a job whose worker died mid-stage going back to the queue.
 */
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_NAMES } from '../../src/engine/stages.ts';
import { redisOptionsFromUrl, stageJobId, stageQueueName } from '../../src/queue/queues.ts';
import { startWorkers } from '../../workers/start-workers.ts';
import { registerExamples, settle, submit } from '../support/pipeline.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
  await registerExamples(system);
});
afterAll(async () => system.dispose());

describe('stage queues', () => {
  it('one queue per stage, in pipeline order, under the configured prefix', () => {
    expect(Object.keys(system.queues.stages)).toEqual([...STAGE_NAMES]);
    for (const stage of STAGE_NAMES) {
      expect(system.queues.stages[stage].name).toBe(stageQueueName(stage));
      expect(system.queues.stages[stage].opts.prefix).toBe(system.config.queuePrefix);
    }
  });

  it('a stage job holds ids only, retries with exponential backoff, and is removed when done (failures kept a bounded week)', async () => {
    const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse' });
    const job = await system.queues.stages.extract.getJob(stageJobId({ runId: run.id, stage: 'extract', attempt: 0 }));
    expect(job?.data).toEqual({ runId: run.id, stage: 'extract', attempt: 0 });
    expect(job?.opts).toMatchObject({
      attempts: 5,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    });
    // The stages that call out (the LLM, the provider) get more room than the pure ones.
    const attempts = await Promise.all(STAGE_NAMES.map(async (stage) => {
      const probe = await system.queues.stages[stage].add('probe', { runId: run.id, stage, attempt: 99 }, { ...system.queues.stages[stage].defaultJobOptions, jobId: `probe-${stage}` });
      const options = probe.opts;
      await probe.remove();
      return options.attempts;
    }));
    expect(Object.fromEntries(STAGE_NAMES.map((stage, i) => [stage, attempts[i]]))).toEqual({ extract: 5, assemble: 5, build: 6, validate: 5, execute: 8 });
  });

  it('enqueueing the same visit twice leaves one job', async () => {
    const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a harbour' });
    await system.queues.enqueueStage({ runId: run.id, stage: 'extract', attempt: 0 });
    const jobs = await system.queues.stages.extract.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(jobs.filter((job) => job?.data.runId === run.id)).toHaveLength(1);
  });
});

describe('a worker that dies mid-stage', () => {
  it('leaves its job stalled; another worker takes it back and the run completes once', async () => {
    // A worker that takes the extract job and never finishes it, with a short lock, then vanishes without
    // a goodbye (force-closed: no lock renewal, no failure recorded), as a killed process would. The jobs
    // the tests above left waiting go first, so that the job it takes is this run's.
    await system.queues.stages.extract.drain();
    const doomed = new Worker(stageQueueName('extract'), () => new Promise(() => undefined), {
      connection: redisOptionsFromUrl(system.config.redisUrl),
      prefix: system.config.queuePrefix,
      lockDuration: 1000,
      // Its own stalled check would claim the queue's check slot for its interval and delay the others'.
      skipStalledCheck: true,
    });
    const run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse in the fog' });
    const jobId = stageJobId({ runId: run.id, stage: 'extract', attempt: 0 });
    await eventually(async () => ((await system.queues.stages.extract.getJobState(jobId)) === 'active' ? true : undefined), 10_000, 'the doomed worker to take the job');
    await doomed.close(true);

    const workers = startWorkers(system, { kinds: STAGE_NAMES, stall: { lockDurationMs: 1000, stalledIntervalMs: 500 } });
    const stalled: string[] = [];
    workers.workers[0]?.on('stalled', (jobId) => stalled.push(jobId));
    try {
      const done = await settle(system, run.id, ['completed', 'failed'], 30_000);
      expect(done.status).toBe('completed');
      // The doomed worker's job, and only it, stalled. (Its retry also runs the local stages after extract,
      // so on a loaded machine the 1 s test lock may lapse once more on that longer job: it is the same job.)
      expect(new Set(stalled)).toEqual(new Set([jobId]));
      expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
      const events = await system.store.events(run.id);
      expect(events.filter((event) => event.type === 'run.completed')).toHaveLength(1);
    } finally {
      await workers.close();
    }
  }, 45_000);
});
