/**
 * The stage hot path starts each visit from the row the previous move returned (src/db/visit-handoff.ts)
 * instead of reading the run. These tests drive the stage jobs by hand, in one process, to show that a run
 * changed between two stages is still never executed, and that the ledger's guarded writes hold on their own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunRow } from '../../src/db/schema/index.ts';
import type { StageName } from '../../src/generated/contracts.ts';
import { stageJobId } from '../../src/queue/queues.ts';
import { cancelRun, pauseRun, resumeRun } from '../../src/control/run-control.ts';
import { processStageJob, type JobResult } from '../../src/engine/processor.ts';
import { registerExamples, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;

beforeAll(async () => {
  // Driven stage by stage, each from its own job: every stage on its queue, none run in the job before it.
  system = await createTestSystem({ VETTED_LOCAL_STAGES: 'none' });
  await registerExamples(system);
});
afterAll(async () => system.dispose());

/**
 * Runs the run's current stage job (as a worker would, minus BullMQ's locking) and removes it from Redis.
 * `retry` runs it as BullMQ's second try of that job.
 */
async function runStage(run: RunRow, stage: StageName, options: { retry?: boolean } = {}): Promise<JobResult> {
  const attempt = run.attempt;
  const job = await system.queues.stages[stage].getJob(stageJobId({ runId: run.id, stage, attempt }));
  if (!job) throw new Error(`no ${stage} job for attempt ${attempt}`);
  if (options.retry) job.attemptsMade = 1;
  const result = await processStageJob(system, job);
  await job.remove();
  return result;
}

/** Drives a fresh run up to the point where the execute visit has been opened (and handed over). */
async function runUpToExecute(): Promise<RunRow> {
  let run = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a quiet harbour' });
  for (const stage of ['extract', 'assemble', 'build', 'validate'] as const) {
    expect(await runStage(run, stage)).toBe('done');
    run = (await system.store.get(run.id))!;
  }
  expect(run).toMatchObject({ status: 'executing', stage: 'execute' });
  return run;
}

describe('stage visits handed over in process', () => {
  it('a run driven stage by stage completes with one execution', async () => {
    const run = await runUpToExecute();
    expect(await runStage(run, 'execute')).toBe('done');
    expect((await system.store.get(run.id))?.status).toBe('completed');
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });

  it('a run cancelled after validate is not executed by the execute job that was already queued', async () => {
    const run = await runUpToExecute();
    await cancelRun(system, { runId: run.id, actor: 'operator' });
    expect(await runStage(run, 'execute')).toBe('superseded');
    expect((await system.store.get(run.id))?.status).toBe('cancelled');
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
    expect(system.logs.some((l) => l.event === 'STAGE_STALE_JOB' && l.runId === run.id)).toBe(true);
  });

  it('after pause and resume, the old execute job is stale and the new one executes once', async () => {
    const run = await runUpToExecute();
    await pauseRun(system, { runId: run.id, actor: 'operator' });
    const resumed = await resumeRun(system, { runId: run.id, actor: 'operator' });
    expect(resumed.attempt).toBeGreaterThan(run.attempt);
    expect(['stale', 'superseded']).toContain(await runStage(run, 'execute'));
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
    expect(await runStage(resumed, 'execute')).toBe('done');
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });
});

describe('the ledger, guarded by the execute visit', () => {
  it('a dry execution is recorded by the completing move itself, and the ledger row says what the run says', async () => {
    const run = await runUpToExecute();
    expect(await runStage(run, 'execute')).toBe('done');
    const [completed, [entry]] = await Promise.all([system.store.get(run.id), system.store.ledger.listForRun(run.id)]);
    expect(entry).toMatchObject({ step: 'execute:1', status: 'succeeded', provider: 'dry', result: completed?.result });
    expect(entry?.finishedAt?.getTime()).toBeLessThanOrEqual(completed!.updatedAt.getTime());
  });

  it('a step an earlier attempt recorded is reused: the run completes with that outcome, not a new one', async () => {
    const run = await runUpToExecute();
    const recorded = { provider: 'dry', status: 'succeeded' as const, output: 'recorded by an earlier attempt' };
    await system.store.ledger.begin({ runId: run.id, step: 'execute:1', provider: 'dry', payloadHash: 'h', runAttempt: run.attempt });
    await system.store.ledger.finish(run.id, 'execute:1', recorded);
    const dry = system.adapters.provider('dry');
    const execute = vi.spyOn(dry, 'execute');
    try {
      // A retry (the earlier attempt recorded the step, then died before its move) goes to the ledger first.
      expect(await runStage(run, 'execute', { retry: true })).toBe('done');
      expect(execute).not.toHaveBeenCalled();
    } finally {
      execute.mockRestore();
    }
    expect(await system.store.get(run.id)).toMatchObject({ status: 'completed', result: recorded });
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });

  it('writes nothing for a visit the run has left, and records the step at the current one', async () => {
    const run = await runUpToExecute();
    const step = { runId: run.id, step: 'execute:1', provider: 'dry', payloadHash: 'h' };
    const result = { provider: 'dry', status: 'succeeded' as const, output: null };
    expect(await system.store.ledger.begin({ ...step, runAttempt: run.attempt - 1 })).toBeUndefined();
    expect(await system.store.ledger.begin({ ...step, runAttempt: run.attempt + 1 })).toBeUndefined();
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
    expect(await system.store.ledger.begin({ ...step, runAttempt: run.attempt })).toMatchObject({ fresh: true });
    await system.store.ledger.finish(run.id, step.step, result);
    // The step exists now: a later writer gets the first row back, whatever visit it names.
    expect(await system.store.ledger.begin({ ...step, runAttempt: run.attempt - 1 })).toMatchObject({ fresh: false, row: { status: 'succeeded' } });
  });
});
